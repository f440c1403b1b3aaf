/**
 * The sandboxes `boxwright run` compiled, kept for the next run of the same
 * config: `<cache>/run/<key>/` holds a runnable directory (the Linux
 * artifacts, `<stem>.launch`, `<stem>.run`: launchers.ts; `<stem>.view.json`, the plan's run view) and
 * `entry.json`, which says what it was compiled from and what it relied on.
 *
 * An entry is used only when all of this holds, else the run checks and
 * compiles again (and replaces it):
 * - the key: the config's absolute path and SHA-256, boxwright's version
 *   and package directory, the bubblewrap the run resolved, and every
 *   option that reaches the compile (`inputs`);
 * - the session worktree, for a TYBA config (the current directory by
 *   default, so not part of the key);
 * - every file exactly as written: same inode, size, and modification and
 *   change times (ctime cannot be set back), a regular file of this user
 *   that no one else can write, in directories the same holds for;
 * - every machine fact the check asked, answered the same way now
 *   (facts.ts).
 * Who can write the cache decides what the next run executes: it is a
 * protected path (no grant may name it), and `run` writes no entry when a
 * principal of the config could write it anyway (a grant of an ancestor).
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir, sharedParent, untrusted } from '../../../run/cache-dir.js';
import { factsProblem, type RecordedFacts } from './facts.js';
import { sha256Hex } from './sha256.js';

/**
 * 3: the facts hold directory listings and small files read (host-trusted
 * paths, issue 21 part A), and the key the bubblewrap resolved and
 * boxwright's package directory (issue 21 part B); an entry of 1 or 2 was
 * written without one or the other. 4: each principal's run view
 * (`<stem>.view.json`, from its plan) beside its argv, which the fast path
 * looks the command up in (it read the argv back before).
 */
export const ENTRY_FORMAT = 4;

/** Everything a compile depends on besides the disk: the key. */
export interface CacheInputs {
  readonly version: string;
  /** Absolute. */
  readonly config: string;
  readonly configSha256: string;
  readonly home: string;
  readonly dialect: string | null;
  readonly gatewaySocket: string | null;
  readonly landlock: boolean;
  readonly tybaDataDir: string | null;
  readonly agentDirs: readonly string[];
  /** `--worktree`, as given (resolved); null: the current directory, compared through `worktree`. */
  readonly worktreeOption: string | null;
  /** The bubblewrap the run resolved (bwrap.ts): the launch records it, and the check judged it. */
  readonly bwrap: string;
  /** boxwright's package directory: the check judged who could write it. */
  readonly boxwright: string;
}

/** A file as written: what a later run compares. */
export interface Stamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

