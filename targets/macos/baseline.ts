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
  | { readonly 'iokit-registry-entry-class': string }
  | { readonly 'ipc-posix-name': string }
  | { readonly extension: string }
  | { readonly target: string }
  | { readonly 'vnode-type': string }
  | { readonly 'require-all': readonly BaselineFilter[] };

export interface BaselineRule {
  readonly reason: string;
  /** `deny` takes back part of what an earlier allow's wildcard names (`mach-host*`); allow when absent. */
  readonly action?: 'allow' | 'deny';
  /** Ids of `sources`: the peer or Apple profiles that grant the same. */
  readonly sources: readonly string[];
  readonly operations: readonly string[];
  readonly filters?: readonly BaselineFilter[];
}

/** What a peer grants and boxwright does not, and why. */
export interface NotTaken {
  readonly what: string;
  readonly sources: readonly string[];
  readonly why: string;
}

/** Filters whose value is a string literal; `target` and `vnode-type` take a symbol, `regex` a regex literal, `require-all` filters. */
const stringFilters = [
  'literal',
  'subpath',
  'sysctl-name',
  'sysctl-name-prefix',
  'global-name',
  'iokit-registry-entry-class',
  'ipc-posix-name',
  'extension',
] as const;

function renderFilter(f: BaselineFilter): string {
  const keys = Object.keys(f);
  if (keys.length !== 1) throw new Error(`baseline filter ${JSON.stringify(f)} must have exactly one key`);
  const key = keys[0]!;
  if ('regex' in f) return `(regex ${sbplRegex(f.regex.prefix, f.regex.rest)})`;
  if ('target' in f) return `(target ${sbplSymbol(f.target)})`;
  if ('vnode-type' in f) return `(vnode-type ${sbplSymbol(f['vnode-type'])})`;
  if ('require-all' in f) return `(require-all ${f['require-all'].map(renderFilter).join(' ')})`;
  if ((stringFilters as readonly string[]).includes(key)) return `(${key} ${sbplString((f as Record<string, string>)[key]!)})`;
  throw new Error(`unknown baseline filter ${JSON.stringify(key)}`);
}

/** The source ids and what each names. */
export const baselineSources: Readonly<Record<string, string>> = data.sources;

function checked(rules: readonly BaselineRule[], where: string): readonly BaselineRule[] {
  for (const r of rules) {
    if (!r.reason || /[\n\r]/.test(r.reason)) throw new Error(`every ${where} rule needs a one-line reason`);
    if (r.operations.length === 0) throw new Error(`${where} rule "${r.reason}" names no operation`);
    if (!r.sources?.length) throw new Error(`${where} rule "${r.reason}" names no source`);
    for (const s of r.sources)
      if (!(s in baselineSources)) throw new Error(`${where} rule "${r.reason}": unknown source ${JSON.stringify(s)}`);
  }
  return rules;
}

/** The baseline rules, validated once when the module loads. */
export const baselineRules: readonly BaselineRule[] = checked(data.rules as readonly BaselineRule[], 'baseline');
/** The rules a direct network exception adds, after its (allow network-outbound). */
export const directNetworkRules: readonly BaselineRule[] = checked(data.directNetwork as readonly BaselineRule[], 'directNetwork');
/** What the peers grant and the baseline leaves out, with the reasons. */
export const notTaken: readonly NotTaken[] = data.notTaken;

/** A rule's SBPL text: one line, or one line per filter. */
export function renderRule(r: BaselineRule): string {
  const head = `(${r.action ?? 'allow'} ${r.operations.map(sbplSymbol).join(' ')}`;
  const filters = (r.filters ?? []).map(renderFilter);
  if (filters.length === 0) return `${head})`;
  if (filters.length === 1) return `${head} ${filters[0]})`;
  return `${head}\n${filters.map((f) => `  ${f}`).join('\n')})`;
}

/** The rendered baseline: for each rule, its reason and its SBPL text. */
export const renderedBaseline: readonly { readonly reason: string; readonly sbpl: string }[] = baselineRules.map((r) => ({
  reason: r.reason,
  sbpl: renderRule(r),
}));

/** The paths the baseline names (literal and subpath filters, regex prefixes), for path resolution. */
const pathsOf = (f: BaselineFilter): string[] =>
  'literal' in f
    ? [f.literal]
    : 'subpath' in f
      ? [f.subpath]
      : 'regex' in f
        ? [f.regex.prefix]
        : 'require-all' in f
          ? f['require-all'].flatMap(pathsOf)
          : [];
export const baselinePaths: readonly string[] = baselineRules.flatMap((r) => (r.filters ?? []).flatMap(pathsOf));
