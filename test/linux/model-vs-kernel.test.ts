// The model against the kernel, on configs no one wrote: a seeded generator
// makes a small tree on disk (nested directories, files, symlinks to files
// and directories, an executable here and there) and Box configs over it
// that use every list; for each config Linux accepts, every path of the
// tree (granted or not) is probed inside each principal's compiled sandbox
// (real bubblewrap, seccomp and the in-sandbox step with its Landlock
// rules), and what the kernel did is compared with the model's Linux cell
// at that path (`effectiveAt(path, 'linux')`): existence, read, write (a
// directory: a file can be created in it; a file: it opens for append),
// execute (execve refused with EACCES or not, of a file).
//
// explain-truth.test.ts checks the cells explain prints for the examples;
// this checks the cells of every path, granted or not, for generated
// configs, which is where a lowering that gives more than the model says
// shows (a read_file naming a directory bound its whole tree).
//
// BOXWRIGHT_FUZZ_RUNS=N checks N configs (150 by default), from
// BOXWRIGHT_FUZZ_SEED (1 by default); config i has seed SEED+i, so a
// failure names the seed that reproduces it alone (RUNS=1 SEED=that).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { configReader } from '../../app/cli/options.js';
import { legend } from '../../model/cell.js';
import type { Cell } from '../../model/cell.js';
import { hostArch, parseArgsFile } from '../../targets/linux/index.js';
import { viewFromArgv } from '../../targets/linux/view.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { bwrapAvailable, onPath } from './support.js';
import { probeSource } from './model-vs-kernel-probe.js';

const arch = hostArch();
const skip =
  requireOrSkip(bwrapAvailable, 'bubblewrap') ??
  requireOrSkip(!!onPath('gcc'), 'gcc (to build the static probe)') ??
  requireOrSkip(arch !== undefined, 'an x86_64 or aarch64 host (the architectures boxwright compiles seccomp for)');

const runs = Number(process.env.BOXWRIGHT_FUZZ_RUNS ?? 150);
const firstSeed = Number(process.env.BOXWRIGHT_FUZZ_SEED ?? 1);
/** At most this many entries drawn for one filesystem table (BOXWRIGHT_FUZZ_ENTRIES; more make denser configs). */
const entries = Number(process.env.BOXWRIGHT_FUZZ_ENTRIES ?? 6);

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

interface Rand {
  (): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

function rand(seed: number): Rand {
  const next = prng(seed);
  const r = (() => next()) as Rand;
  r.int = (n) => Math.floor(next() * n);
  r.pick = (xs) => xs[Math.floor(next() * xs.length)]!;
  r.chance = (p) => next() < p;
  return r;
}

/** One path of the generated tree, as the host has it. */
type Node =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'file'; readonly path: string; readonly program: boolean }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  | { readonly kind: 'absent'; readonly path: string };

/** A random tree under `top`: directories up to three deep, files (some of them real programs), links, and names that do not exist. */
function makeTree(r: Rand, top: string, program: string): Node[] {
  const nodes: Node[] = [{ kind: 'dir', path: top }];
  mkdirSync(top, { recursive: true });
  const dirs: string[] = [top];
  const grow = (dir: string, depth: number): void => {
    const subdirs = depth >= 3 ? 0 : r.int(depth === 0 ? 4 : 3) + (depth === 0 ? 1 : 0);
    for (let i = 0; i < subdirs; i++) {
      const d = join(dir, `d${i}`);
      mkdirSync(d);
      nodes.push({ kind: 'dir', path: d });
      dirs.push(d);
      grow(d, depth + 1);
    }
    const files = r.int(3);
    for (let i = 0; i < files; i++) {
      const f = join(dir, `f${i}`);
      // Every file is executable by its mode, so that only the sandbox can refuse to run it.
      writeFileSync(f, `content of ${f}\n`, { mode: 0o755 });
      nodes.push({ kind: 'file', path: f, program: false });
    }
    if (r.chance(0.3)) {
      const x = join(dir, 'prog');
      // A copy, not a hard link: Landlock's rule on a file is on its inode, so an exec grant of one link would make every link executable.
      copyFileSync(program, x, constants.COPYFILE_FICLONE);
      nodes.push({ kind: 'file', path: x, program: true });
    }
  };
  grow(top, 0);
  const real = nodes.filter((n) => n.kind === 'dir' || n.kind === 'file');
  const links = r.int(4);
  for (let i = 0; i < links; i++) {
    const at = join(r.pick(dirs), `l${i}`);
    // Mostly a path of the tree (a file or a directory), sometimes one outside it or none at all.
    const target = r.chance(0.8) ? r.pick(real).path : r.chance(0.5) ? '/etc/hostname' : join(top, 'nowhere');
    symlinkSync(target, at);
    nodes.push({ kind: 'symlink', path: at, target });
  }
  for (let i = 0; i < 2; i++) nodes.push({ kind: 'absent', path: join(r.pick(dirs), `gone${i}`) });
  return nodes;
}

