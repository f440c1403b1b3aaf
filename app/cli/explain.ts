import { PLATFORMS } from '../../compiler/diagnostic.js';
import { effectiveAccess } from '../../model/index.js';
import { explainMatrix, type ExplainMatrix } from '../views/matrix.js';
import { formatText } from '../format/text.js';
import { checkConfig } from '../check.js';
import { fsViewFrom, platformsFrom, sessionFrom, type ConfigArgs } from './options.js';
import { readInput } from './read-input.js';

export interface ExplainArgs extends ConfigArgs {
  config?: string;
  format?: string;
  platform?: string | string[];
}

/** The matrix of a config, or the front-end errors that prevent one. */
export function explainBytes(bytes: Uint8Array, file: string, args: ExplainArgs): { matrix?: ExplainMatrix; errors: string } {
  const view = fsViewFrom(args.fs, args.home);
  const check = checkConfig(bytes, { file, view, ...sessionFrom(args), ...(args.dialect ? { dialect: args.dialect } : {}) });
  if (!check.ir) {
    return { errors: formatText([{ path: file, text: check.text, ...(check.dialect ? { dialect: check.dialect } : {}), verdicts: check.verdicts, diagnostics: check.diagnostics }]) };
  }
  return { matrix: explainMatrix(effectiveAccess(check.ir), check.diagnostics, check.verdicts), errors: '' };
}

/** Keeps only the selected platforms' columns. */
export function onlyPlatforms(m: ExplainMatrix, platforms: readonly string[]): ExplainMatrix {
  if (platforms.length === PLATFORMS.length) return m;
  const pick = <T>(r: Readonly<Record<string, T>>): Record<string, T> => Object.fromEntries(Object.entries(r).filter(([p]) => platforms.includes(p)));
  return {
    ...m,
    verdicts: pick(m.verdicts) as ExplainMatrix['verdicts'],
    principals: m.principals.map((pm) => ({ ...pm, elsewhere: pick(pm.elsewhere) as typeof pm.elsewhere, rows: pm.rows.map((r) => ({ ...r, cells: pick(r.cells) as typeof r.cells })) })),
  };
}

/** `boxwright explain CONFIG`: exit 0, 1 when the config cannot be read as a policy, 2 usage. */
export async function explainCommand(args: ExplainArgs): Promise<number> {
  const input = readInput(args.config ?? '-');
  if ('error' in input) {
    process.stderr.write(`boxwright: ${input.error}\n`);
    return 2;
  }
  const platforms = platformsFrom(args.platform);
  const { matrix, errors } = explainBytes(input.bytes, args.config ?? '<stdin>', args);
  if (!matrix) {
    process.stderr.write(errors);
    return 1;
  }
  const { explainText, explainMarkdown, explainJson } = await import('../format/explain.js');
  const shown = onlyPlatforms(matrix, platforms);
  process.stdout.write(args.format === 'markdown' ? explainMarkdown(shown) : args.format === 'json' ? explainJson(shown) : explainText(shown));
  return 0;
}
