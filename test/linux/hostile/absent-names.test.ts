// Issue 35, item 5: host-trusted names that do not exist yet. A mount needs
// an existing target, so Linux cannot make a `.git` that is not there
// read-only: the workload ran `git init` and `git config core.fsmonitor`
// in a write tree without one (or a directory below it), or wrote
// `~/.bashrc` under `write = ["~"]`, or `~/.config/git/config` under
// `write = ["~/.config"]`, and the host's next `git status` or shell ran it. The launcher now lists each write tree after the run and
// moves aside a host-trusted name the command made (exit 123); before the
// run, one the compile did not know of (a `git init` after `compile --out`)
// is refused (exit 125). Each control runs the same attack on the compiled
// artifacts under bare bubblewrap, without the launcher, and gets out.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { QUARANTINED } from '../../../app/cli/run-common.js';
import { requireOrSkip } from '../../helpers.js';
import { launch } from '../launcher-support.js';
import { boxwright, onPath } from '../support.js';
import { bare, compiled, hostGit, isRoot, makeLab, sandboxed, skip as skipLab, type Lab } from './support.js';

const git = onPath('git');
const bash = onPath('bash');
const skip = skipLab ?? requireOrSkip(!!git, 'git') ?? requireOrSkip(!!bash, 'bash');

/** What was moved aside in dir: `NAME.boxwright-quarantine-HEX` entries. */
const quarantined = (dir: string, name: string): string[] =>
  readdirSync(dir).filter((e) => new RegExp(`^${name.replace('.', '\\.')}\\.boxwright-quarantine-[0-9a-f]{16}$`).test(e));