const LISTS = ['read', 'write', 'read_file', 'write_file', 'exec', 'deny', 'list', 'metadata'] as const;
type List = (typeof LISTS)[number];

/** A filesystem table: mostly paths that make sense for the list, sometimes any path of the tree. */
function makeFilesystem(r: Rand, nodes: readonly Node[], agent: boolean): Partial<Record<List | 'workspace', string[] | string>> {
  const of = (kinds: readonly Node['kind'][]): string[] => nodes.filter((n) => kinds.includes(n.kind)).map((n) => n.path);
  const dirs = of(['dir']);
  const files = of(['file']);
  const any = nodes.map((n) => n.path);
  const out: Partial<Record<List, string[]>> = {};
  const add = (list: List, path: string): void => void (out[list] ??= []).push(path);
  const count = 1 + r.int(entries);
  for (let i = 0; i < count; i++) {
    const list = r.pick<List>(['read', 'read', 'write', 'read_file', 'write_file', 'exec', 'deny', 'deny', 'list', 'metadata']);
    // The list's natural kind of path, and now and then any path (a file entry on a directory, a link, a missing one).
    const natural = list === 'read_file' || list === 'write_file' ? files : list === 'exec' ? (r.chance(0.5) ? files : dirs) : r.chance(0.7) ? dirs : files;
    const path = r.chance(0.12) ? r.pick(any) : r.pick(natural.length ? natural : any);
    if (list === 'list' && !r.chance(0.25)) continue; // Linux refuses `list`: keep most configs accepted
    if (list === 'metadata' && (!agent || !r.chance(0.5))) continue; // a tool refuses `metadata`
    add(list, path);
    // A write usually comes with the read Linux requires: at the path or above it.
    if ((list === 'write' || list === 'write_file') && r.chance(0.85)) {
      const above = dirs.filter((d) => path === d || path.startsWith(d + '/'));
      if (list === 'write_file' && r.chance(0.5)) add('read_file', path);
      else add('read', r.chance(0.5) ? path : r.pick(above.length ? above : [path]));
    }
  }
  const fs: Partial<Record<List | 'workspace', string[] | string>> = { ...out };
  if (r.chance(0.25)) fs.workspace = r.pick(dirs.concat(of(['absent'])));
  return fs;
}

type Filesystem = ReturnType<typeof makeFilesystem>;

function toml(agent: Filesystem, tool: Filesystem | undefined, server: Filesystem | undefined): string {
  const table = (name: string, fs: Filesystem): string =>
    `[${name}]\n` + Object.entries(fs).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join('\n') + '\n';
  return table('agent.filesystem', agent) + (tool ? '\n' + table('tools.t.filesystem', tool) : '') + (server ? '\n[mcp_servers.m]\ncommand = "m"\n\n' + table('mcp_servers.m.filesystem', server) : '');
}

/** What the probe saw at one path (following a link, except `lexists` and `link`). */
interface Seen {
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

function parseSeen(line: string): Seen {
  const kv = Object.fromEntries(line.trim().split(/\s+/).map((x) => x.split('=') as [string, string]));
  const n = (k: string): number => Number(kv[k] ?? -1);
  return { lexists: n('lexists') === 1, link: n('link') === 1, exists: n('exists') === 1, dir: n('dir') === 1, read: n('read'), write: n('write') === 1, exec: n('exec') };
}

/**
 * Whether what the kernel did agrees with the model's cell; the reason when
 * not. `below` says the path lies strictly inside a denied directory (its
 * cell is `empty`, and the kernel shows the empty cover, without it), and
 * `skeleton` (-1: not one) that bubblewrap makes the path as a directory to
 * hold mount points or the workspace, with that many names below it (the
 * model says it is absent: it shows nothing else).
 */
function disagreement(cell: Cell, seen: Seen, host: Node['kind'], ctx: { below: boolean; skeleton: number }): string | undefined {
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
      if (ctx.skeleton >= 0 && seen.dir && seen.read <= ctx.skeleton && !seen.write) return undefined;
      return `exists (read=${seen.read} write=${+seen.write}), but the model says —`;
    case 'empty':
      if (seen.read !== 0) return `reads ${seen.read} ${seen.dir ? 'entries' : 'bytes'}, but the model says empty`;
      return seen.write ? 'writable, but the model says empty' : undefined;
    case 'access': {
      if (cell.read && seen.read < 0) return `unreadable, but the model says ${l}`;
      if (!cell.read && seen.read >= 0) return `readable, but the model says ${l}`;
      if (cell.write !== seen.write) return `${seen.write ? 'writable' : 'not writable'}, but the model says ${l}`;
      if (!seen.dir && cell.exec !== (seen.exec === 1)) return `${seen.exec === 1 ? 'executable' : 'the kernel refuses to execute it (EACCES)'}, but the model says ${l}`;
      return undefined;
    }
    case 'refused':
      return 'the model gives a refused cell at a path';
  }
}

