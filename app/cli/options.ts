import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Platform } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { hostView, manifestView, noneView, type FsView, type HostTrustedInput } from '../../compiler/paths/index.js';
import type { Dialect } from '../../compiler/schema/validate.js';
import type { TrustedFile } from '../../compiler/ir/types.js';
import { checkConfig, type CheckResult } from '../check.js';
import { checkTrusted } from '../trusted-files.js';
import { probeLandlockAbi } from '../../targets/linux/run/sandbox/landlock-abi.js';
import { homeOf, type CliIo } from './io.js';

/**
 * Where a command reads its configs from: the directory relative paths
 * start in (the session worktree's default) and the environment (the
 * home's default). The CLI's commands pass their io; a caller outside the
 * CLI (a platform's runner, a test) may leave it out for the process's own.
 */
export type ReaderPlace = Pick<CliIo, 'cwd' | 'env'>;
const processPlace = (): ReaderPlace => ({ cwd: process.cwd(), env: process.env });

/** A usage problem: exit 2 with the message, never a stack trace. */
export class UsageError extends Error {}

/** `--home DIR`: what `~` means, so an absolute path (a relative one would mean a different home in every directory). */
export function homeFrom(home: string | undefined): string | undefined {
  if (home === undefined) return undefined;
  if (home === '' || !isAbsolute(home))
    throw new UsageError(`--home must be an absolute directory (what \`~\` expands to), not ${JSON.stringify(home)}`);
  return home;
}

/** A whole number of at least 0 (`--max-warnings`), read from the text as typed: a number option would make `abc` NaN, which allowed any count. */
export function countFrom(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.map(String).join(' ') : String(value);
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`--${option} takes a whole number (0 or more), not ${JSON.stringify(text)}`);
  return Number(text.trim());
}

