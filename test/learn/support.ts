// What the learn tests share: the tools they need, a snapshot of a tree
// (to prove the host unchanged, and to learn what a real run wrote), and the
// checks every learned config must pass, stated from the policy's data, not
// from its code.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { checkConfig, type CheckedPolicy } from '../../app/check.js';
import { hostView, isStrictlyUnder, isUnder, protectedPaths } from '../../compiler/paths/index.js';
import { hostTrustedFor } from '../../app/learn/host-trusted.js';
import policy from '../../app/learn/policy.json' with { type: 'json' };
import { requireOrSkip } from '../helpers.js';
import { bwrapAvailable, onPath } from '../linux/support.js';

export const skipLearn =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ?? requireOrSkip(!!onPath('strace'), 'strace (apt-get install strace)');

/** A path's kind and content, as far as a change shows: type, mode, size, content hash, link target, inode. */
export type Snapshot = Map<string, string>;

export function snapshot(root: string, skip: (p: string) => boolean = () => false): Snapshot {
  const out: Snapshot = new Map();
  const walk = (p: string): void => {
    if (skip(p)) return;
    const st = lstatSync(p);
    let sig = `${st.mode.toString(8)} ${st.uid}:${st.gid} ino=${st.ino}`;
    if (st.isFile()) sig += ` size=${st.size} mtime=${st.mtimeMs} sha=${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    else if (st.isSymbolicLink()) sig += ` -> ${readlinkSync(p)}`;
    out.set(p, sig);
    if (st.isDirectory()) for (const e of readdirSync(p).sort()) walk(join(p, e));
  };
  walk(root);
  return out;
}

/** Paths added, removed or changed between two snapshots. */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [p, s] of after) if (before.get(p) !== s) out.push(p);
  for (const p of before.keys()) if (!after.has(p)) out.push(p);
  return out.sort();
}

/**
 * What a real run wrote, from its changes: every file written, and every
 * directory an entry of which was made, removed or replaced. A directory
 * whose own listing changed counts through its entries, not itself.
 */
export function writtenBy(before: Snapshot, after: Snapshot): Set<string> {
  const out = new Set<string>();
  const ino = (s: string): string | undefined => /ino=(\d+)/.exec(s)?.[1];
  const isDir = (s: string): boolean => (Number.parseInt(s.split(' ')[0]!, 8) & 0o170000) === 0o040000;
  for (const p of changes(before, after)) {
    const was = before.get(p);
    const is = after.get(p);
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (was === undefined || is === undefined || ino(was) !== ino(is))
      out.add(parent); // an entry made, removed or replaced
    else if (!isDir(is)) out.add(p); // a file written in place (a directory's own changes come through its entries)
  }
  return out;
}

export function checkLearnedText(file: string, text: string, home: string, workspace: string): CheckedPolicy {
  const c = checkConfig(Buffer.from(text, 'utf8'), { file, view: hostView(home), worktree: workspace });
  if (!c.ir) throw new Error(`${file} is not a config:\n${c.diagnostics.map((d) => d.message).join('\n')}`);
  return c;
}

/**
 * Every guarantee of a learned config, checked from its grants:
 * - Linux accepts it;
 * - no grant is or is inside a protected or secret path (secrets.json, the
 *   system secrets), and none but `list` holds one;
 * - every write grant is a path the real run wrote (a file it changed, or a
 *   directory in which it made, removed or replaced an entry);
 * - every write grant at or inside a host-trusted path (learn's one list,
 *   app/learn/host-trusted.ts) says so in its comment;
 * - no read tree above what the policy allows: a system tree's package
 *   level, the workspace or one of its subdirectories, or a directory that
 *   is no ancestor of the workspace or the home and holds no boundary.
 */
export function assertLearned(
  c: CheckedPolicy,
  o: { home: string; workspace: string; written: ReadonlySet<string>; text: string },
): string[] {
  const problems: string[] = [];
  const trusted = hostTrustedFor(o.home, o.workspace).map((t) => t.path);
  const commentOf = entryComments(o.text, o.home);
  if (c.verdicts.linux === 'refused')
    problems.push(
      `Linux refuses it: ${c.diagnostics
        .filter((d) => d.severity === 'error' && d.platforms.includes('linux'))
        .map((d) => d.message)
        .join('; ')}`,
    );
  const boundaries = [
    ...protectedPaths(o.home, '~/.tyba')
      .filter((p) => p.why !== 'root')
      .map((p) => p.path),
    ...Object.keys(policy.systemSecrets).filter((s) => !isUnder(o.home, s)),
  ];
  for (const p of c.ir.principals) {
    for (const g of p.grants) {
      if (!g.path || g.list === 'implicit') continue;
      if (g.path === '/') problems.push(`${g.list} grants the root`);
      for (const b of boundaries) {
        if (isUnder(g.path, b)) problems.push(`${g.list} ${g.path} is inside ${b}`);
        if (g.list !== 'list' && isStrictlyUnder(b, g.path)) problems.push(`${g.list} ${g.path} holds ${b}`);
      }
      if (
        (g.list === 'write' || g.list === 'write_file') &&
        trusted.some((t) => isUnder(g.path!, t)) &&
        !/host-trusted/.test(commentOf.get(`${g.list}\0${g.path}`) ?? '')
      )
        problems.push(`${g.list} ${g.path} is host-trusted and its comment does not say so`);
      if ((g.list === 'write' || g.list === 'write_file') && !o.written.has(g.path))
        problems.push(`${g.list} ${g.path}: the run wrote nothing there (it wrote ${[...o.written].join(', ')})`);
      if (g.list === 'read') {
        const level = Object.entries(policy.systemTrees).some(
          ([root, t]) => isUnder(g.path!, root) && g.path!.split('/').length - root.split('/').length <= t.depth,
        );
        const ws = g.path === o.workspace || (isStrictlyUnder(g.path, o.workspace) && !g.path.slice(o.workspace.length + 1).includes('/'));
        const elsewhere = !isUnder(o.workspace, g.path) && !isUnder(o.home, g.path) && !boundaries.some((b) => isUnder(b, g.path!));
        if (!level && !ws && !elsewhere) problems.push(`read ${g.path} is above what the collapse policy allows`);
      }
    }
  }
  return problems;
}

/** Each entry's comment in learn's text, by list and absolute path (learn writes one entry per line, `~` for the home). */
function entryComments(text: string, home: string): Map<string, string> {
  const out = new Map<string, string>();
  let list = '';
  for (const line of text.split('\n')) {
    const open = /^(\w+) = \[$/.exec(line);
    if (open) list = open[1]!;
    const entry = /^ {2}("(?:[^"\\]|\\.)*"),\s*#(.*)$/.exec(line);
    if (!entry || !list) continue;
    const path = JSON.parse(entry[1]!) as string;
    out.set(`${list}\0${path.startsWith('~/') ? home + path.slice(1) : path}`, entry[2]!);
  }
  return out;
}

/**
 * The directories learn asks to be made before a run under the config (the run made them; the grants name them,
 * not their parents, and Linux binds only what exists): its closing comment's list, each a TOML string.
 */
export function directoriesToCreate(text: string): string[] {
  const at = text.indexOf('# Before running under this config, create the directories the run made');
  if (at < 0) return [];
  const out: string[] = [];
  for (const line of text.slice(at).split('\n').slice(2)) {
    const m = /^# {3}("(?:[^"\\]|\\.)*")$/.exec(line);
    if (!m) break;
    out.push(JSON.parse(m[1]!) as string);
  }
  return out;
}
