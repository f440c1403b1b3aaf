/**
 * `lint --fix`, `--unsafe-fixes` and `--diff` (issue 40): the fix loop of
 * app/fix-apply.ts run on each config lint checked, the fixed file written
 * in place, or the change shown as a unified diff. app/cli/lint.ts imports
 * this only when one of the three options is given, and bin/boxwright.cjs
 * sends such a lint to the full bundle (dist/cli/lint.cjs holds none of
 * this, nor the `diff` package: scripts/bundles.mjs), so a plain lint's
 * start-up pays nothing for it.
 *
 * Decisions, each fail-closed:
 * - `--unsafe-fixes` alone is a usage error: it says which fixes to apply, not to apply them.
 * - `--diff` writes nothing, with or without `--fix`; it prints only the diff (the remaining findings are
 *   what `--fix` would then report), so any `--format` but text is a usage error. Exit 1 when any file
 *   would change, 0 when none would, 2 on an unreadable file or a file that cannot be fixed (ruff's).
 * - `--fix` cannot write standard input: a usage error (exit 2); `--diff -` shows what it would do.
 * - A file is rewritten atomically: a new file beside it (its mode and owner kept), then renamed over
 *   it. It is not written when it is a symbolic link (the link would be replaced by a file; fix its
 *   target), has other hard links (they would keep the old text), is not a regular file, changed
 *   since it was read, or does not round-trip through UTF-8 (its text would not be its bytes).
 */