export interface Entry {
  readonly format: number;
  readonly inputs: CacheInputs;
  /** The TYBA session worktree the check used, when it used one. */
  readonly worktree: string | null;
  readonly principals: readonly string[];
  readonly facts: RecordedFacts;
  readonly files: Readonly<Record<string, Stamp>>;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INPUT_KEYS = [
  'version',
  'config',
  'configSha256',
  'home',
  'dialect',
  'gatewaySocket',
  'landlock',
  'tybaDataDir',
  'agentDirs',
  'worktreeOption',
  'bwrap',
  'boxwright',
] as const;

/**
 * Why parsed JSON is not an Entry, or undefined: a structural check of
 * every field a run reads, so that an entry someone or something else
 * wrote (a truncated write, an edit, another version) is not a hit and is
 * replaced, instead of a cast a later read trips over.
 */
export function entryProblem(v: unknown): string | undefined {
  if (!isObject(v)) return 'not an object';
  if (v['format'] !== ENTRY_FORMAT) return `format ${JSON.stringify(v['format'])}, not ${ENTRY_FORMAT}`;
  const inputs = v['inputs'];
  if (!isObject(inputs) || Object.keys(inputs).length !== INPUT_KEYS.length || !INPUT_KEYS.every((k) => k in inputs))
    return 'inputs is not the key';
  if (v['worktree'] !== null && !isString(v['worktree'])) return 'worktree is neither a path nor null';
  const principals = v['principals'];
  if (!Array.isArray(principals) || !principals.every(isString)) return 'principals is not a list of ids';
  const facts = factsProblem(v['facts']);
  if (facts) return facts;
  const files = v['files'];
  if (!isObject(files)) return 'files is not an object';
  for (const [name, st] of Object.entries(files)) {
    if (name === '' || name.includes('/') || name === '.' || name === '..' || name === 'entry.json')
      return `files names ${JSON.stringify(name)}, not a file of the entry`;
    if (!isObject(st) || !['ino', 'size', 'mtimeMs', 'ctimeMs'].every((k) => typeof st[k] === 'number' && Number.isFinite(st[k])))
      return `files.${name} is not a stamp`;
  }
  return undefined;
}

export function cacheKey(inputs: CacheInputs): string {
  return sha256Hex(Buffer.from(JSON.stringify(inputs))).slice(0, 40);
}

const runDir = (root: string): string => join(root, 'run');

/** The stamp of a regular file of this user's that no one else can write, or why it is not one. */
export function stampOf(path: string): Stamp | string {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    return `${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  if (!st.isFile()) return `${path} is not a regular file`;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `${path} belongs to uid ${st.uid}`;
  if ((st.mode & 0o022) !== 0) return `${path} can be written by others`;
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

export type Lookup = { readonly hit: true; readonly dir: string; readonly entry: Entry } | { readonly hit: false; readonly why: string };

/** The entry for `inputs`, if every file and directory is as it was written; the facts are the caller's to replay. */
export function findEntry(root: string, inputs: CacheInputs): Lookup {
  const dir = join(runDir(root), cacheKey(inputs));
  let text: string;
  try {
    text = readFileSync(join(dir, 'entry.json'), 'utf8');
  } catch {
    return { hit: false, why: 'no entry' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { hit: false, why: `${join(dir, 'entry.json')} is not JSON` };
  }
  const malformed = entryProblem(parsed);
  if (malformed) return { hit: false, why: `${join(dir, 'entry.json')} is not an entry this boxwright wrote: ${malformed}` };
  const entry = parsed as Entry; // checked: entryProblem
  for (const d of [root, runDir(root), dir]) {
    const why = (d === root ? sharedParent(root) : undefined) ?? untrusted(d);
    if (why) return { hit: false, why };
  }
  const entryStamp = stampOf(join(dir, 'entry.json'));
  if (typeof entryStamp === 'string') return { hit: false, why: entryStamp };
  if (entry.format !== ENTRY_FORMAT || JSON.stringify(entry.inputs) !== JSON.stringify(inputs))
    return { hit: false, why: 'the entry was made for other inputs' };
  // Every file in the directory is one the entry stamped: none added beside them, none it names left out.
  const names = Object.keys(entry.files).sort();
  const present = readdirSync(dir)
    .filter((n) => n !== 'entry.json')
    .sort();
  if (JSON.stringify(names) !== JSON.stringify(present))
    return { hit: false, why: `the files in ${dir} are not the ones its entry.json names` };
  for (const [name, was] of Object.entries(entry.files)) {
    const now = stampOf(join(dir, name));
    if (typeof now === 'string') return { hit: false, why: now };
    if (now.ino !== was.ino || now.size !== was.size || now.mtimeMs !== was.mtimeMs || now.ctimeMs !== was.ctimeMs)
      return { hit: false, why: `${name} changed since it was written` };
  }
  return { hit: true, dir, entry };
}

export interface EntryFile {
  readonly name: string;
  readonly content: Uint8Array | string;
}

/**
 * Writes an entry: its files into a fresh private directory, each stamped,
 * then entry.json, then the directory renamed into place (a run reading
 * meanwhile finds the old entry, the new one, or none, never half of one).
 * `place` writes what is not plain content (the launchers). Returns the
 * entry's directory (`temporary`: this run's own, for the caller to remove
 * after the run), or why there is none.
 */
export function writeEntry(
  root: string,
  inputs: CacheInputs,
  meta: Omit<Entry, 'format' | 'inputs' | 'files'>,
  files: readonly EntryFile[],
  place: (dir: string) => readonly string[],
): { readonly dir: string; readonly files: Readonly<Record<string, Stamp>>; readonly temporary?: true } | { readonly why: string } {
  const runs = runDir(root);
  const why = privateDir(root, runs);
  if (why) return { why };
  let fresh: string;
  try {
    fresh = mkdtempSync(join(runs, `.new-${process.pid}-`));
  } catch (e) {
    return { why: `cannot write the cache entry: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  try {
    for (const f of files) writeFileSync(join(fresh, f.name), f.content, { mode: 0o600 });
    const placed = place(fresh);
    const stamps: Record<string, Stamp> = {};
    for (const name of [...files.map((f) => f.name), ...placed]) {
      const s = stampOf(join(fresh, name));
      if (typeof s === 'string') throw new Error(s);
      stamps[name] = s;
    }
    const entry: Entry = { format: ENTRY_FORMAT, inputs, ...meta, files: stamps };
    writeFileSync(join(fresh, 'entry.json'), JSON.stringify(entry) + '\n', { mode: 0o600 });
    const dir = join(runs, cacheKey(inputs));
    // An entry there may be in use: a launcher running from it resolves its
    // own path, and bubblewrap binds it by path, so it is never moved while
    // it may be valid. Another run wrote a valid one meanwhile (two runs of
    // one config at once): it stays, and this run runs from its own
    // directory, temporary. A stale one is moved aside (pruned later).
    try {
      renameSync(fresh, dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
      if (findEntry(root, inputs).hit) return { dir: fresh, files: stamps, temporary: true };
      try {
        renameSync(dir, join(runs, `.old-${process.pid}-${process.hrtime.bigint()}`));
        renameSync(fresh, dir);
      } catch {
        return { dir: fresh, files: stamps, temporary: true };
      }
    }
    prune(runs);
    return { dir, files: stamps };
  } catch (e) {
    rmSync(fresh, { recursive: true, force: true });
    return { why: `cannot write the cache entry: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
}

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Entries not written for a week go; entries moved aside and leftovers of interrupted writes after an hour (a run may still use them). */
function prune(runs: string): void {
  const now = Date.now();
  for (const name of readdirSync(runs)) {
    const path = join(runs, name);
    try {
      const age = now - statSync(path).mtimeMs;
      if (age > WEEK_MS || (name.startsWith('.') && age > 3600_000)) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}