describe('hostile workload: host-trusted names that do not exist yet (issue 35, item 5)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let proj = '';
  let deep = '';
  let config = '';
  let mark = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('absent');
    proj = join(lab.home, 'proj');
    deep = join(proj, 'a', 'b');
    mkdirSync(proj);
    writeFileSync(join(proj, 'README'), 'hello\n');
    mark = join(lab.home, 'PWNED');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/proj"]')}write = ["~/proj"]\nworkspace = "~/proj"\n`,
    );
  });
  after(() => lab?.cleanup());

  // A repository at the write tree's root and one two levels below it, each with a fsmonitor command.
  const attack = (): string =>
    [
      `cd ${proj} && git init -q && git config core.fsmonitor "touch ${mark}-root"; echo "root=$?"`,
      `mkdir -p ${deep} && git -C ${deep} init -q && git -C ${deep} config core.fsmonitor "touch ${mark}-deep"; echo "deep=$?"`,
      `echo changed > ${proj}/README; echo "tree=$?"`,
    ].join('\n');
  const hostStatus = (nobody = false): void => {
    for (const dir of [proj, deep]) if (existsSync(dir)) hostGit(dir, ['status'], nobody);
  };

  for (const nobody of isRoot ? [false, true] : [false]) {
    const who = nobody ? 'as an unprivileged user' : isRoot ? 'as root' : 'as this user';
    it(`${who}: the command creates .git at the root and two levels down: both moved aside, exit 123, the host's git status runs nothing`, async () => {
      if (nobody) lab.giveToNobody();
      const r = await sandboxed(lab, config, ['sh', '-c', attack()], [], { nobody });
      assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
      assert.match(r.stdout, /root=0\ndeep=0\ntree=0/, 'the workload made both repositories: the sandbox let it');
      for (const dir of [proj, deep]) {
        assert.ok(!existsSync(join(dir, '.git')), `${dir}/.git is gone`);
        const aside = quarantined(dir, '.git');
        assert.equal(aside.length, 1, `${dir}: ${readdirSync(dir).join(' ')}`);
        assert.match(
          r.stderr,
          new RegExp(
            `gained ${join(dir, '.git')} \\(a directory\\) while it ran.*, a host-trusted name.*Moved aside to ${join(dir, aside[0]!)}`,
          ),
        );
        // Moved with its content: the user can look at what the command made.
        assert.match(readFileSync(join(dir, aside[0]!, 'config'), 'utf8'), /fsmonitor/);
      }
      assert.match(
        r.stderr,
        /the command ran \(its status 0\), and left in its write trees what the host runs or trusts after the run \(said above\): exit 123/,
      );
      hostStatus(nobody);
      assert.ok(!existsSync(`${mark}-root`) && !existsSync(`${mark}-deep`), 'no planted fsmonitor ran on the host');
      assert.equal(readFileSync(join(proj, 'README'), 'utf8'), 'changed\n', 'the rest of the write tree is the command’s to write');
    });
  }

  it('a directory whose listing takes several getdents64 calls, walked into between them: every .git in it and below it moved aside', async () => {
    // 3,000 names of 41 bytes are about 150 KB of directory entries, five of the walk's 32 KB buffers: the listing of
    // proj resumes after each subdirectory the walk went down into, and the .git in the last ones come in later calls.
    const picked = [1, 750, 1500, 2250, 3000];
    const name = (i: number): string => `d${String(i).padStart(39, '0')}`;
    const script = [
      `cd ${proj} && mkdir $(seq -f 'd%039g' 1 3000) && touch .envrc`,
      `for i in ${picked.join(' ')}; do mkdir "$(printf 'd%039d' $i)/.git" || exit 9; done`,
      'echo made=$(ls -A | wc -l)',
    ].join('\n');
    const r = await sandboxed(lab, config, ['sh', '-c', script]);
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /made=3002/, 'the workload made the 3,000 directories (beside README and .envrc)');
    for (const i of picked) {
      const dir = join(proj, name(i));
      assert.ok(!existsSync(join(dir, '.git')), `${dir}/.git is gone`);
      assert.equal(quarantined(dir, '.git').length, 1, `${dir}: ${readdirSync(dir).join(' ')}`);
    }
    assert.equal(quarantined(proj, '.envrc').length, 1, 'the .envrc at the root, among the 3,000 names');
    assert.equal(r.stderr.match(/ while it ran/g)?.length, picked.length + 1, r.stderr);
  });

  // boxwright's own project file: an ignore there silences the next lint's warnings about this very config, and its
  // `platforms` narrows what the pre-commit hook and the Action check. The workload makes one in its write tree.
  const planted = (dir: string): string =>
    `printf '[[ignore]]\\nrule = "host-trusted-path"\\npath = "*.toml"\\nreason = "x"\\n' > ${dir}/.boxwright.toml; echo made=$?`;
  const lintsProj = async (): Promise<string> => {
    writeFileSync(join(proj, 'agent.toml'), '[agent.filesystem]\nread = ["~/proj"]\nwrite = ["~/proj"]\n');
    const r = await boxwright(['lint', '--fs', 'host', '--home', lab.home, join(proj, 'agent.toml')]);
    return r.stdout;
  };
  it('the command writes a .boxwright.toml that ignores its own warnings: moved aside, exit 123, and the next lint says what it said', async () => {
    const before = await lintsProj();
    assert.match(before, /host-trusted-path/, 'the finding the plant would silence');
    const r = await sandboxed(lab, config, ['sh', '-c', planted(proj)]);
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /made=0/, 'the sandbox let the workload write it');
    assert.ok(!existsSync(join(proj, '.boxwright.toml')));
    assert.equal(quarantined(proj, '.boxwright.toml').length, 1);
    assert.equal(await lintsProj(), before);
  });

  it('control: under bare bubblewrap the .boxwright.toml stays, and the next lint no longer names the finding', async () => {
    const c = await compiled(lab, config);
    const r = await bare(c, ['sh', '-c', planted(proj)]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.ok(existsSync(join(proj, '.boxwright.toml')));
    assert.doesNotMatch(await lintsProj(), /info {2}host-trusted-path/);
  });

  it("control: the same attack under the compiled artifacts and bare bubblewrap leaves both .git in place, and the host's git status runs them", async () => {
    const c = await compiled(lab, config);
    const r = await bare(c, ['sh', '-c', attack()]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /root=0\ndeep=0/);
    assert.ok(existsSync(join(proj, '.git', 'config')) && existsSync(join(deep, '.git', 'config')));
    hostStatus();
    assert.ok(existsSync(`${mark}-root`), 'the host ran the fsmonitor at the root');
    assert.ok(existsSync(`${mark}-deep`), 'the host ran the fsmonitor two levels down');
  });

  it('as an unprivileged user, the command hides what it made: .git in a directory it made unreadable (000), another in one it made unwritable (555): both moved aside, the modes put back', async () => {
    // Root reads and renames whatever the modes say: the evasion needs an unprivileged user (uid 65534 when root runs the tests).
    const nobody = isRoot;
    if (nobody) lab.giveToNobody();
    const hidden = join(proj, 'hidden');
    const fixed = join(proj, 'fixed');
    const cmd = [
      `for d in ${hidden} ${fixed}; do mkdir -p $d && git -C $d init -q && git -C $d config core.fsmonitor "touch ${mark}-$(basename $d)"; echo "made=$?"; done`,
      `chmod 000 ${hidden}; chmod 555 ${fixed}; echo "hid=$?"`,
    ].join('\n');
    const r = await sandboxed(lab, config, ['sh', '-c', cmd], [], { nobody });
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /made=0\nmade=0\nhid=0/);
    assert.doesNotMatch(r.stderr, /could not be listed|could not be moved aside/);
    for (const [dir, mode] of [
      [hidden, 0o000],
      [fixed, 0o555],
    ] as const) {
      assert.equal(statSync(dir).mode & 0o7777, mode, `${dir}: its mode put back`);
      assert.ok(!existsSync(join(dir, '.git')), `${dir}/.git is gone`);
      assert.equal(quarantined(dir, '.git').length, 1, readdirSync(dir).join(' '));
      chmodSync(dir, 0o755);
      hostGit(dir, ['status'], nobody);
    }
    assert.ok(!existsSync(`${mark}-hidden`) && !existsSync(`${mark}-fixed`), 'no planted fsmonitor ran on the host');
  });

  it('a .git deeper than the check lists (600 levels): never passed in silence: said, exit 123; the next launch refuses until it is gone', async () => {
    const chain = join(proj, ...Array.from({ length: 600 }, () => 'd'));
    const r = await sandboxed(lab, config, ['sh', '-c', `mkdir -p ${chain} && git -C ${chain} init -q; echo "deep=$?"`]);
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /deep=0/);
    assert.match(
      r.stderr,
      /after the run, \S+\/d could not be listed \(deeper than the check goes\): a host-trusted name the command created there was not looked for/,
    );
    const next = await sandboxed(lab, config, ['true']);
    assert.equal(next.status, 125, next.stdout + next.stderr);
    assert.match(next.stderr, /cannot list \S+ \(deeper than the check goes\), in a write tree/);
  });

  it('a name the config lifts (write = ["~/proj", "~/proj/.vscode"]) is the command’s: neither refused before nor moved after', async () => {
    // A grant names an existing path: the host's editor folder, which the config gives the command to write.
    mkdirSync(join(proj, '.vscode'));
    const lifted = lab.config(
      'lifted.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/proj"]')}write = ["~/proj", "~/proj/.vscode"]\nworkspace = "~/proj"\n`,
    );
    const r = await sandboxed(lab, lifted, ['sh', '-c', `echo '{}' > ${proj}/.vscode/tasks.json; echo "tasks=$?"`]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /tasks=0/);
    assert.equal(readFileSync(join(proj, '.vscode', 'tasks.json'), 'utf8'), '{}\n', 'it stays where it is, as the command wrote it');
    assert.deepEqual(quarantined(proj, '.vscode'), []);
    assert.doesNotMatch(r.stderr, /Moved aside/);
  });

  it('a .git made as a link to a directory elsewhere: the link is moved aside, never followed; its target is untouched', async () => {
    const elsewhere = join(lab.home, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'config'), '[core]\n\tbare = false\n');
    const r = await sandboxed(lab, config, ['sh', '-c', `ln -s ${elsewhere} ${proj}/.git; echo "link=$?"`]);
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /link=0/);
    const aside = quarantined(proj, '.git');
    assert.equal(aside.length, 1);
    assert.match(r.stderr, /gained \S+\/proj\/\.git \(a symbolic link\) while it ran/);
    assert.ok(lstatSync(join(proj, aside[0]!)).isSymbolicLink(), 'the link itself was moved');
    assert.equal(readlinkSync(join(proj, aside[0]!)), elsewhere);
    assert.deepEqual(readdirSync(elsewhere), ['config'], 'the target is where it was, as it was');
    assert.equal(readFileSync(join(elsewhere, 'config'), 'utf8'), '[core]\n\tbare = false\n');
    assert.deepEqual(
      readdirSync(lab.home).filter((e) => e.includes('quarantine')),
      [],
      'nothing moved in the directory the link names',
    );
  });

  describe('a stale DIR/agent.run: the user makes a repository in the write tree after compile --out', () => {
    let out = '';
    beforeEach(async () => {
      out = mkdtempSync(join(tmpdir(), 'boxwright-absent-out-'));
      const r = await boxwright(['compile', config, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out]);
      assert.equal(r.status, 0, r.stderr);
    });
    afterEach(() => rmSync(out, { recursive: true, force: true }));

    it('refused (125), naming it and saying to recompile; the recompiled launcher runs with it read-only', async () => {
      assert.equal(hostGit(proj, ['init', '-q']).status, 0);
      const r = await launch(join(out, 'agent.run'), ['sh', '-c', `touch ${mark}-ran`]);
      assert.equal(r.status, 125, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `agent\\.run: ${join(proj, '.git')} exists, a host-trusted name \\(the host runs or trusts it after the run\\) that this sandbox was compiled without: the command could write it; the command did not run\\. Recompile: boxwright compile`,
        ),
      );
      assert.ok(!existsSync(`${mark}-ran`), 'the command did not run');
      const again = await boxwright(['compile', config, '--home', lab.home, '--fs', 'host', '--target', 'linux', '--out', out]);
      assert.equal(again.status, 0, again.stderr);
      const ok = await launch(join(out, 'agent.run'), [
        'sh',
        '-c',
        `cd ${proj} && git config core.fsmonitor "touch ${mark}"; echo "config=$?"`,
      ]);
      assert.equal(ok.status, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /config=[1-9]/, 'the recompiled sandbox binds the new .git read-only');
    });

    it('control: the stale artifacts under bare bubblewrap let the workload write the new .git/config, and the host runs it', async () => {
      const stale = await compiled(lab, config);
      assert.equal(hostGit(proj, ['init', '-q']).status, 0);
      const r = await bare(stale, ['sh', '-c', `cd ${proj} && git config core.fsmonitor "touch ${mark}"; echo "config=$?"`]);
      assert.match(r.stdout, /config=0/, r.stdout + r.stderr);
      hostGit(proj, ['status']);
      assert.ok(existsSync(mark), 'the host ran the fsmonitor the stale sandbox let the workload write');
    });
  });
});

describe('hostile workload: ~/.bashrc that does not exist, under write = ["~"] (issue 35, item 5)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let config = '';
  let mark = '';
  let rc = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('absent-home');
    mark = join(lab.home, 'PWNED-bash');
    rc = join(lab.home, '.bashrc');
    config = lab.config('c.toml', `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~"]')}write = ["~"]\n`);
  });
  after(() => lab?.cleanup());

  const attack = (): string => `echo "touch ${mark}" > ${rc}; echo "rc=$?"`;
  /** The host's next interactive shell, as it sources ~/.bashrc. */
  const hostShell = (): void => void spawnSync(bash!, ['-c', '. ~/.bashrc'], { env: { PATH: process.env.PATH, HOME: lab.home } });

  it('the command writes ~/.bashrc: moved aside, exit 123, the host shell runs nothing', async () => {
    assert.ok(!existsSync(rc));
    const r = await sandboxed(lab, config, ['sh', '-c', attack()]);
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /rc=0/);
    assert.ok(!existsSync(rc));
    assert.equal(quarantined(lab.home, '.bashrc').length, 1);
    assert.match(r.stderr, /gained \S+\/\.bashrc \(a file\) while it ran.*, a host-trusted name/);
    hostShell();
    assert.ok(!existsSync(mark), "the host's shell ran nothing planted");
  });

  it("control: under bare bubblewrap ~/.bashrc stays, and the host's shell runs it", async () => {
    const c = await compiled(lab, config);
    const r = await bare(c, ['sh', '-c', attack()]);
    assert.match(r.stdout, /rc=0/, r.stdout + r.stderr);
    hostShell();
    assert.ok(existsSync(mark), 'the host shell sourced the planted ~/.bashrc');
  });
});

