// The model against the kernel for TYBA sessions: the sibling of
// model-vs-kernel.test.ts (which generates Box configs) for the other
// dialect. A seeded generator makes a home on disk that holds some of the
// twelve secret locations of TYBA's platforms page (compiler/paths/
// secrets.json; now and then one is a link into a dotfiles directory), a
// worktree (inside the home or beside it), the agent's own directories,
// TYBA's data directory (the default ~/.tyba or --tyba-data-dir), and
// random directories, files, programs and links (some pointing at the
// secrets); then `[sandbox]` configs whose read_allow entries are drawn
// from that home: `~` itself, ancestors of secrets, the secrets themselves,
// the data directory, paths inside the worktree, links, missing names. For
// each config Linux accepts, every path of the home (secrets included) and
// /tmp is probed in the agent's compiled sandbox (real bubblewrap and
// seccomp; TYBA's sandbox has no Landlock) and compared with the model's
// Linux cell there: existence, read, write, execute. A secret the kernel
// lets the agent read where the model says absent is the hole this exists
// to find. Now and then the worktree is a linked worktree of a repository in
// the home, or holds a .git of its own, and the home a shell start-up file:
// host-trusted paths, read-only inside the session's write trees.
//
// Every other session's tree lives under the host's /tmp, the others outside
// it (in the repository's ignored tmp/, or /var/tmp): on Linux TYBA's temp
// directory is a private tmpfs at /tmp, which shows nothing of the host's
// /tmp below it, so a home, a data directory or a read_allow there is where
// the model and the lowering must agree on that (they did not: the data
// directory's ancestors under /tmp were bound writable from the host).
//
// BOXWRIGHT_FUZZ_RUNS=N checks N sessions (60 by default), from
// BOXWRIGHT_FUZZ_SEED (1 by default); session i has seed SEED+i, so a
// failure names the seed that reproduces it alone (RUNS=1 SEED=that).
import assert from 'node:assert/strict';
import { constants, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compileConfig } from '../../app/cli/compile.js';
import { configReader, type ConfigArgs } from '../../app/cli/options.js';
import { hostArch } from '../../targets/linux/index.js';
import { repoRoot } from '../helpers.js';
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
import secrets from '../../compiler/paths/secrets.json' with { type: 'json' };

const arch = hostArch();
const skip = skipFuzz;
/** BOXWRIGHT_FUZZ_RUNS, _SEED, _ENTRIES (entries drawn at most for one list; more make denser configs). */
const { runs, firstSeed, entries } = fuzzKnobs({ runs: 60, entries: 5 });

/** Each listed secret location as a credential tool leaves it: the location, and a file of content inside it (or itself). */
const SECRET_FILES: Readonly<Record<string, string>> = {
  '~/.ssh': '~/.ssh/id_ed25519',
  '~/.aws': '~/.aws/credentials',
  '~/.gnupg': '~/.gnupg/private-keys-v1.d/key.key',
  '~/.kube': '~/.kube/config',
  '~/.config/gcloud': '~/.config/gcloud/credentials.db',
  '~/.config/gh': '~/.config/gh/hosts.yml',
  '~/.git-credentials': '~/.git-credentials',
  '~/.netrc': '~/.netrc',
  '~/.npmrc': '~/.npmrc',
  '~/.pypirc': '~/.pypirc',
  '~/.docker/config.json': '~/.docker/config.json',
  '~/.cargo/credentials': '~/.cargo/credentials',
};

/** The session on disk: its paths, the CLI options that describe it, and where the secrets are. */
interface Session {
  readonly nodes: Node[];
  readonly home: string;
  readonly worktree: string;
  readonly agentDirs: string[];
  /** --tyba-data-dir, when not the default ~/.tyba. */
  readonly dataDirOption?: string;
  readonly dataDir: string;
  /** The secret locations made (expanded), where each really is (the location, or the dotfiles directory it links to), and the content file there. */
  readonly secrets: { readonly location: string; readonly real: string; readonly file: string }[];
}