const root = mkdtempSync(join(tmpdir(), 'boxwright-fuzz-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Mismatch {
  seed: number;
  principal: string;
  path: string;
  why: string;
  seen: string;
}

describe('the model against the kernel: every path of generated trees, probed under real bubblewrap', { skip, timeout: 600_000 }, () => {
  it(`${runs} configs from seed ${firstSeed}: the kernel gives each path what the model's Linux cell says`, async () => {
    const probe = join(root, 'probe');
    writeFileSync(`${probe}.c`, probeSource);
    execFileSync('gcc', ['-static', '-O2', '-o', probe, `${probe}.c`]);
    const program = join(root, 'program');
    writeFileSync(`${program}.c`, 'int main(void) { return 0; }\n');
    execFileSync('gcc', ['-static', '-O2', '-o', program, `${program}.c`]);
    const step = join(repoRoot, 'dist', 'sandbox', `boxwright-sandbox.${arch}`);
    const mismatches: Mismatch[] = [];
    const configs: string[] = [];
    let accepted = 0;
    let probed = 0;
    let granted = 0;
    for (let i = 0; i < runs; i++) {
      const seed = firstSeed + i;
      const top = join(root, `c${seed}`);
      try {
        const r = rand(seed);
        const home = join(top, 'home');
        mkdirSync(home, { recursive: true });
        const nodes = makeTree(r, join(top, 't'), program);
        const agent = makeFilesystem(r, nodes, true);
        const tool = r.chance(0.4) ? makeFilesystem(r, nodes, false) : undefined;
        // Drawn after the rest, so that the configs before each was added stay what they were: now and then
        // execution confined by the mounts alone, and a local MCP server (confined as the agent is).
        const landlock = r.chance(0.2) ? 'off' : 'on';
        const server = r.chance(0.15) ? makeFilesystem(r, nodes, false) : undefined;
        const text = toml(agent, tool, server);
        configs[seed] = `# --landlock ${landlock}\n${text}`;
        const reader = configReader({ fs: 'host', home, worktree: home, landlock });
        const check = reader.check(Buffer.from(text), `seed-${seed}.toml`);
        if (!check.model || check.verdicts.linux === 'refused') continue;
        const outcome = await compileConfig(check, 'linux', {});
        assert.ok(outcome.ok, `seed ${seed}: Linux accepts it, but it does not compile`);
        accepted++;
        const bpf = outcome.artifacts.find((a) => a.name === `seccomp.${arch}.bpf`)!.content;
        for (const pa of check.model.principals) {
          const id = pa.principal.id;
          const argsBytes = Buffer.from(outcome.artifacts.find((a) => a.name === `${id}.bwrap.args`)!.content);
          const argv = parseArgsFile(argsBytes);
          const view = viewFromArgv(argv);
          const dir = mkdtempSync(join(top, 'run-'));
          writeFileSync(join(dir, 'args'), argsBytes);
          writeFileSync(join(dir, 'bpf'), Buffer.from(bpf));
          const rules = outcome.artifacts.find((a) => a.name === `${id}.landlock`)?.content;
          if (rules !== undefined) writeFileSync(join(dir, 'rules'), Buffer.concat([Buffer.from(rules), Buffer.from('fs\0execute,read_file\0/.boxwright-probe\0')]));
          const paths = nodes.map((n) => n.path);
          const fds = [openSync(join(dir, 'args'), 'r'), openSync(join(dir, 'bpf'), 'r'), openSync(step, 'r'), ...view.dataFds.map(() => openSync('/dev/null', 'r'))];
          const rulesFd = 3 + fds.length;
          if (rules !== undefined) fds.push(openSync(join(dir, 'rules'), 'r'));
          let out: ReturnType<typeof spawnSync>;
          try {
            // The probe is bound before the view's own arguments; the view then remounts its root read-only, as it does for any command.
            const stepArgs = rules !== undefined ? ['--rules-fd', String(rulesFd)] : ['--no-landlock'];
            out = spawnSync('bwrap', ['--ro-bind', probe, '/.boxwright-probe', '--args', '3', '--', '/.boxwright/exec', ...stepArgs, '--', '/.boxwright-probe', ...paths], {
              stdio: ['ignore', 'pipe', 'pipe', ...fds],
              encoding: 'utf8',
            });
          } finally {
            for (const fd of fds) closeSync(fd);
          }
          const stdout = String(out.stdout);
          const lines = stdout.split('\n').filter(Boolean);
          if (out.status !== 0 || lines.length !== paths.length) {
            mismatches.push({ seed, principal: id, path: '-', why: `the probe exited ${out.status} with ${lines.length} of ${paths.length} lines: ${String(out.stderr).trim()}`, seen: '' });
            continue;
          }
          const denies = pa.grants.filter((ga) => ga.grant.access === 'deny' && ga.grant.path && ga.grant.facts.kind === 'dir').map((ga) => ga.grant.path!);
          const mounts = pa.grants.filter((ga) => ga.grant.path && ga.effective.linux.kind === 'access').map((ga) => ga.grant.path!);
          const workspace = pa.principal.workspace?.path;
          const held = mounts.concat(workspace ? [workspace] : []);
          nodes.forEach((node, k) => {
            const seen = parseSeen(lines[k]!);
            probed++;
            const own = pa.effectiveAt(node.path, 'linux');
            if (own.kind !== 'absent') granted++;
            const check = (at: string, host: Node['kind'], what: string): void => {
              const cell = pa.effectiveAt(at, 'linux');
              const names = new Set(held.filter((m) => m.startsWith(at + '/')).map((m) => m.slice(at.length + 1).split('/')[0]));
              const skeleton = held.includes(at) || names.size ? names.size : -1;
              const ctx = { below: denies.some((d) => at.startsWith(d + '/')), skeleton };
              const why = disagreement(cell, seen, host, ctx);
              if (why) mismatches.push({ seed, principal: id, path: node.path, why: what + why, seen: lines[k]! });
            };
            if (node.kind !== 'symlink') return check(node.path, node.kind, '');
            // A link: itself is there where the model shows its directory; followed, it is what the model says of its target.
            const shown = own.kind === 'access';
            if (seen.lexists !== shown) mismatches.push({ seed, principal: id, path: node.path, why: `the link ${seen.lexists ? 'is' : 'is not'} in the view, but the model says ${legend(own)} at it`, seen: lines[k]! });
            else if (shown) {
              const target = nodes.find((n) => n.path === node.target);
              check(node.target, target && target.kind !== 'symlink' ? target.kind : node.target === '/etc/hostname' ? 'file' : 'absent', `followed to ${node.target}: `);
            }
          });
        }
      } finally {
        // Each config's tree (its programs are copies) goes when it is checked.
        rmSync(top, { recursive: true, force: true });
      }
    }
    const report = mismatches.map((m) => `seed ${m.seed} ${m.principal} ${m.path}: ${m.why} [${m.seen}]`);
    const failing = [...new Set(mismatches.map((m) => m.seed))];
    for (const s of failing) report.push(`--- seed ${s} (BOXWRIGHT_FUZZ_SEED=${s} BOXWRIGHT_FUZZ_RUNS=1):\n${configs[s]}`);
    process.stderr.write(`model-vs-kernel: ${runs} configs, ${accepted} accepted on Linux, ${probed} paths probed (${granted} with a cell other than absent)\n`);
    if (report.length) process.stderr.write(report.join('\n') + '\n');
    assert.equal(mismatches.length, 0, `${mismatches.length} mismatches in ${failing.length} configs (seeds ${failing.join(' ')}), listed above`);
    // The generator must keep producing configs Linux accepts, or the test checks nothing.
    assert.ok(accepted >= runs / 4, `only ${accepted} of ${runs} configs were accepted on Linux`);
    assert.ok(granted >= accepted, `only ${granted} probed paths had any access`);
  });
});
