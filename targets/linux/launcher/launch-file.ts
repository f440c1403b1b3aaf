/**
 * `<stem>.launch`: what `DIR/<stem>.run` (the launcher, launcher.c) runs.
 * NUL-terminated tokens, records in this order (launch-file.c parses it,
 * exactly as strictly as decodeLaunchFile):
 *
 *   launch 3 · config ABS_PATH · config-sha256 HEX · principal ID ·
 *   args FILE HEX · seccomp ARCH FILE HEX (one or more, each arch once) ·
 *   landlock FILE HEX | landlock none · bwrap ABS_PATH UID MODE ·
 *   env NAME (zero or more) · env-prefix PREFIX (zero or more) ·
 *   compile-option ARG (zero or more) · walk ABS_PATH (zero or more) ·
 *   trusted-name NAME (zero or more) · keep ABS_PATH (zero or more) ·
 *   absent ABS_PATH (zero or more)
 *
 * FILE names a file in the launch file's own directory (no `/`, not `.` or
 * `..`) and HEX is its SHA-256 (the config's, for config-sha256), 64
 * lowercase hex digits: the launcher holds each file it reads to it. UID is
 * bubblewrap's owner (decimal), MODE its permission bits (four octal
 * digits). NAME and PREFIX are non-empty without `=`; ARG is any token (the
 * compile's options after CONFIG, for the launcher's "Recompile:" hint).
 * The last four are the host-trusted names the launcher checks before and
 * after a run (LaunchTrust, trust-walk.c): a trusted-name NAME is a file
 * name (no `/`, not `.` or `..`), the others absolute paths.
 * Anything else is malformed: the launcher refuses it, the encoder throws.
 */
import type { Arch } from '../seccomp/tables.js';

export const LAUNCH_FORMAT = 3;

/** The architectures a launch file may name a seccomp program for, in the order they are written. */
export const LAUNCH_ARCHES: readonly Arch[] = ['x86_64', 'aarch64'];

/** A file beside the launch file, and the SHA-256 of its bytes (lowercase hex). */
export interface LaunchedFile {
  readonly name: string;
  readonly sha256: string;
}

/** The bubblewrap compile resolved: its absolute path, owner and permission bits then (the launcher refuses when they changed). */
export interface LaunchBwrap {
  readonly path: string;
  readonly uid: number;
  readonly mode: number;
}

/**
 * What the launcher checks in the principal's write trees before and after
 * a run (trust-walk.c; targets/linux/launcher/README.md): a host-trusted
 * name that does not exist cannot be refused by a mount, so one the
 * workload creates is found after the run and moved aside.
 */
export interface LaunchTrust {
  /** The write trees to list at every depth (writable binds of the plan that are trees), sorted. */
  readonly walk: readonly string[];
  /** The project names looked for in every directory (`.git`, `.envrc`, …), sorted. */
  readonly names: readonly string[];
  /** Paths the walk neither enters nor judges: host-trusted paths bound read-only or lifted, what the sandbox cannot write. Sorted. */
  readonly keep: readonly string[];
  /** Host-trusted paths absent at compile time that no walk covers (`~/.bashrc` under `write = ["~"]`), sorted. */
  readonly absent: readonly string[];
}

export const NO_TRUST_CHECK: LaunchTrust = { walk: [], names: [], keep: [], absent: [] };

export interface LaunchFile {
  /** The config the sandbox was compiled from: absolute. The launcher refuses when its bytes changed. */
  readonly config: string;
  /** SHA-256 of the config's bytes at compile time, lowercase hex. */
  readonly configSha256: string;
  /** The principal id (`agent`, `tool.NAME`, `mcp.NAME`), for messages. */
  readonly principal: string;
  /** The principal's `.bwrap.args`, beside the launch file. */
  readonly args: LaunchedFile;
  /** The seccomp program per architecture (`seccomp.<arch>.bpf`), at least one. */
  readonly seccomp: Readonly<Partial<Record<Arch, LaunchedFile>>>;
  /** The Landlock rules file beside it, or undefined: `landlock none` (the in-sandbox step runs with --no-landlock). */
  readonly landlock: LaunchedFile | undefined;
  /** The bubblewrap every run executes (never looked up on PATH at run time). */
  readonly bwrap: LaunchBwrap;
  /** The environment allowlist: exact names… */
  readonly env: readonly string[];
  /** …and prefixes (`LC_`). */
  readonly envPrefixes: readonly string[];
  /** The options the compile used besides CONFIG, --target and --out (`--home /h`, `--landlock off`): named in the launcher's "Recompile:" hint. */
  readonly compileOptions: readonly string[];
  /** The host-trusted names checked before and after the run. */
  readonly trust: LaunchTrust;
}