function makeSession(r: Rand, top: string, program: string): Session {
  mkdirSync(top);
  const home = join(top, 'home');
  const nodes: Node[] = [{ kind: 'dir', path: top }];
  const dirs: string[] = [top];
  const at = (p: string): string => (p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p);
  const known = new Set<string>([top]);
  const dir = (p: string): void => {
    if (known.has(p)) return;
    dir(dirname(p));
    mkdirSync(p);
    known.add(p);
    nodes.push({ kind: 'dir', path: p });
    dirs.push(p);
  };
  const file = (p: string, isProgram = false): void => {
    dir(dirname(p));
    if (isProgram) copyFileSync(program, p, constants.COPYFILE_FICLONE);
    // Every file is executable by its mode, so that only the sandbox can refuse to run it.
    else writeFileSync(p, `content of ${p}\n`, { mode: 0o755 });
    known.add(p);
    nodes.push({ kind: 'file', path: p, program: isProgram });
  };
  const link = (p: string, target: string): void => {
    dir(dirname(p));
    symlinkSync(target, p);
    known.add(p);
    nodes.push({ kind: 'symlink', path: p, target });
  };
  dir(home);
  // Some of the secret locations, now and then one of them a link into a dotfiles directory.
  const made: Session['secrets'][number][] = [];
  for (const location of secrets.secrets) {
    if (!r.chance(0.55)) continue;
    const loc = at(location);
    const content = at(SECRET_FILES[location]!);
    if (content !== loc && r.chance(0.15)) {
      const real = join(home, 'dotfiles', location.slice(2).replaceAll('/', '_'));
      file(join(real, content.slice(loc.length + 1)));
      link(loc, real);
      made.push({ location: loc, file: join(real, content.slice(loc.length + 1)), real });
      continue;
    }
    file(content);
    made.push({ location: loc, file: content, real: loc });
  }
  // Neighbours of secrets that are not secrets.
  if (r.chance(0.5)) file(join(home, '.config', 'editor', 'settings.json'));
  if (r.chance(0.3)) file(join(home, '.ssh', 'known_hosts'));
  // The worktree: in the home (the usual case) or beside it.
  const worktree = r.chance(0.7) ? join(home, r.pick(['project', 'src/repo'])) : join(top, 'worktrees', 'w1');
  file(join(worktree, 'README.md'));
  file(join(worktree, '.env'));
  if (r.chance(0.5)) file(join(worktree, 'bin', 'tool'), true);
  // A random tree of other things in the home.
  const grow = (d: string, depth: number): void => {
    const subdirs = depth >= 2 ? 0 : r.int(3) + (depth === 0 ? 1 : 0);
    for (let i = 0; i < subdirs; i++) {
      const sub = join(d, `d${i}`);
      dir(sub);
      grow(sub, depth + 1);
    }
    for (let i = 0, n = r.int(3); i < n; i++) file(join(d, `f${i}`));
    if (r.chance(0.2)) file(join(d, 'prog'), true);
  };
  grow(home, 0);
  if (r.chance(0.4)) grow(join(worktree, 'src'), 1);
  // The agent's own directories: none, one in the home, one beside it.
  const agentDirs: string[] = [];
  if (r.chance(0.6)) agentDirs.push(join(home, '.claude'));
  if (r.chance(0.3)) agentDirs.push(join(top, 'agent-state'));
  for (const a of agentDirs) file(join(a, 'state.json'));
  // TYBA's data directory: the default, or elsewhere; it holds the session database.
  const dataDirOption = r.chance(0.3) ? join(top, r.pick(['tyba-data', 'home/.local/share/tyba'])) : undefined;
  const dataDir = dataDirOption ?? join(home, '.tyba');
  file(join(dataDir, 'sessions.db'));
  // Links: into the tree, at the secrets and their files, out of it.
  const real = nodes.filter((n) => n.kind === 'dir' || n.kind === 'file').map((n) => n.path);
  const targets = (): string => {
    const x = r();
    if (x < 0.35 && made.length) return r.pick(made).file;
    if (x < 0.45 && made.length) return r.pick(made).real;
    if (x < 0.55) return join(dataDir, 'sessions.db');
    if (x < 0.9) return r.pick(real);
    return join(top, 'nowhere');
  };
  const linkDirs = dirs.filter((d) => !made.some((s) => [s.location, s.real].some((at) => d === at || d.startsWith(at + '/'))));
  for (let i = 0, n = 1 + r.int(4); i < n; i++) link(join(r.pick(linkDirs), `l${i}`), targets());
  if (r.chance(0.5)) link(join(worktree, 'leak'), targets());
  for (let i = 0; i < 2; i++) nodes.push({ kind: 'absent', path: join(r.pick(linkDirs), `gone${i}`) });
  // Now and then an agent directory that holds secret locations: the implicit grants are exempt from the
  // path rules, so Linux gives the agent those secrets read-write, and the model must say so.
  if (r.chance(0.08)) {
    agentDirs.push(join(home, '.config'));
    file(join(home, '.config', 'agent.json'));
  }
  // Now and then host-trusted paths (drawn last, so the sessions before stay what they were): the
  // worktree a linked worktree of a repository in the home, as `git worktree add` makes one (its
  // .git file read-only; of the repository's git directory what commits need writable, its config
  // and hooks not), or a .git directory of its own (read-only as a whole); shell start-up files and
  // an editor's task config.
  const text = (p: string, content: string): void => {
    dir(dirname(p));
    // Executable by its mode too, like every file here: only the sandbox may refuse to run it.
    writeFileSync(p, content, { mode: 0o755 });
    known.add(p);
    nodes.push({ kind: 'file', path: p, program: false });
  };
  if (r.chance(0.35)) {
    const common = join(home, 'repo', '.git');
    const gitdir = join(common, 'worktrees', 'w');
    for (const f of ['HEAD', 'config', 'hooks/pre-commit', 'objects/ab/cdef', 'refs/heads/main']) file(join(common, f));
    if (r.chance(0.7)) file(join(common, 'refs', 'heads', 'tyba', 'session'));
    if (r.chance(0.5)) file(join(common, 'logs', 'refs', 'heads', 'tyba', 'session'));
    file(join(gitdir, 'HEAD'));
    file(join(gitdir, 'index'));
    text(join(gitdir, 'commondir'), '../..\n');
    text(join(gitdir, 'gitdir'), `${worktree}/.git\n`);
    text(join(worktree, '.git'), `gitdir: ${gitdir}\n`);
  } else if (r.chance(0.3)) {
    file(join(worktree, '.git', 'config'));
    file(join(worktree, '.git', 'hooks', 'pre-commit'));
  }
  if (r.chance(0.3)) file(join(home, '.bashrc'));
  if (r.chance(0.25)) file(join(worktree, '.vscode', 'tasks.json'));
  return { nodes, home, worktree, agentDirs, ...(dataDirOption ? { dataDirOption } : {}), dataDir, secrets: made };
}

