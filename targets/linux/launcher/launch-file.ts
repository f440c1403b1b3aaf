/**
 * `<stem>.launch`: what `DIR/<stem>.run` (the launcher, launcher.c) runs.
 * NUL-terminated tokens, records in this order (launch-file.c parses it,
 * exactly as strictly as decodeLaunchFile):
 *
 *   launch 1 · config ABS_PATH · config-sha256 HEX · principal ID ·
 *   args FILE · seccomp ARCH FILE (one or more, each arch once) ·
 *   landlock FILE | landlock none · env NAME (zero or more) ·
 *   env-prefix PREFIX (zero or more) · compile-option ARG (zero or more)
 *
 * FILE names a file in the launch file's own directory (no `/`, not `.` or
 * `..`); NAME and PREFIX are non-empty without `=`; HEX is the config's
 * SHA-256, 64 lowercase hex digits; ARG is any token (the compile's options
 * after CONFIG, for the launcher's "Recompile:" hint). Anything else is malformed: the
 * launcher refuses it, the encoder throws.
 */
import type { Arch } from '../seccomp/tables.js';

export const LAUNCH_FORMAT = 1;

/** The architectures a launch file may name a seccomp program for, in the order they are written. */
export const LAUNCH_ARCHES: readonly Arch[] = ['x86_64', 'aarch64'];

export interface LaunchFile {
  /** The config the sandbox was compiled from: absolute. The launcher refuses when its bytes changed. */
  readonly config: string;
  /** SHA-256 of the config's bytes at compile time, lowercase hex. */
  readonly configSha256: string;
  /** The principal id (`agent`, `tool.NAME`, `mcp.NAME`), for messages. */
  readonly principal: string;
  /** The principal's `.bwrap.args`, a file name beside the launch file. */
  readonly args: string;
  /** The seccomp program per architecture (`seccomp.<arch>.bpf`), at least one. */
  readonly seccomp: Readonly<Partial<Record<Arch, string>>>;
  /** The Landlock rules file beside it, or undefined: `landlock none` (the in-sandbox step runs with --no-landlock). */
  readonly landlock: string | undefined;
  /** The environment allowlist: exact names… */
  readonly env: readonly string[];
  /** …and prefixes (`LC_`). */
  readonly envPrefixes: readonly string[];
  /** The options the compile used besides CONFIG, --target and --out (`--home /h`, `--landlock off`): named in the launcher's "Recompile:" hint. */
  readonly compileOptions: readonly string[];
}

/** A launch file the launcher would refuse: a bug in whatever wrote it, or a damaged file. */
export class LaunchFileError extends Error {
  override name = 'LaunchFileError';
}

const isFileName = (s: string): boolean => s !== '' && !s.includes('/') && s !== '.' && s !== '..';
const isEnvName = (s: string): boolean => s !== '' && !s.includes('=');

function check(l: LaunchFile): void {
  const fail = (why: string): never => {
    throw new LaunchFileError(why);
  };
  const tokens = [l.config, l.configSha256, l.principal, l.args, ...Object.values(l.seccomp), l.landlock ?? '', ...l.env, ...l.envPrefixes, ...l.compileOptions];
  if (tokens.some((t) => t?.includes('\0'))) fail('a value holds a NUL');
  if (!l.config.startsWith('/')) fail(`config ${JSON.stringify(l.config)}: not an absolute path`);
  if (!/^[0-9a-f]{64}$/.test(l.configSha256)) fail(`config-sha256 ${JSON.stringify(l.configSha256)}: not 64 lowercase hex digits`);
  if (l.principal === '') fail('principal: empty');
  if (!isFileName(l.args)) fail(`args ${JSON.stringify(l.args)}: not a file name in the launch file's directory`);
  const arches = Object.keys(l.seccomp);
  for (const a of arches) if (!(LAUNCH_ARCHES as readonly string[]).includes(a)) fail(`seccomp ${JSON.stringify(a)}: not an architecture (x86_64, aarch64)`);
  const programs = LAUNCH_ARCHES.filter((a) => l.seccomp[a] !== undefined);
  if (programs.length === 0) fail('no seccomp program');
  for (const a of programs) if (!isFileName(l.seccomp[a]!)) fail(`seccomp ${a} ${JSON.stringify(l.seccomp[a])}: not a file name in the launch file's directory`);
  if (l.landlock !== undefined && (l.landlock === 'none' || !isFileName(l.landlock))) fail(`landlock ${JSON.stringify(l.landlock)}: not a file name in the launch file's directory (nor undefined: none)`);
  for (const n of l.env) if (!isEnvName(n)) fail(`env ${JSON.stringify(n)}: not a variable name`);
  for (const p of l.envPrefixes) if (!isEnvName(p)) fail(`env-prefix ${JSON.stringify(p)}: not a variable name prefix`);
}

