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
// shows (a read_file naming a directory bound its whole tree). Now and then
// the tree holds host-trusted paths (a .git, an .envrc, a .vscode), which
// are read-only inside a write tree unless a grant names them.
//
// BOXWRIGHT_FUZZ_RUNS=N checks N configs (150 by default), from
// BOXWRIGHT_FUZZ_SEED (1 by default); config i has seed SEED+i, so a
// failure names the seed that reproduces it alone (RUNS=1 SEED=that).
import assert from 'node:assert/strict';
import { constants, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { configReader } from '../../app/cli/options.js';
import { hostArch } from '../../targets/linux/index.js';
import {
  buildProbe,
  compareWithModel,
  fuzzKnobs,
  probeInSandbox,
  skipFuzz,
  rand,
  type Node,
  type Rand,
} from './model-vs-kernel-support.js';

const arch = hostArch();
const skip = skipFuzz;
/** BOXWRIGHT_FUZZ_RUNS, _SEED, _ENTRIES (entries drawn at most for one list; more make denser configs). */
const { runs, firstSeed, entries } = fuzzKnobs({ runs: 150, entries: 6 });

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

/**
 * Host-trusted paths in a random directory of the tree (a .git directory
 * with its config and hooks, an .envrc, a .vscode with a task file), and
 * now and then a write grant that names one (a lift), with the read Linux
 * requires. Drawn after the rest of a config, so that the configs drawn
 * without them stay what they were.
 */
function addHostTrusted(r: Rand, nodes: Node[], agent: Filesystem): void {
  const dirs = nodes.filter((n) => n.kind === 'dir').map((n) => n.path);
  const at = r.pick(dirs);
  const made: string[] = [];
  const dir = (p: string): void => {
    mkdirSync(p, { recursive: true });
    nodes.push({ kind: 'dir', path: p });
    made.push(p);
  };
  const file = (p: string): void => {
    writeFileSync(p, `content of ${p}\n`, { mode: 0o755 });
    nodes.push({ kind: 'file', path: p, program: false });
    made.push(p);
  };
  const kind = r.int(3);
  if (kind === 0) {
    dir(join(at, '.git'));
    dir(join(at, '.git', 'hooks'));
    file(join(at, '.git', 'config'));
    file(join(at, '.git', 'HEAD'));
  } else if (kind === 1) file(join(at, '.envrc'));
  else {
    dir(join(at, '.vscode'));
    file(join(at, '.vscode', 'tasks.json'));
  }
  if (r.chance(0.3)) {
    const lift = r.pick(made);
    (agent.write = [...((agent.write as string[] | undefined) ?? [])]).push(lift);
    (agent.read = [...((agent.read as string[] | undefined) ?? [])]).push(lift);
  }
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
    const natural =
      list === 'read_file' || list === 'write_file'
        ? files
        : list === 'exec'
          ? r.chance(0.5)
            ? files
            : dirs
          : r.chance(0.7)
            ? dirs
            : files;
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
    `[${name}]\n` +
    Object.entries(fs)
      .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
      .join('\n') +
    '\n';
  return (
    table('agent.filesystem', agent) +
    (tool ? '\n' + table('tools.t.filesystem', tool) : '') +
    (server ? '\n[mcp_servers.m]\ncommand = "m"\n\n' + table('mcp_servers.m.filesystem', server) : '')
  );
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
    const { probe, program } = buildProbe(root);
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
        // Now and then host-trusted paths in the tree (read-only inside a write tree), one of them lifted by a grant that names it.
        if (r.chance(0.35)) addHostTrusted(r, nodes, agent);
        const text = toml(agent, tool, server);
        configs[seed] = `# --landlock ${landlock}\n${text}`;
        const reader = configReader({ fs: 'host', home, worktree: home, landlock });
        const check = reader.check(Buffer.from(text), `seed-${seed}.toml`);
        if (!check.model || check.verdicts.linux === 'refused') continue;
        const outcome = await compileConfig(check, 'linux', {});
        assert.ok(outcome.ok, `seed ${seed}: Linux accepts it, but it does not compile`);
        accepted++;
        for (const pa of check.model.principals) {
          const id = pa.principal.id;
          const ran = probeInSandbox(
            outcome.artifacts,
            id,
            arch!,
            probe,
            top,
            nodes.map((n) => n.path),
          );
          if ('failure' in ran) {
            mismatches.push({ seed, principal: id, path: '-', why: ran.failure, seen: '' });
            continue;
          }
          probed += nodes.length;
          const compared = compareWithModel(pa, nodes, ran.lines, (t) => (t === '/etc/hostname' ? 'file' : 'absent'));
          granted += compared.granted;
          for (const d of compared.disagreements) mismatches.push({ seed, principal: id, ...d });
        }
      } finally {
        // Each config's tree (its programs are copies) goes when it is checked.
        rmSync(top, { recursive: true, force: true });
      }
    }
    const report = mismatches.map((m) => `seed ${m.seed} ${m.principal} ${m.path}: ${m.why} [${m.seen}]`);
    const failing = [...new Set(mismatches.map((m) => m.seed))];
    for (const s of failing) report.push(`--- seed ${s} (BOXWRIGHT_FUZZ_SEED=${s} BOXWRIGHT_FUZZ_RUNS=1):\n${configs[s]}`);
    process.stderr.write(
      `model-vs-kernel: ${runs} configs, ${accepted} accepted on Linux, ${probed} paths probed (${granted} with a cell other than absent)\n`,
    );
    if (report.length) process.stderr.write(report.join('\n') + '\n');
    assert.equal(
      mismatches.length,
      0,
      `${mismatches.length} mismatches in ${failing.length} configs (seeds ${failing.join(' ')}), listed above`,
    );
    // The generator must keep producing configs Linux accepts, or the test checks nothing.
    assert.ok(accepted >= runs / 4, `only ${accepted} of ${runs} configs were accepted on Linux`);
    assert.ok(granted >= accepted, `only ${granted} probed paths had any access`);
  });
});