/** A launch file the launcher would refuse: a bug in whatever wrote it, or a damaged file. */
export class LaunchFileError extends Error {
  override name = 'LaunchFileError';
}

const isFileName = (s: string): boolean => s !== '' && !s.includes('/') && s !== '.' && s !== '..';
const isEnvName = (s: string): boolean => s !== '' && !s.includes('=');

const isHex = (s: string): boolean => /^[0-9a-f]{64}$/.test(s);

function check(l: LaunchFile): void {
  const fail = (why: string): never => {
    throw new LaunchFileError(why);
  };
  const files = [l.args, ...Object.values(l.seccomp), ...(l.landlock ? [l.landlock] : [])];
  const tokens = [
    l.config,
    l.configSha256,
    l.principal,
    ...files.flatMap((f) => [f.name, f.sha256]),
    l.bwrap.path,
    ...l.env,
    ...l.envPrefixes,
    ...l.compileOptions,
    ...l.trust.walk,
    ...l.trust.names,
    ...l.trust.keep,
    ...l.trust.absent,
  ];
  if (tokens.some((t) => t?.includes('\0'))) fail('a value holds a NUL');
  if (!l.config.startsWith('/')) fail(`config ${JSON.stringify(l.config)}: not an absolute path`);
  if (!isHex(l.configSha256)) fail(`config-sha256 ${JSON.stringify(l.configSha256)}: not 64 lowercase hex digits`);
  if (l.principal === '') fail('principal: empty');
  const named = (what: string, f: LaunchedFile): void => {
    if (!isFileName(f.name)) fail(`${what} ${JSON.stringify(f.name)}: not a file name in the launch file's directory`);
    if (!isHex(f.sha256)) fail(`${what} ${f.name} ${JSON.stringify(f.sha256)}: not 64 lowercase hex digits`);
  };
  named('args', l.args);
  const arches = Object.keys(l.seccomp);
  for (const a of arches)
    if (!(LAUNCH_ARCHES as readonly string[]).includes(a)) fail(`seccomp ${JSON.stringify(a)}: not an architecture (x86_64, aarch64)`);
  const programs = LAUNCH_ARCHES.filter((a) => l.seccomp[a] !== undefined);
  if (programs.length === 0) fail('no seccomp program');
  for (const a of programs) named(`seccomp ${a}`, l.seccomp[a]!);
  if (l.landlock !== undefined) {
    if (l.landlock.name === 'none') fail('landlock "none": not a file name in the launch file\'s directory (nor undefined: none)');
    named('landlock', l.landlock);
  }
  if (!l.bwrap.path.startsWith('/')) fail(`bwrap ${JSON.stringify(l.bwrap.path)}: not an absolute path`);
  if (!Number.isInteger(l.bwrap.uid) || l.bwrap.uid < 0 || l.bwrap.uid > 0xffffffff) fail(`bwrap uid ${l.bwrap.uid}: not a uid`);
  if (!Number.isInteger(l.bwrap.mode) || l.bwrap.mode < 0 || l.bwrap.mode > 0o7777) fail(`bwrap mode ${l.bwrap.mode}: not permission bits`);
  for (const n of l.env) if (!isEnvName(n)) fail(`env ${JSON.stringify(n)}: not a variable name`);
  for (const p of l.envPrefixes) if (!isEnvName(p)) fail(`env-prefix ${JSON.stringify(p)}: not a variable name prefix`);
  for (const [kw, paths] of [
    ['walk', l.trust.walk],
    ['keep', l.trust.keep],
    ['absent', l.trust.absent],
  ] as const)
    for (const p of paths) if (!p.startsWith('/')) fail(`${kw} ${JSON.stringify(p)}: not an absolute path`);
  for (const n of l.trust.names) if (!isFileName(n)) fail(`trusted-name ${JSON.stringify(n)}: not a file name`);
}

