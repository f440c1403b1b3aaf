// Issue 35, attacks 3 and 4: files the host runs that lived next to the
// ones already protected, and hooks that live outside `.git`. Each case
// runs the workload's write under `boxwright run` (it must fail: the path
// is host-trusted, bound read-only over itself), then the host action that
// would run what it wrote (the planted mark must not appear). Each control
// runs the same write under the compiled artifacts minus the read-only
// bind of that path, and the host action must run the workload's code.
//
// The tools these cases need are Debian's (bash, python3, git, pre-commit,
// tmux: .ci/run installs them); the classes whose tools are not installed
// here are held to read-only in the last describe.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { requireOrSkip } from '../../helpers.js';
import { onPath } from '../support.js';
import { bare, compiled, makeLab, sandboxed, skip as skipLab, withoutOptions, type Lab } from './support.js';

const git = onPath('git');
const tmux = onPath('tmux');
const preCommit = onPath('pre-commit');
const python3 = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : undefined;
const skip =
  skipLab ??
  requireOrSkip(!!git, 'git') ??
  requireOrSkip(!!tmux, 'tmux') ??
  requireOrSkip(!!preCommit, 'pre-commit') ??
  requireOrSkip(!!python3, '/usr/bin/python3');

/** A host program run as the user of the lab's home: HOME is the lab, git reads the lab's ~/.gitconfig and nothing of the system. */
function host(cwd: string, home: string, cmd: readonly string[]): { status: number | null; out: string } {
  const r = spawnSync(cmd[0]!, cmd.slice(1), {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', XDG_CONFIG_HOME: join(home, '.config'), TERM: 'dumb' },
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const gitIn = (repo: string, home: string, ...args: string[]) =>
  host(repo, home, [git!, '-c', 'user.name=host', '-c', 'user.email=host@example.invalid', ...args]);

function makeRepo(repo: string, home: string): void {
  mkdirSync(repo, { recursive: true });
  assert.equal(gitIn(repo, home, 'init', '-q').status, 0);
  writeFileSync(join(repo, 'README'), 'hello\n');
  assert.equal(gitIn(repo, home, 'add', 'README').status, 0);
  assert.equal(gitIn(repo, home, 'commit', '-qm', 'first').status, 0);
}

function pythonVersion(): string {
  return spawnSync(python3!, ['-c', 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")'], {
    encoding: 'utf8',
  }).stdout.trim();
}

interface Case {
  readonly name: string;
  /** The write grants (`~/…`). */
  readonly write: readonly string[];
  /** Makes the host's files (home, mark). */
  readonly setup: (home: string, mark: string) => void;
  /** The host-trusted paths whose read-only binds the control drops. */
  readonly trusted: (home: string) => readonly string[];
  /** The workload: a shell script that writes what the host runs; it prints `wrote=0` when the write went through. */
  readonly attack: (home: string, mark: string) => string;
  /** What the host does next, which runs what was written. */
  readonly hostAction: (home: string) => void;
}

const cases: readonly Case[] = [
  {
    name: '~/.cargo/env, which rustup makes every login shell source',
    write: ['~/.cargo'],
    setup: (h) => {
      mkdirSync(join(h, '.cargo', 'bin'), { recursive: true });
      writeFileSync(join(h, '.cargo', 'env'), 'export PATH="$HOME/.cargo/bin:$PATH"\n');
    },
    trusted: (h) => [join(h, '.cargo', 'env')],
    attack: (h, m) => `echo 'touch ${m}' >> ${h}/.cargo/env; echo "wrote=$?"`,
    hostAction: (h) => void host(h, h, ['sh', '-c', '. "$HOME/.cargo/env"']),
  },
  {
    name: 'a .pth file in the user site-packages, which every python3 runs',
    write: ['~/.local'],
    setup: (h) => mkdirSync(join(h, '.local', 'lib', pythonVersion(), 'site-packages'), { recursive: true }),
    trusted: (h) => [join(h, '.local', 'lib')],
    attack: (h, m) =>
      `printf 'import os; os.system("touch ${m}")\\n' > ${h}/.local/lib/${pythonVersion()}/site-packages/evil.pth; echo "wrote=$?"`,
    hostAction: (h) => void host(h, h, [python3!, '-c', '0']),
  },
  {
    name: '~/.pyenv/versions/*/bin/python3, which the protected shim executes',
    write: ['~'],
    setup: (h) => {
      const bin = join(h, '.pyenv', 'versions', '3.12.0', 'bin');
      mkdirSync(bin, { recursive: true });
      mkdirSync(join(h, '.pyenv', 'shims'), { recursive: true });
      writeFileSync(join(bin, 'python3'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      writeFileSync(join(h, '.pyenv', 'shims', 'python3'), `#!/bin/sh\nexec ${join(bin, 'python3')} "$@"\n`, { mode: 0o755 });
    },
    trusted: (h) => [join(h, '.pyenv')],
    attack: (h, m) => `printf '#!/bin/sh\\ntouch ${m}\\n' > ${h}/.pyenv/versions/3.12.0/bin/python3; echo "wrote=$?"`,
    hostAction: (h) => void host(h, h, [join(h, '.pyenv', 'shims', 'python3')]),
  },
  {
    name: 'the target of ~/.bashrc -> ~/dotfiles/bashrc',
    write: ['~/dotfiles'],
    setup: (h) => {
      mkdirSync(join(h, 'dotfiles'));
      writeFileSync(join(h, 'dotfiles', 'bashrc'), 'alias ll="ls -l"\n');
      symlinkSync(join(h, 'dotfiles', 'bashrc'), join(h, '.bashrc'));
    },
    trusted: (h) => [join(h, 'dotfiles', 'bashrc')],
    attack: (h, m) => `echo 'touch ${m}' >> ${h}/dotfiles/bashrc; echo "wrote=$?"`,
    hostAction: (h) => void host(h, h, ['bash', '-c', '. "$HOME/.bashrc"']),
  },
  {
    name: '~/.config/tmux/tmux.conf (run-shell), in the XDG configuration home',
    write: ['~'],
    setup: (h) => {
      mkdirSync(join(h, '.config', 'tmux'), { recursive: true });
      writeFileSync(join(h, '.config', 'tmux', 'tmux.conf'), 'set -g status off\n');
    },
    trusted: (h) => [join(h, '.config')],
    attack: (h, m) => `echo 'run-shell "touch ${m}"' >> ${h}/.config/tmux/tmux.conf; echo "wrote=$?"`,
    hostAction: (h) => {
      const sock = join(h, 'tmux.sock');
      host(h, h, [tmux!, '-S', sock, '-f', join(h, '.config', 'tmux', 'tmux.conf'), 'new-session', '-d', 'sleep 2']);
      host(h, h, [tmux!, '-S', sock, 'kill-server']);
    },
  },
  {
    name: 'core.hooksPath = .githooks: the hook git runs instead of .git/hooks',
    write: ['~/work'],
    setup: (h) => {
      const repo = join(h, 'work', 'repo');
      makeRepo(repo, h);
      mkdirSync(join(repo, '.githooks'));
      writeFileSync(join(repo, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      assert.equal(gitIn(repo, h, 'config', 'core.hooksPath', '.githooks').status, 0);
    },
    trusted: (h) => [join(h, 'work', 'repo', '.githooks')],
    attack: (h, m) => `printf '#!/bin/sh\\ntouch ${m}\\n' > ${h}/work/repo/.githooks/pre-commit; echo "wrote=$?"`,
    hostAction: (h) => {
      writeFileSync(join(h, 'work', 'repo', 'README'), 'changed by the host\n');
      gitIn(join(h, 'work', 'repo'), h, 'commit', '-qam', 'host');
    },
  },
  {
    name: '.pre-commit-config.yaml: the protected .git/hooks/pre-commit runs what it says',
    write: ['~/work'],
    setup: (h) => {
      const repo = join(h, 'work', 'repo');
      makeRepo(repo, h);
      writeFileSync(join(repo, '.pre-commit-config.yaml'), 'repos: []\n');
      assert.equal(gitIn(repo, h, 'add', '.pre-commit-config.yaml').status, 0);
      assert.equal(gitIn(repo, h, 'commit', '-qm', 'pre-commit').status, 0);
      const installed = host(repo, h, [preCommit!, 'install']);
      assert.equal(installed.status, 0, installed.out);
    },
    trusted: (h) => [join(h, 'work', 'repo', '.pre-commit-config.yaml')],
    attack: (h, m) =>
      `printf 'repos:\\n- repo: local\\n  hooks:\\n  - id: x\\n    name: x\\n    entry: touch ${m}\\n    language: system\\n    pass_filenames: false\\n    always_run: true\\n' > ${h}/work/repo/.pre-commit-config.yaml; echo "wrote=$?"`,
    hostAction: (h) => {
      writeFileSync(join(h, 'work', 'repo', 'README'), 'changed by the host\n');
      gitIn(join(h, 'work', 'repo'), h, 'commit', '-qam', 'host');
    },
  },
  {
    name: '[includeIf "gitdir:~/work/"] path = ~/work/.gitconfig, a file ~/.gitconfig includes',
    write: ['~/work'],
    setup: (h) => {
      makeRepo(join(h, 'work', 'repo'), h);
      writeFileSync(join(h, 'work', '.gitconfig'), '[user]\n\tname = work\n');
      writeFileSync(join(h, '.gitconfig'), '[includeIf "gitdir:~/work/"]\n\tpath = ~/work/.gitconfig\n');
    },
    trusted: (h) => [join(h, 'work', '.gitconfig')],
    attack: (h, m) => `printf '[core]\\n\\tfsmonitor = "touch ${m}"\\n' >> ${h}/work/.gitconfig; echo "wrote=$?"`,
    hostAction: (h) => {
      writeFileSync(join(h, 'work', 'repo', 'README'), 'changed by the host\n');
      gitIn(join(h, 'work', 'repo'), h, 'status');
    },
  },
];

const config = (lab: Lab, write: readonly string[]): string =>
  lab.config(
    'c.toml',
    `[agent.filesystem]\nread = ["/usr", "~"]\nexec = [${JSON.stringify(lab.probe)}, "/usr"]\nwrite = [${write.map((w) => JSON.stringify(w)).join(', ')}]\n`,
  );

describe('hostile workload: what the host runs beside what was protected (issue 35, attacks 3 and 4)', { skip, concurrency: 1 }, () => {
  let lab: Lab;
  let mark = '';
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('classes');
    mark = join(lab.home, 'PWNED');
  });
  after(() => lab?.cleanup());

  for (const c of cases) {
    it(`${c.name}: read-only inside the write grant; the host runs nothing planted`, async () => {
      c.setup(lab.home, mark);
      const r = await sandboxed(lab, config(lab, c.write), ['sh', '-c', c.attack(lab.home, mark)]);
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stdout, /wrote=0/, r.stdout + r.stderr);
      c.hostAction(lab.home);
      assert.ok(!existsSync(mark), 'the host ran nothing planted');
    });

    it(`control: ${c.name}: without its read-only bind, the host runs the workload's code`, async () => {
      c.setup(lab.home, mark);
      const compiledC = await compiled(lab, config(lab, c.write));
      const drop = c.trusted(lab.home);
      const argv = withoutOptions(compiledC.argv, (o, ops) => o === '--ro-bind' && drop.includes(ops[0]!) && ops[0] === ops[1]);
      assert.equal(compiledC.argv.length - argv.length, 3 * drop.length, `the artifact binds ${drop.join(', ')} read-only`);
      const r = await bare({ ...compiledC, argv }, ['sh', '-c', c.attack(lab.home, mark)]);
      assert.match(r.stdout, /wrote=0/, r.stdout + r.stderr);
      c.hostAction(lab.home);
      assert.ok(existsSync(mark), 'the host ran the planted code');
    });
  }
});

/** Host-trusted files of tools this machine does not run: each must be read-only inside a write grant of the home or the project. */
const untested: readonly string[] = [
  '~/work/proj/.devcontainer/devcontainer.json',
  '~/work/proj/lefthook.yml',
  '~/work/proj/.husky/pre-commit',
  '~/work/proj/mise.toml',
  '~/work/proj/.aider.conf.yml',
  '~/work/proj/opencode.json',
  '~/work/proj/.gemini/settings.json',
  '~/work/proj/.roo/mcp.json',
  '~/work/proj/.kiro/hooks/h.json',
  '~/work/proj/.continue/config.json',
  '~/work/proj/.zed/tasks.json',
  '~/work/proj/.agents/AGENTS.md',
  '~/.config/direnv/direnvrc',
  '~/.local/share/direnv/allow/x',
  '~/.config/nvim/init.lua',
  '~/.vim/plugin/p.vim',
  '~/.nvm/nvm.sh',
  '~/.rustup/toolchains/stable/bin/cargo',
  '~/.local/share/systemd/user/x.service',
  '~/.asdf/installs/x',
  '~/.rvm/scripts/rvm',
  '~/.local/share/mise/installs/x',
  '~/.claude/settings.json',
  '~/.claude.json',
];

describe('host-trusted classes whose tools are not installed here: read-only inside a write grant (issue 35, finding 4)', {
  skip: skipLab,
  concurrency: 1,
}, () => {
  let lab: Lab;
  beforeEach(() => {
    lab?.cleanup();
    lab = makeLab('classes-ro');
    for (const p of untested) {
      const abs = join(lab.home, p.slice(2));
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, 'original\n');
      chmodSync(abs, 0o644);
    }
  });
  after(() => lab?.cleanup());

  const script = (home: string): string =>
    untested.map((p) => `echo changed > ${join(home, p.slice(2))} && echo "wrote ${p}"`).join('\n') + '\necho done';

  it('each is read-only under a write grant of the home', async () => {
    const r = await sandboxed(lab, config(lab, ['~']), ['sh', '-c', script(lab.home)]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /done/);
    assert.doesNotMatch(r.stdout, /wrote /, r.stdout);
    for (const p of untested) assert.equal(readFileSync(join(lab.home, p.slice(2)), 'utf8'), 'original\n', p);
  });

  it('control: without the read-only binds of the home and project paths, each is written', async () => {
    const c = await compiled(lab, config(lab, ['~']));
    const home = lab.home;
    const argv = withoutOptions(c.argv, (o, ops) => o === '--ro-bind' && ops[0] === ops[1] && ops[0]!.startsWith(`${home}/`));
    const r = await bare({ ...c, argv }, ['sh', '-c', script(home)]);
    for (const p of untested)
      assert.match(r.stdout, new RegExp(`wrote ${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`), r.stdout + r.stderr);
  });
});