/** The launch file's bytes. Deterministic: seccomp programs in LAUNCH_ARCHES order, env names as given. */
export function encodeLaunchFile(l: LaunchFile): Uint8Array {
  check(l);
  const tokens = ['launch', String(LAUNCH_FORMAT), 'config', l.config, 'config-sha256', l.configSha256, 'principal', l.principal, 'args', l.args];
  for (const a of LAUNCH_ARCHES) if (l.seccomp[a] !== undefined) tokens.push('seccomp', a, l.seccomp[a]!);
  tokens.push('landlock', l.landlock ?? 'none');
  for (const n of l.env) tokens.push('env', n);
  for (const p of l.envPrefixes) tokens.push('env-prefix', p);
  for (const o of l.compileOptions) tokens.push('compile-option', o);
  return new TextEncoder().encode(tokens.map((t) => `${t}\0`).join(''));
}

/** The inverse of encodeLaunchFile, as strict as the launcher (launch-file.c). */
export function decodeLaunchFile(bytes: Uint8Array): LaunchFile {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LaunchFileError('not UTF-8');
  }
  if (text === '') throw new LaunchFileError('the launch file is empty');
  if (!text.endsWith('\0')) throw new LaunchFileError('the launch file does not end with a NUL');
  const tok = text.slice(0, -1).split('\0');
  let at = 0;
  const take = (kw: string, n: number): string[] => {
    if (at >= tok.length) throw new LaunchFileError(`the launch file ends where \`${kw}\` was expected`);
    if (tok[at] !== kw) throw new LaunchFileError(`record ${at + 1}: \`${tok[at]}\` where \`${kw}\` was expected`);
    if (at + n >= tok.length) throw new LaunchFileError(`record ${at + 1}: \`${kw}\` needs ${n} operand${n > 1 ? 's' : ''}`);
    const ops = tok.slice(at + 1, at + 1 + n);
    at += 1 + n;
    return ops;
  };
  const [format] = take('launch', 1);
  if (format !== String(LAUNCH_FORMAT)) throw new LaunchFileError(`launch format \`${format}\`; this launcher reads format ${LAUNCH_FORMAT}`);
  const [config] = take('config', 1) as [string];
  const [configSha256] = take('config-sha256', 1) as [string];
  const [principal] = take('principal', 1) as [string];
  const [args] = take('args', 1) as [string];
  const seccomp: Partial<Record<Arch, string>> = {};
  do {
    const [arch, file] = take('seccomp', 2) as [string, string];
    if (!(LAUNCH_ARCHES as readonly string[]).includes(arch)) throw new LaunchFileError(`seccomp \`${arch}\`: not an architecture (x86_64, aarch64)`);
    if (seccomp[arch as Arch] !== undefined) throw new LaunchFileError(`seccomp ${arch}: repeated`);
    seccomp[arch as Arch] = file;
  } while (tok[at] === 'seccomp');
  const [landlock] = take('landlock', 1) as [string];
  const env: string[] = [];
  const envPrefixes: string[] = [];
  while (tok[at] === 'env') env.push(take('env', 1)[0]!);
  while (tok[at] === 'env-prefix') envPrefixes.push(take('env-prefix', 1)[0]!);
  const compileOptions: string[] = [];
  while (tok[at] === 'compile-option') compileOptions.push(take('compile-option', 1)[0]!);
  if (at < tok.length) throw new LaunchFileError(`record ${at + 1}: \`${tok[at]}\` is not a record this launcher knows here`);
  const l: LaunchFile = { config, configSha256, principal, args, seccomp, landlock: landlock === 'none' ? undefined : landlock, env, envPrefixes, compileOptions };
  check(l);
  return l;
}