import { closeSync, fchmodSync, fchownSync, fsyncSync, lstatSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../../compiler/diagnostic.js';
import type { CheckResult } from '../check.js';
import { applyFixes } from '../fix-apply.js';
import { judgeFixes, type Recheck } from '../fix-applicability.js';
import { counted } from '../format/report.js';
import { at, type CliIo } from './io.js';
import { UsageError } from './options.js';

export interface FixArgs {
  fix?: boolean;
  'unsafe-fixes'?: boolean;
  diff?: boolean;
  format?: string;
}

/** What lint asks of the fixer: each config fixed in turn, then what to print and the exit status it implies. */
export interface Fixer {
  /** `--diff`: lint prints `diffs()` instead of the findings. */
  readonly diffOnly: boolean;
  /** Fixes one checked config; returns what lint reports for it: the remaining findings, their fixes judged. */
  fix(path: string, bytes: Uint8Array, result: CheckResult, recheck: Recheck): CheckResult;
  /** The unified diffs, in the order the configs were fixed. */
  diffs(): string;
  /** The lines for standard error: what was fixed, what could be, and what could not. */
  summary(): string;
  /** A file could not be fixed or written (exit 2). */
  readonly failed: boolean;
  /** Some file would change (`--diff`'s exit 1). */
  readonly wouldChange: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The fixer for these options and these configs (`-`: standard input); a usage error for a combination that cannot be done. */
export async function fixerFor(args: FixArgs, io: CliIo, paths: readonly string[]): Promise<Fixer> {
  const diffOnly = !!args.diff;
  const unsafe = !!args['unsafe-fixes'];
  if (unsafe && !args.fix && !diffOnly)
    throw new UsageError('--unsafe-fixes says which fixes --fix or --diff applies: give one of them too');
  if (diffOnly && args.format !== undefined && args.format !== 'text')
    throw new UsageError(`--diff prints a unified diff, not --format ${args.format}`);
  if (!diffOnly && paths.includes('-'))
    throw new UsageError('--fix cannot write standard input: name the file, or use --diff to see the fixes');
  const patches: string[] = [];
  const problems: string[] = [];
  let applied = 0;
  let files = 0;
  let hidden = 0;
  let refused = 0;
  // The `diff` package only for --diff.
  const createPatch = diffOnly ? (await import('diff')).createTwoFilesPatch : undefined;

  return {
    diffOnly,
    get failed() {
      return problems.length > 0;
    },
    get wouldChange() {
      return files > 0;
    },
    fix(path, bytes, result, recheck) {
      const label = path === '-' ? '<stdin>' : path;
      const unfixed = (why: string): CheckResult => {
        problems.push(`boxwright: cannot fix ${label}: ${why}`);
        return { ...result, diagnostics: judged(result, recheck) };
      };
      if (!result.diagnostics.some((d) => d.fix)) return result;
      const hasBom = BOM.equals(Buffer.from(bytes.subarray(0, 3)));
      const encode = (text: string): Buffer => Buffer.concat([hasBom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
      if (!encode(result.text).equals(Buffer.from(bytes)))
        return unfixed('its bytes are not the UTF-8 of its text (an invalid sequence?), so no edit of the text can be written back');
      const outcome = applyFixes(result, recheck, { unsafe });
      if (outcome.failure) return unfixed(outcome.failure);
      hidden += outcome.hidden;
      refused += outcome.refused;
      if (outcome.text === result.text) return outcome.result;
      if (createPatch) {
        // git's form (`a/` and `b/` prefixes, no `===` line): `git apply` and `patch -p1` take it.
        patches.push(
          createPatch(`a/${label}`, `b/${label}`, result.text, outcome.text, undefined, undefined, { context: 3 }).replace(/^=+\n/, ''),
        );
      } else {
        const error = writeInPlace(at(io, path), bytes, encode(outcome.text));
        if (error) return unfixed(error);
      }
      applied += outcome.applied;
      files++;
      return outcome.result;
    },
    diffs: () => patches.join(''),
    summary() {
      const lines = [...problems.map((p) => `${p}\n`)];
      const done = diffOnly ? 'would be applied' : 'applied';
      const where = `${counted(applied, 'fix', 'fixes')} ${done}${files ? ` to ${counted(files, 'file')}` : ''}`;
      lines.push(`boxwright: ${applied ? where : `no fix ${diffOnly ? 'would be applied' : 'applied'}`}\n`);
      const [it, widens] = hidden === 1 ? ['it', 'it widens'] : ['them', 'they widen'];
      if (hidden)
        lines.push(
          `boxwright: ${counted(hidden, 'hidden fix', 'hidden fixes')} can be enabled with --unsafe-fixes ` +
            `(${widens} access or cannot be judged: see ${it} with --diff --unsafe-fixes)\n`,
        );
      if (refused)
        lines.push(
          `boxwright: ${counted(refused, 'fix', 'fixes')} never applied: the text ${refused === 1 ? 'it makes' : 'they make'} ` +
            'does not check (a syntax error, or no access model left)\n',
        );
      return lines.join('');
    },
  };
}

/** The original's diagnostics with their fixes judged, for a file left as it was. */
const judged = (result: CheckResult, recheck: Recheck): readonly Diagnostic[] =>
  result.diagnostics.some((d) => d.fix) ? judgeFixes(result, recheck) : result.diagnostics;

/**
 * Writes `text` over `file`, which was read as `original`: a new file
 * beside it, with its mode and owner, synced, then renamed over it (a
 * reader sees the old file or the new one, never half of one). Returns why
 * it did not, or undefined.
 */
function writeInPlace(file: string, original: Uint8Array, text: Uint8Array): string | undefined {
  let st;
  try {
    st = lstatSync(file);
  } catch (e) {
    return `it cannot be read again: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  if (st.isSymbolicLink()) return 'it is a symbolic link, which boxwright does not write through (fix the file it points to)';
  if (!st.isFile()) return 'it is not a regular file';
  if (st.nlink > 1) return `it has ${st.nlink - 1} other hard ${st.nlink === 2 ? 'link' : 'links'}, which would keep the old text`;
  if (!readFileSync(file).equals(Buffer.from(original))) return 'it changed while it was being fixed';
  const temp = join(dirname(file), `.${basename(file)}.boxwright-fix-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    for (let done = 0; done < text.length; ) done += writeSync(fd, text, done);
    fchmodSync(fd, st.mode & 0o7777);
    if (typeof process.getuid === 'function' && (st.uid !== process.getuid() || st.gid !== process.getgid?.()))
      fchownSync(fd, st.uid, st.gid);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
    return undefined;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    const code = (e as NodeJS.ErrnoException).code;
    // EEXIST: the temporary name is taken (another boxwright on the same file?): not ours to remove.
    if (code !== 'EEXIST') rmSync(temp, { force: true });
    return `it could not be written: ${code ?? (e as Error).message}`;
  }
}