/** A path as a config would write it: under the home mostly with `~`, sometimes absolute. */
function spelled(r: Rand, s: Session, p: string): string {
  if (p === s.home) return r.chance(0.8) ? '~' : p;
  return p.startsWith(s.home + '/') && r.chance(0.7) ? '~/' + p.slice(s.home.length + 1) : p;
}

/** read_allow entries: mostly directories and files of the home, with the dangerous ones drawn on purpose. */
function makeReadAllow(r: Rand, s: Session): string[] {
  const of = (kinds: readonly Node['kind'][]): string[] => s.nodes.filter((n) => kinds.includes(n.kind)).map((n) => n.path);
  const dirs = of(['dir']);
  const files = of(['file']);
  const out: string[] = [];
  for (let i = 0, n = r.int(entries + 1); i < n; i++) {
    const x = r();
    let p: string;
    if (x < 0.1) p = s.home;
    else if (x < 0.2 && s.secrets.length) p = r.chance(0.5) ? r.pick(s.secrets).location : r.pick(s.secrets).file;
    else if (x < 0.25) p = join(s.home, r.pick(['.config', '.docker', '.cargo', '.local']));
    else if (x < 0.3) p = r.chance(0.5) ? s.dataDir : join(s.dataDir, 'sessions.db');
    else if (x < 0.4) p = r.pick(dirs.filter((d) => d === s.worktree || d.startsWith(s.worktree + '/')));
    else if (x < 0.5)
      p = r.pick(s.nodes).path; // a link, a missing name, anything
    else if (x < 0.8) p = r.pick(dirs);
    else p = r.pick(files);
    out.push(spelled(r, s, p));
  }
  return out;
}

/** Outside /tmp, and spelled without links (grants must be canonical): the repository's ignored tmp/, or /var/tmp for a checkout under /tmp. */
function scratchDir(): string {
  mkdirSync(join(repoRoot, 'tmp'), { recursive: true });
  const inRepo = realpathSync(join(repoRoot, 'tmp'));
  return inRepo.startsWith('/tmp/') ? realpathSync('/var/tmp') : inRepo;
}
const root = mkdtempSync(join(scratchDir(), 'tyba-fuzz-'));
/** The host's /tmp (not the test runner's private TMPDIR below it: the session's /tmp is the whole of it). */
const underTmp = mkdtempSync(join(realpathSync('/tmp'), 'boxwright-tyba-fuzz-'));
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(underTmp, { recursive: true, force: true });
});

interface Mismatch {
  seed: number;
  path: string;
  why: string;
  seen: string;
}

