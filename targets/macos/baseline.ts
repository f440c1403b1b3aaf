import data from './baseline.json' with { type: 'json' };
import { sbplRegex, sbplString, sbplSymbol } from './sbpl.js';

/** One filter of a baseline rule, as the data file spells it. */
export type BaselineFilter =
  | { readonly literal: string }
  | { readonly subpath: string }
  | { readonly regex: { readonly prefix: string; readonly rest: string } }
  | { readonly 'sysctl-name': string }
  | { readonly 'sysctl-name-prefix': string }
  | { readonly 'global-name': string }
  | { readonly target: string };

export interface BaselineRule {
  readonly reason: string;
  readonly operations: readonly string[];
  readonly filters?: readonly BaselineFilter[];
}

/** Filters whose value is a string literal; `target` takes a symbol, `regex` a regex literal. */
const stringFilters = ['literal', 'subpath', 'sysctl-name', 'sysctl-name-prefix', 'global-name'] as const;

function renderFilter(f: BaselineFilter): string {
  const keys = Object.keys(f);
  if (keys.length !== 1) throw new Error(`baseline filter ${JSON.stringify(f)} must have exactly one key`);
  const key = keys[0]!;
  if ('regex' in f) return `(regex ${sbplRegex(f.regex.prefix, f.regex.rest)})`;
  if ('target' in f) return `(target ${sbplSymbol(f.target)})`;
  if ((stringFilters as readonly string[]).includes(key)) return `(${key} ${sbplString((f as Record<string, string>)[key]!)})`;
  throw new Error(`unknown baseline filter ${JSON.stringify(key)}`);
}

/** The baseline rules, validated once when the module loads. */
export const baselineRules: readonly BaselineRule[] = data.rules as readonly BaselineRule[];

/** The rendered baseline: for each rule, its reason and its SBPL text (one line, or one line per filter). */
export const renderedBaseline: readonly { readonly reason: string; readonly sbpl: string }[] = baselineRules.map((r) => {
  if (!r.reason || /[\n\r]/.test(r.reason)) throw new Error('every baseline rule needs a one-line reason');
  if (r.operations.length === 0) throw new Error(`baseline rule "${r.reason}" names no operation`);
  const head = `(allow ${r.operations.map(sbplSymbol).join(' ')}`;
  const filters = (r.filters ?? []).map(renderFilter);
  if (filters.length === 0) return { reason: r.reason, sbpl: `${head})` };
  if (filters.length === 1) return { reason: r.reason, sbpl: `${head} ${filters[0]})` };
  return { reason: r.reason, sbpl: `${head}\n${filters.map((f) => `  ${f}`).join('\n')})` };
});

/** The paths the baseline names (literal and subpath filters, regex prefixes), for path resolution. */
export const baselinePaths: readonly string[] = baselineRules.flatMap((r) =>
  (r.filters ?? []).flatMap((f) => ('literal' in f ? [f.literal] : 'subpath' in f ? [f.subpath] : 'regex' in f ? [f.regex.prefix] : [])),
);
