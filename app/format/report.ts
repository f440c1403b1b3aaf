import type { Diagnostic, Platform, Verdict } from '../../compiler/diagnostic.js';
import type { Dialect } from '../../compiler/schema/validate.js';

/** What every output format renders for a file that was read and checked. */
export interface FileReport {
  readonly path: string;
  readonly text: string;
  readonly dialect?: Dialect;
  readonly verdicts: Readonly<Record<Platform, Verdict>>;
  readonly diagnostics: readonly Diagnostic[];
}

/** A file named on the command line that could not be read (missing, a directory, no permission). */
export interface UnreadableFile {
  readonly path: string;
  /** Why, in words: `no such file`, `is a directory`. */
  readonly error: string;
}

/** One entry per file named, in the order named: checked, or why it could not be. */
export type LintEntry = FileReport | UnreadableFile;

export function isUnreadable(f: LintEntry): f is UnreadableFile {
  return 'error' in f;
}

export function checkedFiles(files: readonly LintEntry[]): FileReport[] {
  return files.filter((f): f is FileReport => !isUnreadable(f));
}

export interface Totals {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Files that could not be read. */
  readonly unreadable: number;
}

export function totals(files: readonly LintEntry[]): Totals {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let unreadable = 0;
  for (const f of files) {
    if (isUnreadable(f)) {
      unreadable++;
      continue;
    }
    for (const d of f.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      else infos++;
    }
  }
  return { errors, warnings, infos, unreadable };
}

/** `, 1 file not read` when some were not; '' otherwise. */
export function unreadableText(t: Totals): string {
  return t.unreadable ? `, ${t.unreadable} file${t.unreadable === 1 ? '' : 's'} not read` : '';
}

/** `1 warning`, `2 warnings`: a count and its noun, singular or plural. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