describe('the model against the kernel for TYBA sessions: every path of a generated home, secrets included, probed under real bubblewrap', {
  skip,
  timeout: 600_000,
}, () => {
  it(`${runs} sessions from seed ${firstSeed}: the kernel gives each path what the model's Linux cell says, and no secret more`, async () => {
    assert.ok(!root.startsWith('/tmp/') && underTmp.startsWith('/tmp/'), `${root} outside /tmp, ${underTmp} under it`);
    const { probe, program } = buildProbe(root);
    const mismatches: Mismatch[] = [];
    const configs: string[] = [];
    let accepted = 0;
    let probed = 0;
    let granted = 0;
    let secretsRead = 0;
    /** Accepted sessions where secret-not-grantable warns that Linux exposes a listed secret. */
    let exposing = 0;
    for (let i = 0; i < runs; i++) {
      const seed = firstSeed + i;
      const top = join(seed % 2 === 0 ? underTmp : root, `s${seed}`);
      try {
        const r = rand(seed);
        const s = makeSession(r, top, program);
        const readAllow = makeReadAllow(r, s);
        const text = `[sandbox]\nread_allow = ${JSON.stringify(readAllow)}\n`;
        const args: ConfigArgs = {
          fs: 'host',
          home: s.home,
          worktree: s.worktree,
          ...(s.agentDirs.length ? { 'agent-dir': s.agentDirs } : {}),
          ...(s.dataDirOption ? { 'tyba-data-dir': s.dataDirOption } : {}),
        };
        const options = `--home ${s.home} --worktree ${s.worktree}${s.agentDirs.map((a) => ` --agent-dir ${a}`).join('')}${s.dataDirOption ? ` --tyba-data-dir ${s.dataDirOption}` : ''}`;
        configs[seed] = `# ${options}\n${text}`;
        const check = configReader(args).check(Buffer.from(text), `seed-${seed}.toml`);
        assert.equal(check.dialect, 'tyba', `seed ${seed}: the config is read as TYBA`);
        if (!check.model || check.verdicts.linux === 'refused') continue;
        const outcome = await compileConfig(check, 'linux', {});
        assert.ok(outcome.ok, `seed ${seed}: Linux accepts it, but it does not compile`);
        accepted++;
        const [pa] = check.model.principals;
        assert.ok(pa && pa.principal.id === 'agent', `seed ${seed}: a TYBA session has one principal, the agent`);
        const nodes: Node[] = [...s.nodes, { kind: 'dir', path: '/tmp' }];
        const ran = probeInSandbox(
          outcome.artifacts,
          'agent',
          arch!,
          probe,
          top,
          nodes.map((n) => n.path),
        );
        if ('failure' in ran) {
          mismatches.push({ seed, path: '-', why: ran.failure, seen: '' });
          continue;
        }
        probed += nodes.length;
        const compared = compareWithModel(pa, nodes, ran.lines);
        granted += compared.granted;
        for (const d of compared.disagreements) {
          const secret = s.secrets.find((x) => [x.location, x.real].some((at) => d.path === at || d.path.startsWith(at + '/')));
          mismatches.push({ seed, ...d, why: (secret ? `SECRET ${secret.location}: ` : '') + d.why });
        }
        for (const x of s.secrets) {
          const k = nodes.findIndex((n) => n.path === x.file);
          if (k >= 0 && /\bread=[1-9]/.test(ran.lines[k]!)) secretsRead++;
        }
        if (check.diagnostics.some((d) => d.ruleId === 'secret-not-grantable' && d.platforms.includes('linux'))) exposing++;
      } finally {
        // Each session's home (its programs are copies) goes when it is checked.
        rmSync(top, { recursive: true, force: true });
      }
    }
    const report = mismatches.map((m) => `seed ${m.seed} ${m.path}: ${m.why} [${m.seen}]`);
    const failing = [...new Set(mismatches.map((m) => m.seed))];
    for (const f of failing) report.push(`--- seed ${f} (BOXWRIGHT_FUZZ_SEED=${f} BOXWRIGHT_FUZZ_RUNS=1):\n${configs[f]}`);
    process.stderr.write(
      `model-vs-kernel-tyba: ${runs} sessions, ${accepted} accepted on Linux, ${probed} paths probed (${granted} with a cell other than absent; ${secretsRead} secret files read, each where the model grants it; ${exposing} sessions warned of an exposed secret)\n`,
    );
    if (report.length) process.stderr.write(report.join('\n') + '\n');
    assert.equal(
      mismatches.length,
      0,
      `${mismatches.length} mismatches in ${failing.length} sessions (seeds ${failing.join(' ')}), listed above`,
    );
    // The generator must keep producing sessions Linux accepts, or the test checks nothing.
    assert.ok(accepted >= runs / 3, `only ${accepted} of ${runs} sessions were accepted on Linux`);
    assert.ok(granted >= accepted, `only ${granted} probed paths had any access`);
  });
});
