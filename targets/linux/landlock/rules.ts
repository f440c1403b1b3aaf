/**
 * The Landlock ruleset of one principal, and its encoding for the helper
 * (landlock.c in boxwright-sandbox, which reads it from `--rules-fd N`): NUL-terminated
 * tokens, records `require-abi K`, `fs RIGHTS PATH`, `scope NAME` — the
 * format the helper's header comment and this folder's README describe.
 */
import { launcherPath } from '../launcher/index.js';
import type { Origin } from '../lower.js';
import type { Arch } from '../seccomp/tables.js';
import table from './rights.json' with { type: 'json' };

export type LandlockRight =
  | 'execute'
  | 'write_file'
  | 'read_file'
  | 'read_dir'
  | 'remove_dir'
  | 'remove_file'
  | 'make_char'
  | 'make_dir'
  | 'make_reg'
  | 'make_sock'
  | 'make_fifo'
  | 'make_block'
  | 'make_sym'
  | 'refer'
  | 'truncate'
  | 'ioctl_dev';

export type LandlockScope = 'abstract-unix-socket' | 'signal';

export interface LandlockRightInfo {
  readonly name: LandlockRight;
  readonly bit: number;
  /** The Landlock ABI that introduced it. */
  readonly abi: number;
  /** Accepted on a rule for a file that is not a directory. */
  readonly file: boolean;
  readonly reason: string;
}

export interface LandlockScopeInfo {
  readonly name: LandlockScope;
  readonly bit: number;
  readonly abi: number;
  readonly reason: string;
}

/** The rights, in the kernel's bit order (rights.json). */
export const LANDLOCK_RIGHTS: readonly LandlockRightInfo[] = table.rights as LandlockRightInfo[];
export const LANDLOCK_SCOPES: readonly LandlockScopeInfo[] = table.scopes as LandlockScopeInfo[];

const rightInfo = new Map(LANDLOCK_RIGHTS.map((r) => [r.name as string, r]));
const scopeInfo = new Map(LANDLOCK_SCOPES.map((s) => [s.name as string, s]));

export interface LandlockFsRule {
  readonly rights: readonly LandlockRight[];
  /** Canonical and absolute: the helper refuses anything else, and any symbolic link on the way. */
  readonly path: string;
  readonly origin: Origin;
}

export interface LandlockRuleset {
  /** The helper refuses to run on a kernel whose Landlock ABI is lower; 0: any ABI with Landlock. */
  readonly requireAbi: number;
  readonly fs: readonly LandlockFsRule[];
  /** Applied where the kernel has scopes (ABI 6+), skipped below: best effort by design. */
  readonly scopes: readonly LandlockScope[];
}

/** What the helper reads back: a ruleset without origins. */
export interface DecodedLandlockRuleset {
  readonly requireAbi: number;
  readonly fs: readonly { readonly rights: readonly LandlockRight[]; readonly path: string }[];
  readonly scopes: readonly LandlockScope[];
}

/** A ruleset the helper would refuse: a bug in whatever built it, never a user's input. */
export class LandlockRulesError extends Error {
  override name = 'LandlockRulesError';
}

/**
 * Why `path` is not what the lowering must emit (the helper's own test, in
 * check_canonical): absolute, no empty, `.` or `..` component, no trailing
 * slash, no NUL. undefined when it is fine.
 */
export function nonCanonical(path: string): string | undefined {
  if (path.includes('\0')) return 'contains a NUL';
  if (!path.startsWith('/')) return 'not absolute';
  if (path === '/') return undefined;
  for (const c of path.slice(1).split('/')) if (c === '' || c === '.' || c === '..') return 'not canonical';
  return undefined;
}