/** `--fs host|none|FILE.json` with `--home` (a manifest's path read from `place.cwd`, named as given). */
export function fsViewFrom(fs: string | undefined, homeOption: string | undefined, place: ReaderPlace = processPlace()): FsView {
  const spec = fs ?? 'host';
  const home = homeFrom(homeOption);
  if (spec === 'host') return hostView(home ?? homeOf(place), { landlockAbi: probeLandlockAbi, path: place.env['PATH'] ?? '' });
  if (spec === 'none') return noneView(home ?? homeOf(place));
  const choices = '--fs takes `host` (the real disk), `none` (facts unknown) or a manifest FILE.json';
  if (spec === '') throw new UsageError(`${choices}, not an empty string`);
  let text: string;
  try {
    if (statSync(resolve(place.cwd, spec)).isDirectory()) throw new UsageError(`${choices}: ${spec} is a directory`);
    text = readFileSync(resolve(place.cwd, spec), 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${choices}: ${spec} is neither, and no such file exists`);
    throw new UsageError(`cannot read the filesystem manifest ${spec}: ${code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
  try {
    const view = manifestView(text, spec);
    return home ? { ...view, home } : view;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function platformsFrom(spec: string | readonly string[] | undefined): Platform[] {
  if (spec === undefined) return [...PLATFORMS];
  const names = (Array.isArray(spec) ? spec : [spec])
    .flatMap((s: string) => String(s).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length)
    throw new UsageError(
      `--platform names no platform: choose from ${PLATFORMS.join(', ')} (comma-separated), or leave it out to check all three`,
    );
  for (const n of names)
    if (!PLATFORMS.includes(n as Platform)) throw new UsageError(`unknown platform \`${n}\`: choose from ${PLATFORMS.join(', ')}`);
  return PLATFORMS.filter((p) => names.includes(p));
}

/** The options every command that reads a config takes (`fsOptions` in main.ts). */
export interface ConfigArgs {
  fs?: string;
  home?: string;
  dialect?: Dialect;
  worktree?: string;
  'tyba-data-dir'?: string;
  'agent-dir'?: string | string[];
  /** `--landlock on|off`: Linux execution confined by Landlock (on), or by the mounts alone. */
  landlock?: string;
}

/** `--landlock on|off` (on when absent). */
export function landlockOption(v: string | undefined): boolean {
  if (v === undefined || v === 'on') return true;
  if (v === 'off') return false;
  throw new UsageError(`--landlock takes on or off, not ${JSON.stringify(v)}`);
}

export interface SessionOptions {
  readonly worktree: string;
  readonly tybaDataDir?: string;
  readonly agentDirs?: readonly string[];
}

export function sessionFrom(
  args: { worktree?: string; 'tyba-data-dir'?: string; 'agent-dir'?: string | string[] },
  cwd: string,
): SessionOptions {
  const agentDirs = args['agent-dir'] === undefined ? [] : ([] as string[]).concat(args['agent-dir']);
  return {
    worktree: resolve(cwd, args.worktree ?? '.'),
    ...(args['tyba-data-dir'] ? { tybaDataDir: args['tyba-data-dir'] } : {}),
    ...(agentDirs.length ? { agentDirs } : {}),
  };
}

/**
 * How one command reads its configs: one filesystem view for the whole
 * command (so every config, and base and head of a diff, see the same disk
 * state through the same cache, and a manifest is read once), the session
 * options and the dialect override; `check` runs the front end, the model
 * and the rules once per config. Commands check each config once and hand
 * the result on.
 */
export interface ConfigReader {
  readonly view: FsView;
  /**
   * `dialect` overrides the command's (`diff` reads a config's absent
   * revision as an empty config of the other's dialect); `configPath`, the
   * config file the check treats as host-trusted (default `file`, where it
   * names a regular file; `diff` gives both revisions its head's).
   */
  /** `location`: where the file is in the project when `file` is only a label (a git revision's). */
  check(
    bytes: Uint8Array,
    file: string,
    platforms?: readonly Platform[],
    dialect?: Dialect,
    configPath?: string,
    location?: string,
  ): CheckResult;
  /**
   * A config read from the file the user named (`-`: standard input, shown
   * as `<stdin>`) by a command that writes or runs what it compiles (lint,
   * explain, compile, run): the check also judges who could write that file
   * and the command's other own files (`trusted-file-writable`).
   */
  checkRead(bytes: Uint8Array, path: string, platforms?: readonly Platform[], others?: readonly TrustedFile[]): CheckResult;
  /**
   * Another sandbox config of the repository (issue 35, attack 6), judged
   * only for who of its principals could write `trusted`, this command's
   * own files (`trusted-file-writable`): its own file is not one of them.
   */
  checkOther(bytes: Uint8Array, path: string, trusted: readonly TrustedFile[], platforms?: readonly Platform[]): CheckResult;
  /**
   * A reader for the other configs of the repository: the same view,
   * changed by `wrap` (one filesystem view per command), without this
   * command's own files as inputs (they are this config's, not theirs).
   */
  others(wrap: (view: FsView) => FsView): ConfigReader;
}

/** A path of the command line, absolute, where it names an existing regular file: the config a check reads, the manifest. */
function fileInput(cwd: string, path: string | undefined, input: HostTrustedInput['input']): HostTrustedInput[] {
  if (!path || path === '-') return [];
  try {
    return statSync(resolve(cwd, path)).isFile() ? [{ path: resolve(cwd, path), input }] : [];
  } catch {
    return [];
  }
}

/**
 * `inputs`: the command's own host-trusted paths beside the config and the
 * manifest (compile's --out, run's cache), which the model keeps read-only
 * inside every write grant (host-trusted-path). `trusted`: the command's own
 * files beside the config and the manifest that no principal may be able
 * to write at all (the --out directory, bubblewrap, boxwright itself:
 * trusted-file-writable, asked by checkRead).
 */
export function configReader(
  args: ConfigArgs,
  wrap: (view: FsView) => FsView = (v) => v,
  inputs: readonly HostTrustedInput[] = [],
  trusted: readonly TrustedFile[] = [],
  place: ReaderPlace = processPlace(),
): ConfigReader {
  return readerOf(args, wrap(fsViewFrom(args.fs, args.home, place)), inputs, trusted, place);
}

function readerOf(
  args: ConfigArgs,
  view: FsView,
  inputs: readonly HostTrustedInput[],
  trusted: readonly TrustedFile[],
  place: ReaderPlace,
): ConfigReader {
  const cwd = place.cwd;
  const session = sessionFrom(args, cwd);
  // Codex configs: $TMPDIR as Codex's commands would see it (the command's environment, not this process's).
  const tmpdir = place.env['TMPDIR'];
  // The files' names stay as given (they are shown); the file system is asked from the command's directory.
  const at = (path: string | undefined): string | undefined => (path === undefined || path === '-' ? path : resolve(cwd, path));
  const landlock = landlockOption(args.landlock);
  const manifest = args.fs !== undefined && args.fs !== 'host' && args.fs !== 'none' ? fileInput(cwd, args.fs, 'manifest') : [];
  const check = (
    bytes: Uint8Array,
    file: string,
    platforms: readonly Platform[] | undefined,
    dialect: Dialect | undefined,
    configPath: string,
    trustedFiles: readonly TrustedFile[],
    location?: string,
  ): CheckResult => {
    const chosen = dialect ?? args.dialect;
    const hostTrusted = [...fileInput(cwd, configPath, 'config'), ...manifest, ...inputs];
    const result = checkConfig(bytes, {
      file,
      ...(location ? { location } : {}),
      view,
      ...session,
      landlock,
      hostTrusted,
      ...(platforms ? { platforms } : {}),
      ...(chosen ? { dialect: chosen } : {}),
      ...(trustedFiles.length ? { trustedFiles } : {}),
      ...(tmpdir ? { tmpdir } : {}),
    });
    // TYBA's platform document gives its Linux sandbox as bubblewrap +
    // seccomp: Landlock is a Box lowering (compiler/ir/build.ts), and a
    // TYBA config's read trees stay executable. Asked for by name, it is
    // refused, not ignored.
    if (args.landlock === 'on' && result.dialect === 'tyba') {
      throw new UsageError(
        `--landlock on: ${file} is a TYBA config, and TYBA's platform document gives its Linux sandbox as ` +
          `bubblewrap + seccomp, without Landlock (its read trees stay executable); Landlock confines Box configs`,
      );
    }
    return result;
  };
  return {
    view,
    check: (bytes, file, platforms, dialect, configPath = file, location) =>
      check(bytes, file, platforms, dialect, configPath, [], location),
    checkRead: (bytes, path, platforms, others = []) =>
      check(bytes, path === '-' ? '<stdin>' : path, platforms, undefined, path, [
        ...checkTrusted(at(path), args.fs === 'host' || args.fs === 'none' ? args.fs : at(args.fs), trusted),
        ...others,
      ]),
    checkOther: (bytes, path, only, platforms) => check(bytes, path, platforms, undefined, path, only),
    others: (wrap) => readerOf(args, wrap(view), [], [], place),
  };
}
