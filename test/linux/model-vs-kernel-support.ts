/**
 * What the model-vs-kernel differential tests share (model-vs-kernel.test.ts
 * for Box configs, model-vs-kernel-tyba.test.ts for TYBA sessions): the
 * seeded generator's randomness, the static probe and a program built with
 * gcc, one run of the probe in a principal's compiled sandbox, and the
 * comparison of what it saw at each path with the model's Linux cell.
 */
import { closeSync, openSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { legend } from '../../model/cell.js';
import type { Cell } from '../../model/cell.js';
import type { PrincipalAccess } from '../../model/index.js';
import { hostArch, parseArgsFile } from '../../targets/linux/index.js';
import { viewFromArgv } from './view-from-argv.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { probeSource } from './model-vs-kernel-probe.js';
import { bwrapAvailable, onPath } from './support.js';
import { finished, WAIT_LIMIT_MS } from '../waits.js';
import { runs } from '../budget.js';

/** mulberry32: a small seeded PRNG, so that a config is reproduced by its seed alone. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rand {
  (): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

export function rand(seed: number): Rand {
  const next = prng(seed);
  const r = (() => next()) as Rand;
  r.int = (n) => Math.floor(next() * n);
  r.pick = (xs) => xs[Math.floor(next() * xs.length)]!;
  r.chance = (p) => next() < p;
  return r;
}

/** One path of the generated tree, as the host has it. */
export type Node =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'file'; readonly path: string; readonly program: boolean }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  | { readonly kind: 'absent'; readonly path: string };

/** What the probe saw at one path (following a link, except `lexists` and `link`). */
export interface Seen {
  lexists: boolean;
  link: boolean;
  exists: boolean;
  dir: boolean;
  /** Bytes (file) or entries (directory) read; -1 when reading fails. */
  read: number;
  write: boolean;
  /** A file: whether the kernel let it be executed; -1 for a directory (not tried). */
  exec: number;
}

export function parseSeen(line: string): Seen {
  const kv = Object.fromEntries(
    line
      .trim()
      .split(/\s+/)
      .map((x) => x.split('=') as [string, string]),
  );
  const n = (k: string): number => Number(kv[k] ?? -1);
  return {
    lexists: n('lexists') === 1,
    link: n('link') === 1,
    exists: n('exists') === 1,
    dir: n('dir') === 1,
    read: n('read'),
    write: n('write') === 1,
    exec: n('exec'),
  };
}

/**
 * Whether what the kernel did agrees with the model's cell; the reason when
 * not. `below` says the path lies strictly inside a denied directory (its
 * cell is `empty`, and the kernel shows the empty cover, without it), and
 * `skeleton` (-1: not one) that bubblewrap makes the path as a directory to
 * hold mount points or the workspace, with that many names below it (the
 * model says it is absent: it shows nothing else); `privateTmp`, that it
 * lies inside TYBA's private tmpfs, where such a directory is writable.
 */
export function disagreement(
  cell: Cell,
  seen: Seen,
  host: Node['kind'],
  ctx: { below: boolean; skeleton: number; privateTmp?: boolean },
): string | undefined {
  const l = legend(cell);
  if (!seen.exists) {
    if (l === '—' || host === 'absent' || host === 'symlink') return undefined;
    if (l === 'empty' && ctx.below) return undefined;
    return `absent, but the model says ${l}`;
  }
  if (host === 'absent' && ctx.skeleton < 0) return `exists (made by the sandbox), but the host has no such path [model ${l}]`;
  switch (cell.kind) {
    case 'absent':
    case 'denied':
      // Under Landlock it cannot be listed; without, it lists the mount points' names, no more.
      // Inside TYBA's private tmpfs such a directory is the tmpfs's own, so writable (nothing of the host).
      if (ctx.skeleton >= 0 && seen.dir && seen.read <= ctx.skeleton && (!seen.write || ctx.privateTmp)) return undefined;
      return `exists (read=${seen.read} write=${+seen.write}), but the model says —`;
    case 'empty':
      if (seen.read !== 0) return `reads ${seen.read} ${seen.dir ? 'entries' : 'bytes'}, but the model says empty`;
      return seen.write ? 'writable, but the model says empty' : undefined;
    case 'access': {
      if (cell.read && seen.read < 0) return `unreadable, but the model says ${l}`;
      if (!cell.read && seen.read >= 0) return `readable, but the model says ${l}`;
      if (cell.write !== seen.write) return `${seen.write ? 'writable' : 'not writable'}, but the model says ${l}`;
      if (!seen.dir && cell.exec !== (seen.exec === 1))
        return `${seen.exec === 1 ? 'executable' : 'the kernel refuses to execute it (EACCES)'}, but the model says ${l}`;
      return undefined;
    }
    case 'refused':
      return 'the model gives a refused cell at a path';
  }
}

