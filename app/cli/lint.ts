import type { FileReport } from '../format/report.js';
import { totals } from '../format/report.js';
import { formats, renderer } from '../format/registry.js';
import { configReader, platformsFrom, type ConfigArgs } from './options.js';
import { readInput } from './read-input.js';

export interface LintArgs extends ConfigArgs {
  files?: string[];
  format?: string;
  platform?: string | string[];
  'max-warnings'?: number;
}

/** Exit 0 clean (info only), 1 errors or too many warnings, 2 usage or unreadable input. */
export async function lintCommand(args: LintArgs): Promise<number> {
  const reader = configReader(args);
  const platforms = platformsFrom(args.platform);
  const files = args.files?.length ? args.files : ['-'];
  const reports: FileReport[] = [];
  let unreadable = false;
  for (const path of files) {
    const input = readInput(path);
    if ('error' in input) {
      process.stderr.write(`boxwright: ${input.error}\n`);
      unreadable = true;
      continue;
    }
    const result = reader.check(input.bytes, path === '-' ? '<stdin>' : path, platforms);
    reports.push({ path: result.file, text: result.text, ...(result.dialect ? { dialect: result.dialect } : {}), verdicts: result.verdicts, diagnostics: result.diagnostics });
  }
  const render = await renderer(formats.lint, args.format);
  process.stdout.write(render({ files: reports, base: process.cwd() }));
  if (unreadable) return 2;
  const t = totals(reports);
  if (t.errors > 0) return 1;
  const max = args['max-warnings'];
  if (max !== undefined && max >= 0 && t.warnings > max) {
    process.stderr.write(`boxwright: ${t.warnings} warnings exceed --max-warnings ${max}\n`);
    return 1;
  }
  return 0;
}
