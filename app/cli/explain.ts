import { PLATFORMS } from '../../compiler/diagnostic.js';
import { explainMatrix, type ExplainMatrix } from '../views/matrix.js';
import { formatText } from '../format/text.js';
import { formats, renderer } from '../format/registry.js';
import type { CheckResult } from '../check.js';
import { configReader, platformsFrom, UsageError, type ConfigArgs } from './options.js';
import { colourOf, readArg, type CliIo } from './io.js';
import { useColour } from '../format/colour.js';

export interface ExplainArgs extends ConfigArgs {
  config?: string;
  format?: string;
  platform?: string | string[];
}

/** Cursor's and VS Code's settings have no model (neither sandbox is modelled here): said after their lint. */
const lintOnly = (check: CheckResult): string =>
  check.dialect === 'cursor' || check.dialect === 'vscode'
    ? `${check.file}: ${check.dialect === 'cursor' ? "Cursor's sandbox.json is" : "VS Code's agent sandbox settings are"} ` +
      `linted only: boxwright has no model of ${check.dialect === 'cursor' ? "Cursor's" : "VS Code's"} ` +
      `sandbox to explain (docs/dialects/${check.dialect}.md)\n`
    : '';

/** The matrix of a checked config (from its own model), or the front-end errors that prevent one. */
export function explainCheck(check: CheckResult): { matrix?: ExplainMatrix; errors: string } {
  if (!check.ir) {
    return {
      errors:
        formatText([
          {
            path: check.file,
            text: check.text,
            ...(check.dialect ? { dialect: check.dialect } : {}),
            verdicts: check.verdicts,
            diagnostics: check.diagnostics,
          },
        ]) + lintOnly(check),
    };
  }
  return { matrix: explainMatrix(check.model, check.diagnostics, check.verdicts), errors: '' };
}

/** Keeps only the selected platforms' columns. */
export function onlyPlatforms(m: ExplainMatrix, platforms: readonly string[]): ExplainMatrix {
  if (platforms.length === PLATFORMS.length) return m;
  const pick = <T>(r: Readonly<Record<string, T>>): Record<string, T> =>
    Object.fromEntries(Object.entries(r).filter(([p]) => platforms.includes(p)));
  return {
    ...m,
    verdicts: pick(m.verdicts) as ExplainMatrix['verdicts'],
    principals: m.principals.map((pm) => ({
      ...pm,
      elsewhere: pick(pm.elsewhere) as typeof pm.elsewhere,
      rows: pm.rows.map((r) => ({ ...r, cells: pick(r.cells) as typeof r.cells })),
    })),
  };
}

/** `boxwright explain CONFIG`: exit 0, 1 when the config cannot be read as a policy, 2 usage. */
export async function explainCommand(args: ExplainArgs, io: CliIo): Promise<number> {
  if (!args.config) throw new UsageError('name the config to explain (- reads it from standard input): boxwright explain CONFIG');
  const input = readArg(io, args.config);
  if ('error' in input) {
    io.stderr.write(`boxwright: ${input.error}\n`);
    return 2;
  }
  const platforms = platformsFrom(args.platform);
  useColour(colourOf(io));
  const { matrix, errors } = explainCheck(configReader(args, undefined, undefined, undefined, io).checkRead(input.bytes, args.config));
  if (!matrix) {
    io.stderr.write(errors);
    return 1;
  }
  const render = await renderer(formats.explain, args.format);
  const out = render(onlyPlatforms(matrix, platforms));
  if (typeof out === 'string') io.stdout.write(out);
  else for (const piece of out) io.stdout.write(piece);
  return 0;
}