/** The static probe and a static program (a real executable for the tree), built with gcc in `dir`. */
export function buildProbe(dir: string): { probe: string; program: string } {
  const probe = join(dir, 'probe');
  writeFileSync(`${probe}.c`, probeSource);
  execFileSync('gcc', ['-static', '-O2', '-o', probe, `${probe}.c`]);
  const program = join(dir, 'program');
  writeFileSync(`${program}.c`, 'int main(void) { return 0; }\n');
  execFileSync('gcc', ['-static', '-O2', '-o', program, `${program}.c`]);
  return { probe, program };
}

export interface Artifact {
  readonly name: string;
  readonly content: Uint8Array | string;
}

/**
 * Runs the probe over `paths` inside principal `id`'s compiled sandbox (its
 * bwrap args, the seccomp filter, the in-sandbox step with the principal's
 * Landlock rules or `--no-landlock`): one line per path, or why it failed.
 */
export function probeInSandbox(
  artifacts: readonly Artifact[],
  id: string,
  arch: string,
  probe: string,
  scratch: string,
  paths: readonly string[],
): { lines: string[] } | { failure: string } {
  const step = join(repoRoot, 'dist', 'sandbox', `boxwright-sandbox.${arch}`);
  const bpf = artifacts.find((a) => a.name === `seccomp.${arch}.bpf`)!.content;
  const argsBytes = Buffer.from(artifacts.find((a) => a.name === `${id}.bwrap.args`)!.content);
  const view = viewFromArgv(parseArgsFile(argsBytes));
  const dir = mkdtempSync(join(scratch, 'run-'));
  writeFileSync(join(dir, 'args'), argsBytes);
  writeFileSync(join(dir, 'bpf'), Buffer.from(bpf));
  const rules = artifacts.find((a) => a.name === `${id}.landlock`)?.content;
  if (rules !== undefined)
    writeFileSync(join(dir, 'rules'), Buffer.concat([Buffer.from(rules), Buffer.from('fs\0execute,read_file\0/.boxwright-probe\0')]));
  const fds = [
    openSync(join(dir, 'args'), 'r'),
    openSync(join(dir, 'bpf'), 'r'),
    openSync(step, 'r'),
    ...view.dataFds.map(() => openSync('/dev/null', 'r')),
  ];
  const rulesFd = 3 + fds.length;
  if (rules !== undefined) fds.push(openSync(join(dir, 'rules'), 'r'));
  let out: ReturnType<typeof spawnSync>;
  try {
    // The probe is bound before the view's own arguments; the view then remounts its root read-only, as it does for any command.
    const stepArgs = rules !== undefined ? ['--rules-fd', String(rulesFd)] : ['--no-landlock'];
    out = finished(
      spawnSync(
        'bwrap',
        [
          '--ro-bind',
          probe,
          '/.boxwright-probe',
          '--args',
          '3',
          '--',
          '/.boxwright/exec',
          ...stepArgs,
          '--',
          '/.boxwright-probe',
          ...paths,
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe', ...fds],
          encoding: 'utf8',
          timeout: WAIT_LIMIT_MS,
        },
      ),
      'the probe under bubblewrap',
    );
  } finally {
    for (const fd of fds) closeSync(fd);
  }
  const lines = String(out.stdout).split('\n').filter(Boolean);
  if (out.status !== 0 || lines.length !== paths.length)
    return { failure: `the probe exited ${out.status} with ${lines.length} of ${paths.length} lines: ${String(out.stderr).trim()}` };
  return { lines };
}