/** Rights in the kernel's bit order, each once; refuses an empty list or an unknown name. */
function normalRights(rights: readonly string[], where: string): LandlockRight[] {
  if (rights.length === 0) throw new LandlockRulesError(`${where}: no rights`);
  const seen = new Set<string>();
  for (const r of rights) {
    if (!rightInfo.has(r)) throw new LandlockRulesError(`${where}: unknown right '${r}'`);
    if (seen.has(r)) throw new LandlockRulesError(`${where}: right '${r}' repeated`);
    seen.add(r);
  }
  return LANDLOCK_RIGHTS.filter((r) => seen.has(r.name)).map((r) => r.name);
}

/**
 * The helper's input: `require-abi` first (when above 0), the fs rules in
 * their order with rights in bit order, then the scopes in bit order, each
 * token followed by a NUL. Deterministic: same ruleset, same bytes.
 */
export function encodeLandlockRules(ruleset: LandlockRuleset): Uint8Array {
  const tokens: string[] = [];
  if (!Number.isInteger(ruleset.requireAbi) || ruleset.requireAbi < 0 || ruleset.requireAbi > 999)
    throw new LandlockRulesError(`requireAbi ${ruleset.requireAbi}: not an ABI number (0..999)`);
  if (ruleset.requireAbi > 0) tokens.push('require-abi', String(ruleset.requireAbi));
  for (const rule of ruleset.fs) {
    const why = nonCanonical(rule.path);
    if (why) throw new LandlockRulesError(`fs rule ${JSON.stringify(rule.path)}: ${why}`);
    tokens.push('fs', normalRights(rule.rights, `fs rule ${rule.path}`).join(','), rule.path);
  }
  const scopes = new Set<string>(ruleset.scopes);
  for (const s of scopes) if (!scopeInfo.has(s)) throw new LandlockRulesError(`unknown scope '${s}'`);
  for (const s of LANDLOCK_SCOPES) if (scopes.has(s.name)) tokens.push('scope', s.name);
  return new TextEncoder().encode(tokens.map((t) => `${t}\0`).join(''));
}

/** The inverse of encodeLandlockRules, as strict as the helper (for tests and `explain`). */
export function decodeLandlockRules(bytes: Uint8Array): DecodedLandlockRuleset {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  if (text !== '' && !text.endsWith('\0')) throw new LandlockRulesError('the rules do not end with a NUL');
  const tok = text === '' ? [] : text.slice(0, -1).split('\0');
  let requireAbi = 0;
  const fs: { rights: LandlockRight[]; path: string }[] = [];
  const scopes = new Set<LandlockScope>();
  for (let t = 0; t < tok.length; ) {
    const kw = tok[t]!;
    if (kw === 'require-abi' && t + 1 < tok.length) {
      const k = tok[t + 1]!;
      if (!/^[0-9]{1,3}$/.test(k)) throw new LandlockRulesError(`not an ABI number: '${k}'`);
      requireAbi = Math.max(requireAbi, Number(k));
      t += 2;
    } else if (kw === 'fs' && t + 2 < tok.length) {
      const path = tok[t + 2]!;
      const why = nonCanonical(path);
      if (why) throw new LandlockRulesError(`fs rule '${path}': ${why}`);
      fs.push({ rights: normalRights(tok[t + 1]!.split(','), `fs rule ${path}`), path });
      t += 3;
    } else if (kw === 'scope' && t + 1 < tok.length) {
      const s = tok[t + 1]!;
      if (!scopeInfo.has(s)) throw new LandlockRulesError(`unknown scope '${s}'`);
      scopes.add(s as LandlockScope);
      t += 2;
    } else {
      throw new LandlockRulesError(`malformed record at token ${t + 1} ('${kw}')`);
    }
  }
  return { requireAbi, fs, scopes: LANDLOCK_SCOPES.filter((s) => scopes.has(s.name)).map((s) => s.name) };
}

/**
 * The helper is boxwright-sandbox (../launcher/): the same program as the
 * launcher, which mounts itself at /.boxwright/exec. The built program for
 * `arch`, or undefined.
 */
export function landlockHelperPath(arch: Arch, root?: string): string | undefined {
  return launcherPath(arch, root);
}