/** The launch file's bytes. Deterministic: seccomp programs in LAUNCH_ARCHES order, env names as given. */
export function encodeLaunchFile(l: LaunchFile): Uint8Array {
  check(l);
  const tokens = [
    'launch',
    String(LAUNCH_FORMAT),
    'config',
    l.config,
    'config-sha256',
    l.configSha256,
    'principal',
    l.principal,
    'args',
    l.args.name,
    l.args.sha256,
  ];
  for (const a of LAUNCH_ARCHES) if (l.seccomp[a] !== undefined) tokens.push('seccomp', a, l.seccomp[a]!.name, l.seccomp[a]!.sha256);
  if (l.landlock) tokens.push('landlock', l.landlock.name, l.landlock.sha256);
  else tokens.push('landlock', 'none');
  tokens.push('bwrap', l.bwrap.path, String(l.bwrap.uid), l.bwrap.mode.toString(8).padStart(4, '0'));
  for (const n of l.env) tokens.push('env', n);
  for (const p of l.envPrefixes) tokens.push('env-prefix', p);
  for (const o of l.compileOptions) tokens.push('compile-option', o);
  for (const p of l.trust.walk) tokens.push('walk', p);
  for (const n of l.trust.names) tokens.push('trusted-name', n);
  for (const p of l.trust.keep) tokens.push('keep', p);
  for (const p of l.trust.absent) tokens.push('absent', p);
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
  if (format !== String(LAUNCH_FORMAT))
    throw new LaunchFileError(`launch format \`${format}\`; this launcher reads format ${LAUNCH_FORMAT}`);
  const [config] = take('config', 1) as [string];
  const [configSha256] = take('config-sha256', 1) as [string];
  const [principal] = take('principal', 1) as [string];
  const [argsName, argsSha] = take('args', 2) as [string, string];
  const seccomp: Partial<Record<Arch, LaunchedFile>> = {};
  do {
    const [arch, name, sha256] = take('seccomp', 3) as [string, string, string];
    if (!(LAUNCH_ARCHES as readonly string[]).includes(arch))
      throw new LaunchFileError(`seccomp \`${arch}\`: not an architecture (x86_64, aarch64)`);
    if (seccomp[arch as Arch] !== undefined) throw new LaunchFileError(`seccomp ${arch}: repeated`);
    seccomp[arch as Arch] = { name, sha256 };
  } while (tok[at] === 'seccomp');
  const [landlockName] = take('landlock', 1) as [string];
  let landlock: LaunchedFile | undefined;
  if (landlockName !== 'none') {
    // `landlock FILE HEX`: the digest is the record's second operand.
    if (at >= tok.length) throw new LaunchFileError(`record ${at}: \`landlock ${landlockName}\` needs its SHA-256`);
    landlock = { name: landlockName, sha256: tok[at++]! };
  }
  const [bwrapPath, uid, mode] = take('bwrap', 3) as [string, string, string];
  if (!/^(0|[1-9][0-9]{0,9})$/.test(uid) || Number(uid) > 0xffffffff)
    throw new LaunchFileError(`bwrap ${bwrapPath} uid \`${uid}\`: not a decimal number`);
  if (!/^[0-7]{4}$/.test(mode)) throw new LaunchFileError(`bwrap ${bwrapPath} mode \`${mode}\`: not four octal digits`);
  const env: string[] = [];
  const envPrefixes: string[] = [];
  while (tok[at] === 'env') env.push(take('env', 1)[0]!);
  while (tok[at] === 'env-prefix') envPrefixes.push(take('env-prefix', 1)[0]!);
  const compileOptions: string[] = [];
  while (tok[at] === 'compile-option') compileOptions.push(take('compile-option', 1)[0]!);
  const many = (kw: string): string[] => {
    const out: string[] = [];
    while (tok[at] === kw) out.push(take(kw, 1)[0]!);
    return out;
  };
  const trust: LaunchTrust = { walk: many('walk'), names: many('trusted-name'), keep: many('keep'), absent: many('absent') };
  if (at < tok.length) throw new LaunchFileError(`record ${at + 1}: \`${tok[at]}\` is not a record this launcher knows here`);
  const l: LaunchFile = {
    config,
    configSha256,
    principal,
    args: { name: argsName, sha256: argsSha },
    seccomp,
    landlock,
    bwrap: { path: bwrapPath, uid: Number(uid), mode: parseInt(mode, 8) },
    env,
    envPrefixes,
    compileOptions,
    trust,
  };
  check(l);
  return l;
}