describe('hostile workload: ~/.config/git/config that does not exist, under write = ["~/.config"] (issue 35, item 5)', {
  skip,
  concurrency: 1,
}, () => {
  let lab: Lab;
  let config = '';
  let mark = '';
  let repo = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('absent-xdg');
    mkdirSync(join(lab.home, '.config'));
    repo = join(lab.home, 'repo');
    mkdirSync(repo);
    assert.equal(hostGit(repo, ['init', '-q']).status, 0);
    mark = join(lab.home, 'PWNED-xdg');
    config = lab.config(
      'c.toml',
      `[agent.filesystem]\n${lab.base.replace('read = ["/usr"]', 'read = ["/usr", "~/.config"]')}write = ["~/.config"]\n`,
    );
  });
  after(() => lab?.cleanup());

  const gitConfig = (): string => join(lab.home, '.config', 'git', 'config');
  const attack = (): string =>
    `mkdir -p ${join(lab.home, '.config', 'git')} && printf '[core]\\n\\tfsmonitor = touch ${mark}\\n' > ${gitConfig()}; echo "made=$?"`;
  /** git status in any repository of the host, reading the user's XDG git config as git does. */
  const hostStatus = (): void =>
    void spawnSync(git!, ['status'], { cwd: repo, env: { PATH: process.env.PATH, HOME: lab.home, GIT_CONFIG_NOSYSTEM: '1' } });

  it("the command creates ~/.config/git/config: ~/.config/git moved aside, exit 123, the host's git status in any repository runs nothing", async () => {
    const r = await sandboxed(lab, config, ['sh', '-c', attack()]);
    assert.equal(r.status, QUARANTINED, r.stdout + r.stderr);
    assert.match(r.stdout, /made=0/);
    assert.ok(!existsSync(gitConfig()));
    assert.equal(quarantined(join(lab.home, '.config'), 'git').length, 1);
    hostStatus();
    assert.ok(!existsSync(mark), "the host's git ran nothing planted");
  });

  it("control: under bare bubblewrap ~/.config/git/config stays, and the host's git status runs its fsmonitor", async () => {
    const c = await compiled(lab, config);
    const r = await bare(c, ['sh', '-c', attack()]);
    assert.match(r.stdout, /made=0/, r.stdout + r.stderr);
    hostStatus();
    assert.ok(existsSync(mark), "the host's git ran the planted fsmonitor");
  });
});