export interface Disagreement {
  readonly path: string;
  readonly why: string;
  readonly seen: string;
}

/**
 * Each node's probe line against the principal's Linux cell at it: a link
 * is in the view where the model shows its directory, and followed it is
 * what the model says of its target. `external` names the kind of a link
 * target outside the tree. Returns the disagreements and how many paths
 * had a cell other than absent.
 */
export function compareWithModel(
  pa: PrincipalAccess,
  nodes: readonly Node[],
  lines: readonly string[],
  external: (target: string) => Node['kind'] = () => 'absent',
): { disagreements: Disagreement[]; granted: number } {
  const disagreements: Disagreement[] = [];
  let granted = 0;
  const denies = pa.grants
    .filter((ga) => ga.grant.access === 'deny' && ga.grant.path && ga.grant.facts.kind === 'dir')
    .map((ga) => ga.grant.path!);
  const mounts = pa.grants.filter((ga) => ga.grant.path && ga.effective.linux.kind === 'access').map((ga) => ga.grant.path!);
  const workspace = pa.principal.workspace?.path;
  const held = mounts.concat(workspace ? [workspace] : []);
  const privateTmp = pa.grants.find((ga) => ga.grant.implicit?.privateTmpfs)?.grant.path;
  nodes.forEach((node, k) => {
    const seen = parseSeen(lines[k]!);
    const own = pa.effectiveAt(node.path, 'linux');
    if (own.kind !== 'absent') granted++;
    const check = (at: string, host: Node['kind'], what: string): void => {
      const cell = pa.effectiveAt(at, 'linux');
      const names = new Set(held.filter((m) => m.startsWith(at + '/')).map((m) => m.slice(at.length + 1).split('/')[0]));
      const skeleton = held.includes(at) || names.size ? names.size : -1;
      const ctx = {
        below: denies.some((d) => at.startsWith(d + '/')),
        skeleton,
        privateTmp: privateTmp !== undefined && at.startsWith(privateTmp + '/'),
      };
      const why = disagreement(cell, seen, host, ctx);
      if (why) disagreements.push({ path: node.path, why: what + why, seen: lines[k]! });
    };
    if (node.kind !== 'symlink') return check(node.path, node.kind, '');
    const shown = own.kind === 'access';
    if (seen.lexists !== shown)
      disagreements.push({
        path: node.path,
        why: `the link ${seen.lexists ? 'is' : 'is not'} in the view, but the model says ${legend(own)} at it`,
        seen: lines[k]!,
      });
    else if (shown) {
      const target = nodes.find((n) => n.path === node.target);
      check(
        node.target,
        target && target.kind !== 'symlink' ? target.kind : target ? 'absent' : external(node.target),
        `followed to ${node.target}: `,
      );
    }
  });
  return { disagreements, granted };
}

/** Why the model-vs-kernel tests cannot run here (loudly; in CI they fail), or undefined. */
export const skipFuzz: string | undefined =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(!!onPath('gcc'), 'gcc (to build the static probe)') ??
  requireOrSkip(hostArch() !== undefined, 'an x86_64 or aarch64 host (the architectures boxwright compiles seccomp for)');

/** BOXWRIGHT_FUZZ_RUNS (how many), BOXWRIGHT_FUZZ_SEED (the first seed) and BOXWRIGHT_FUZZ_ENTRIES (entries per list), each test with its defaults. */
export function fuzzKnobs(defaults: { runs: number; entries: number }): { runs: number; firstSeed: number; entries: number } {
  return {
    runs: runs(defaults.runs),
    firstSeed: Number(process.env.BOXWRIGHT_FUZZ_SEED ?? 1),
    entries: Number(process.env.BOXWRIGHT_FUZZ_ENTRIES ?? defaults.entries),
  };
}
