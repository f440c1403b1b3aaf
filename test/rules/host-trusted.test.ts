// Host-trusted paths (compiler/paths/host-trusted.json): what the model
// makes of them on each platform, what lint says at the grant, what a lift
// costs, and how the artifacts spell it — against manifests, so that every
// case is a machine of its own. The Linux column is also proven in the
// kernel: test/linux/hostile/host-trusted.test.ts and the model-vs-kernel
// differential tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConfig, type CheckResult } from '../../app/check.js';
import { compileConfig } from '../../app/cli/compile.js';
import { accessDelta } from '../../app/views/delta.js';
import { explainMatrix } from '../../app/views/matrix.js';
import { manifestView, noneView, findHostTrusted, trustedByName, type FsView, type HostTrustedInput } from '../../compiler/paths/index.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { legend, type PrincipalAccess } from '../../model/index.js';
import { parseArgsFile } from '../../targets/linux/index.js';
import type { AclPlan } from '../../targets/windows/plan.js';

type Entry = 'file' | 'dir' | { symlink: string } | { text: string };

function machine(entries: Record<string, Entry>): FsView {
  return manifestView(JSON.stringify({ home: '/home/u', landlockAbi: 7, entries }), 'test machine');
}

/** A repository at ~/p: a .git directory with its config and hooks, a source file. */
const repo: Record<string, Entry> = {
  '/home/u/p/src/main.py': 'file',
  '/home/u/p/.git/HEAD': 'file',
  '/home/u/p/.git/config': 'file',
  '/home/u/p/.git/hooks': 'dir',
  '/home/u/p/.git/objects': 'dir',
  '/usr/bin/git': 'file',
};

function check(
  toml: string,
  entries: Record<string, Entry> = repo,
  options: { hostTrusted?: readonly HostTrustedInput[]; worktree?: string; view?: FsView } = {},
): CheckResult {
  const r = checkConfig(Buffer.from(toml), {
    file: 'c.toml',
    view: options.view ?? machine(entries),
    worktree: options.worktree ?? '/home/u/p',
    ...(options.hostTrusted ? { hostTrusted: options.hostTrusted } : {}),
  });
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join('\n'));
  return r;
}

const agent = (r: CheckResult, id = 'agent'): PrincipalAccess => r.model!.principals.find((p) => p.principal.id === id)!;
const cells = (pa: PrincipalAccess, path: string): string[] => PLATFORMS.map((p) => legend(pa.effectiveAt(path, p)));
const ofRule = (r: CheckResult, severity?: string) =>
  r.diagnostics.filter((d) => d.ruleId === 'host-trusted-path' && (!severity || d.severity === severity));

const boxRepo = '[agent.filesystem]\nread = ["~/p"]\nwrite = ["~/p"]\n';

describe('host-trusted paths: the model', () => {
  it('an existing .git inside a write tree is read-only on every platform, below it too; the rest of the tree stays writable', () => {
    const pa = agent(check(boxRepo));
    assert.deepEqual(cells(pa, '/home/u/p/.git'), ['r', 'r', 'rx']);
    assert.deepEqual(cells(pa, '/home/u/p/.git/config'), ['r', 'r', 'rx']);
    assert.deepEqual(cells(pa, '/home/u/p/.git/hooks/pre-commit'), ['r', 'r', 'rx']);
    assert.deepEqual(cells(pa, '/home/u/p/src/main.py'), ['rw', 'rw', 'rwx']);
    const git = pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/p/.git')!;
    assert.deepEqual(git.state, { macos: 'read-only', linux: 'read-only', windows: 'read-only' });
    assert.equal(git.under?.written, '~/p');
    // Inside the read-only .git its config and hooks need no carve-out of their own.
    assert.ok(!pa.hostTrusted.some((ta) => ta.trusted.path === '/home/u/p/.git/config' && ta.state.linux));
  });

  it('one that does not exist yet: macOS refuses its creation, Linux and Windows cannot (Linux moves aside what the command makes), and say why', () => {
    const pa = agent(check(boxRepo));
    assert.deepEqual(cells(pa, '/home/u/p/.envrc'), ['r', 'rw', 'rwx']);
    const envrc = pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/p/.envrc')!;
    assert.deepEqual(envrc.state, { macos: 'read-only', linux: 'creatable', windows: 'creatable' });
    assert.deepEqual(envrc.notes.linux, {
      kind: 'host-trusted',
      platform: 'linux',
      // How Linux holds them (its model part), which the rule words: no platform name in the rule.
      held: { readOnly: 'read-only-bind', created: 'quarantined-after-run' },
      state: 'creatable',
      existence: 'absent',
      blocked: 'absent',
    });
  });

  it('a write grant that names it lifts it, and only its own scope: its config and hooks stay read-only', () => {
    const pa = agent(check(`${boxRepo}write_file = ["~/p/.git/HEAD"]\n`.replace('write = ["~/p"]', 'write = ["~/p", "~/p/.git/objects"]')));
    assert.deepEqual(cells(pa, '/home/u/p/.git/objects/ab'), ['rw', 'rw', 'rwx']);
    assert.deepEqual(cells(pa, '/home/u/p/.git/HEAD'), ['rw', 'rw', 'rwx']);
    assert.deepEqual(cells(pa, '/home/u/p/.git/config'), ['r', 'r', 'rx']);
    const whole = agent(check(boxRepo.replace('write = ["~/p"]', 'write = ["~/p", "~/p/.git"]')));
    assert.deepEqual(cells(whole, '/home/u/p/.git/logs'), ['rw', 'rw', 'rwx']);
    assert.deepEqual(cells(whole, '/home/u/p/.git/hooks'), ['r', 'r', 'rx']);
    assert.deepEqual(cells(whole, '/home/u/p/.git/config'), ['r', 'r', 'rx']);
  });

  it('home paths: shell start-up files, ~/.gitconfig and PATH directories in the home, under a write grant of the home', () => {
    const pa = agent(
      check('[agent.filesystem]\nread = ["~/work"]\nwrite = ["~/work"]\n', { '/home/u/work': 'dir', '/home/u/.bashrc': 'file' }),
    );
    // Not under the write tree: nothing to carve.
    assert.deepEqual(
      pa.hostTrusted.map((ta) => ta.trusted.path).filter((p) => p.startsWith('/home/u/.')),
      [],
    );
    const home = agent(
      check('[agent.filesystem]\nread = ["~/work", "~/.local"]\nwrite = ["~/.local"]\n', {
        '/home/u/work': 'dir',
        '/home/u/.local/bin/tool': 'file',
        '/home/u/.local/share': 'dir',
      }),
    );
    assert.deepEqual(cells(home, '/home/u/.local/bin/tool'), ['r', 'r', 'rx']);
    assert.deepEqual(cells(home, '/home/u/.local/share/x'), ['rw', 'rw', 'rwx']);
  });

  it('macOS refuses the missing parents of a missing path too (else it could be made elsewhere and renamed into place)', () => {
    const pa = agent(check('[agent.filesystem]\nread = ["~/.config"]\nwrite = ["~/.config"]\n', { '/home/u/.config/app': 'dir' }));
    const unit = pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/.config/systemd/user')!;
    assert.deepEqual(unit.missingParents, ['/home/u/.config/systemd']);
    assert.deepEqual(cells(pa, '/home/u/.config/systemd'), ['r', 'rw', 'rwx']);
    assert.deepEqual(cells(pa, '/home/u/.config/systemd/other'), ['r', 'rw', 'rwx']);
    assert.ok(
      !pa.hostTrusted.some((ta) => ta.trusted.path === '/home/u/.config/systemd'),
      'a missing parent is said with the path it leads to',
    );
  });

  it('a symbolic link cannot be made read-only over itself: creatable everywhere, said so', () => {
    const pa = agent(check(boxRepo, { ...repo, '/home/u/p/.envrc': { symlink: 'src/main.py' } }));
    const envrc = pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/p/.envrc')!;
    assert.deepEqual(envrc.state, { macos: 'creatable', linux: 'creatable', windows: 'creatable' });
    assert.equal((envrc.notes.linux as { blocked?: string }).blocked, 'link');
  });

  it("boxwright's own inputs (the config, a manifest, --out, the run cache) are host-trusted as the application passes them", () => {
    const entries = { ...repo, '/home/u/p/sandbox.toml': 'file' as const };
    const pa = agent(check(boxRepo, entries, { hostTrusted: [{ path: '/home/u/p/sandbox.toml', input: 'config' }] }));
    assert.deepEqual(cells(pa, '/home/u/p/sandbox.toml'), ['r', 'r', 'rx']);
    assert.equal(pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/p/sandbox.toml')!.trusted.label, 'the config being checked');
    assert.deepEqual(
      cells(agent(check(boxRepo, entries)), '/home/u/p/sandbox.toml'),
      ['rw', 'rw', 'rwx'],
      'not an input: an ordinary file',
    );
  });

  it('nested repositories are found at every depth where they exist', () => {
    const entries = {
      ...repo,
      '/home/u/p/a/.git/HEAD': 'file' as const,
      '/home/u/p/a/b/.git/HEAD': 'file' as const,
      '/home/u/p/a/b/c/.git/HEAD': 'file' as const,
      '/home/u/p/x/y/z/w/v/.git/HEAD': 'file' as const,
    };
    const pa = agent(check(boxRepo, entries));
    for (const p of ['/home/u/p/a/.git', '/home/u/p/a/b/.git', '/home/u/p/a/b/c/.git', '/home/u/p/x/y/z/w/v/.git'])
      assert.deepEqual(cells(pa, p), ['r', 'r', 'rx'], p);
    // The nested ones' ancestors are pinned (Linux, macOS): a rename would carry them away.
    const deep = pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/p/a/b/.git')!;
    assert.deepEqual(deep.pinnedAncestors?.linux, ['/home/u/p/a', '/home/u/p/a/b']);
  });

  it('the search lists each directory once, nested trees with the outermost, and says where it did not finish', () => {
    const entries: Record<string, Entry> = { '/home/u/p/x': 'dir', '/home/u/p/q/r/.git/HEAD': 'file' };
    for (let i = 0; i < 30; i++) entries[`/home/u/p/d${String(i).padStart(2, '0')}/x`] = 'dir';
    const listed: string[] = [];
    const view = machine(entries);
    const counting: FsView = {
      ...view,
      children: (d) => {
        listed.push(d);
        return view.children(d);
      },
    };
    const roots = [
      { path: '/home/u/p', tree: true },
      { path: '/home/u/p/q', tree: true },
    ];
    const all = findHostTrusted(counting, roots, []);
    assert.deepEqual(all.unsearched, []);
    assert.equal(new Set(listed).size, listed.length, 'no directory listed twice');
    assert.ok(all.paths.some((t) => t.path === '/home/u/p/q/r/.git'));
    const limited = findHostTrusted(view, roots, [], 10);
    assert.deepEqual(
      limited.unsearched.map((u) => [u.tree, u.why, u.count > 0]),
      [['/home/u/p', 'limit', true]],
    );
  });

  it("Windows: a label is the file's, so one principal's carve-out holds for every principal, and one's lift for all", () => {
    const tools = `${boxRepo}[tools.t.filesystem]\nread = ["~/p"]\nwrite = ["~/p/.git"]\n`;
    const r = check(tools);
    // The tool names .git: the label is lifted on Windows for the agent too; macOS and Linux are per sandbox.
    assert.deepEqual(cells(agent(r), '/home/u/p/.git/logs'), ['r', 'r', 'rwx']);
    assert.deepEqual(cells(agent(r, 'tool.t'), '/home/u/p/.git/logs'), ['rwx', 'rwx', 'rwx']);
    assert.deepEqual(r.model!.windowsLabels.lifted, ['/home/u/p/.git']);
  });
});

describe('host-trusted paths: what lint says', () => {
  it('an info at the write grant names what stays read-only, and what does not exist yet', () => {
    const r = check(boxRepo);
    const info = ofRule(r, 'info');
    assert.equal(info.length, 1);
    assert.deepEqual([info[0]!.span.start.line, info[0]!.span.start.column], [3, 10]);
    assert.match(
      info[0]!.message,
      /^inside \/home\/u\/p, the host-trusted \/home\/u\/p\/\.git \(version-control metadata\) stays read-only/,
    );
    assert.match(
      info[0]!.message,
      /do not exist yet: macOS refuses their creation, Linux moves aside what the command creates, Windows cannot/,
    );
    assert.equal(r.verdicts.linux, 'accepted');
  });

  it('lifting one is a warning at the grant that names it, on the platforms where it writes', () => {
    const r = check(boxRepo.replace('write = ["~/p"]', 'write = ["~/p/.git/hooks"]'));
    const w = ofRule(r, 'warning');
    assert.equal(w.length, 1, w.map((d) => d.message).join('\n'));
    assert.match(
      w[0]!.message,
      /^\/home\/u\/p\/\.git\/hooks is inside the host-trusted \/home\/u\/p\/\.git \(version-control metadata\): the workload may write what the host runs or trusts after the run/,
    );
    assert.deepEqual(w[0]!.platforms, ['macos', 'linux', 'windows']);
  });

  it('--fs none: the existence is unknown, one "depends on the machine" info, no change of verdict', () => {
    const r = check(boxRepo, {}, { view: noneView('/home/u') });
    const info = ofRule(r, 'info');
    assert.equal(info.length, 1);
    assert.match(info[0]!.message, /^depends on the machine: inside \/home\/u\/p, the host-trusted/);
    assert.equal(r.verdicts.linux, 'accepted');
  });

  it('explain: a row per existing carve-out and one for the absent names, a footnote in every column', () => {
    const r = check(boxRepo);
    const m = explainMatrix(r.model!, r.diagnostics, r.verdicts);
    const rows = m.principals[0]!.rows.filter((row) => row.list === 'host-trusted');
    assert.deepEqual(
      rows.map((row) => row.written),
      [
        '~/p/.git',
        '~/p/{.agents,.aider.conf.yml,.boxwright.toml,.claude,.codex,.continue,.cursor,.devcontainer,.devcontainer.json,.envrc,.gemini,.hg,.husky,.idea,.kiro,' +
          '.lefthook-local.yml,.lefthook.yml,.mcp.json,.mise.local.toml,.mise.toml,.opencode,.pre-commit-config.yaml,.roo,.svn,.vscode,.windsurf,' +
          '.zed,lefthook-local.yml,lefthook.yml,mise.local.toml,mise.toml,opencode.json}',
      ],
    );
    for (const row of rows) for (const p of PLATFORMS) assert.equal(row.cells[p].note?.ruleId, 'host-trusted-path', `${row.written} ${p}`);
    assert.deepEqual(
      ['macos', 'linux', 'windows'].map((p) => rows[0]!.cells[p as 'linux'].legend),
      ['r', 'r', 'rx'],
    );
    // Right after the write grant it is carved out of.
    const all = m.principals[0]!.rows;
    assert.equal(all[all.indexOf(rows[0]!) - 1]!.list, 'write');
  });

  it('diff: lifting one is a widening', () => {
    const base = check(boxRepo);
    const head = check(boxRepo.replace('write = ["~/p"]', 'write = ["~/p", "~/p/.git"]'));
    const delta = accessDelta(
      { model: base.model!, verdicts: base.verdicts, diagnostics: base.diagnostics },
      { model: head.model!, verdicts: head.verdicts, diagnostics: head.diagnostics },
    );
    const git = delta.changes.filter((c) => c.path === '~/p/.git');
    assert.deepEqual(
      git.map((c) => [c.platform, c.before, c.after, c.widens]),
      [
        ['macos', 'r', 'rw', true],
        ['linux', 'r', 'rw', true],
        ['windows', 'rx', 'rwx', true],
      ],
    );
    assert.ok(delta.diagnosticsAdded.some((d) => d.ruleId === 'host-trusted-path' && d.severity === 'warning'));
    // And in what is asked for, on every machine (the gate's machine-independent half).
    assert.deepEqual(
      delta.requested.map((c) => [c.path, c.before, c.after, c.widens]),
      [['~/p/.git', 'r', 'rw', true]],
    );
  });

  it("diff: lifting one of the classes (a file in the XDG configuration home, a repository's hook config) is a warning and a widening", () => {
    const home = '[agent.filesystem]\nread = ["~"]\nwrite = ["~"]\n';
    const entries: Record<string, Entry> = {
      ...repo,
      '/home/u/.config/tmux/tmux.conf': 'file',
      '/home/u/p/.pre-commit-config.yaml': 'file',
    };
    const base = check(home, entries);
    for (const [path, lift] of [
      ['~/.config/tmux/tmux.conf', '~/.config/tmux'],
      ['~/p/.pre-commit-config.yaml', '~/p/.pre-commit-config.yaml'],
    ] as const) {
      const head = check(home.replace('write = ["~"]', `write = ["~", "${lift}"]`), entries);
      const delta = accessDelta(
        { model: base.model!, verdicts: base.verdicts, diagnostics: base.diagnostics },
        { model: head.model!, verdicts: head.verdicts, diagnostics: head.diagnostics },
      );
      assert.ok(
        delta.changes.some((c) => c.path.startsWith(lift) && c.platform === 'linux' && c.widens),
        `${lift}: ${JSON.stringify(delta.changes.map((c) => [c.path, c.platform, c.widens]))}`,
      );
      assert.ok(
        delta.requested.some((c) => c.widens),
        `${lift}: asked for more`,
      );
      assert.ok(
        delta.diagnosticsAdded.some((d) => d.ruleId === 'host-trusted-path' && d.severity === 'warning'),
        `${lift}: lifting ${path} is a warning`,
      );
    }
  });

  it('trustedByName: what a path lies at or inside by its spelling alone, outermost first', () => {
    const home = '/home/u';
    assert.deepEqual(trustedByName('/home/u/.bashrc', home), ['/home/u/.bashrc']);
    assert.deepEqual(trustedByName('/home/u/.local/bin/tool', home), ['/home/u/.local/bin']);
    assert.deepEqual(trustedByName('/home/u/p/.git/hooks/pre-commit', home), ['/home/u/p/.git', '/home/u/p/.git/hooks']);
    // At any depth, a submodule's git directory included; a project name deep in a tree too.
    assert.deepEqual(trustedByName('/home/u/p/.git/modules/lib/config', home), [
      '/home/u/p/.git',
      '/home/u/p/.git/modules',
      '/home/u/p/.git/modules/lib/config',
    ]);
    assert.deepEqual(trustedByName('/srv/a/b/c/d/.vscode/tasks.json', home), ['/srv/a/b/c/d/.vscode']);
    // What git runs is host-trusted inside a git directory only; a .hg is one whole.
    assert.deepEqual(trustedByName('/home/u/p/hooks/config', home), []);
    assert.deepEqual(trustedByName('/home/u/p/src', home), []);
    assert.deepEqual(trustedByName('/home/u', home), []);
  });
});

describe('host-trusted paths: the artifacts say what the model says', () => {
  it('Linux: bound read-only over itself after the write tree, its ancestors pinned', async () => {
    const r = check(boxRepo, { ...repo, '/home/u/p/a/.git/HEAD': 'file' });
    const out = await compileConfig(r, 'linux', {});
    assert.ok(out.ok);
    const argv = parseArgsFile(out.artifacts.find((a) => a.name === 'agent.bwrap.args')!.content as Uint8Array);
    const at = (op: string, path: string): number => argv.findIndex((a, i) => a === op && argv[i + 1] === path && argv[i + 2] === path);
    assert.ok(at('--bind', '/home/u/p') >= 0 && at('--bind', '/home/u/p') < at('--ro-bind', '/home/u/p/.git'));
    assert.ok(at('--ro-bind', '/home/u/p/a/.git') > at('--bind', '/home/u/p/a'), 'the nested .git after its pinned ancestor');
    assert.equal(at('--ro-bind', '/home/u/p/.envrc'), -1, 'nothing is mounted over what does not exist');
  });

  it('macOS: file-write* denied on each, unlink on its ancestors; a lift inside one is left out of its rule', async () => {
    const r = check(boxRepo.replace('write = ["~/p"]', 'write = ["~/p", "~/p/.git/objects"]'), {
      ...repo,
      '/home/u/p/a/.git/HEAD': 'file',
    });
    const out = await compileConfig(r, 'macos', {});
    assert.ok(out.ok);
    const sb = out.artifacts.find((a) => a.name === 'agent.sb')!.content as string;
    assert.match(
      sb,
      /\(deny file-write\* \(require-all \(subpath "\/home\/u\/p\/\.git"\) \(require-not \(subpath "\/home\/u\/p\/\.git\/objects"\)\)\)\)/,
    );
    assert.match(sb, /\(deny file-write-unlink \(literal "\/home\/u\/p\/a"\)\)/);
    assert.match(sb, /^ {2}\(subpath "\/home\/u\/p\/\.envrc"\) ;; editor-agent-config$/m);
    // After every allow: the denies section is last.
    assert.ok(sb.indexOf('(subpath "/home/u/p/.envrc")') > sb.indexOf(';; ---- 6) denies ----'));
  });

  it("Windows: a read-only label after the write tree's Low label, a lift inside relabelled Low after it, file by file", async () => {
    const r = check(boxRepo.replace('write = ["~/p"]', 'write = ["~/p", "~/p/.git/objects"]'));
    const out = await compileConfig(r, 'windows', {});
    assert.ok(out.ok);
    const plan = JSON.parse(out.artifacts.find((a) => a.name === 'acl-plan.json')!.content as string) as AclPlan;
    const steps = plan.steps.filter((s) => s.action !== 'deny-read').map((s) => [s.action, s.path, s.perFile]);
    assert.deepEqual(steps, [
      ['grant-write', '%USERPROFILE%\\p', false],
      ['label-low', '%USERPROFILE%\\p', false],
      ['label-read-only', '%USERPROFILE%\\p\\.git', true],
      ['grant-write', '%USERPROFILE%\\p\\.git\\objects', false],
      ['label-low', '%USERPROFILE%\\p\\.git\\objects', true],
    ]);
  });
});

describe('host-trusted paths: a TYBA linked worktree', () => {
  // A main repository at ~/repo, and its linked worktree at ~/wt (git worktree add ~/wt -b tyba/x).
  const linked: Record<string, Entry> = {
    '/home/u/repo/.git/HEAD': 'file',
    '/home/u/repo/.git/config': 'file',
    '/home/u/repo/.git/hooks': 'dir',
    '/home/u/repo/.git/objects': 'dir',
    '/home/u/repo/.git/refs/heads/tyba': 'dir',
    '/home/u/repo/.git/logs/refs/heads/tyba': 'dir',
    '/home/u/repo/.git/worktrees/wt/HEAD': 'file',
    '/home/u/repo/.git/worktrees/wt/commondir': { text: '../..\n' },
    '/home/u/repo/.git/worktrees/wt/gitdir': { text: '/home/u/wt/.git\n' },
    '/home/u/wt/.git': { text: 'gitdir: /home/u/repo/.git/worktrees/wt\n' },
    '/home/u/wt/README': 'file',
  };
  const tyba = '[sandbox]\nread_allow = []\n';

  it("the worktree's .git file is read-only; of its git directories, what commits need is writable, what git runs is not", () => {
    const r = check(tyba, linked, { worktree: '/home/u/wt' });
    assert.deepEqual(r.ir!.tyba!.git, { gitdir: '/home/u/repo/.git/worktrees/wt', common: '/home/u/repo/.git' });
    const pa = agent(r);
    // TYBA's Linux sandbox has no Landlock: what is readable is executable.
    assert.deepEqual(cells(pa, '/home/u/wt/.git'), ['r', 'rx', 'rx']);
    assert.deepEqual(cells(pa, '/home/u/wt/README'), ['rw', 'rwx', 'rwx']);
    for (const p of [
      '/home/u/repo/.git/worktrees/wt/index',
      '/home/u/repo/.git/objects/ab/cd',
      '/home/u/repo/.git/refs/heads/tyba/x',
      '/home/u/repo/.git/logs/refs/heads/tyba/x',
    ])
      assert.equal(cells(pa, p)[1], 'rwx', p);
    for (const p of [
      '/home/u/repo/.git/config',
      '/home/u/repo/.git/hooks/post-commit',
      '/home/u/repo/.git/refs/heads/main',
      '/home/u/repo/.git/worktrees/wt/commondir',
      '/home/u/repo/.git/worktrees/wt/gitdir',
    ])
      assert.deepEqual(cells(pa, p).slice(0, 2), ['r', 'rx'], p);
    // Absent, config.worktree can be created on Linux (a mount needs a target); git reads it only with
    // extensions.worktreeConfig, which the repository's config (read-only) would have to set.
    const wtConfig = pa.hostTrusted.find((ta) => ta.trusted.path === '/home/u/repo/.git/worktrees/wt/config.worktree')!;
    assert.deepEqual(wtConfig.state, { macos: 'read-only', linux: 'creatable', windows: 'creatable' });
    assert.deepEqual(ofRule(r, 'warning'), []);
  });

  it("under the host's /tmp, TYBA's private tmpfs: no ancestor of a host-trusted path is pinned with a host bind there", () => {
    const entries: Record<string, Entry> = {};
    for (const [p, k] of Object.entries(linked))
      entries[p.replace('/home/u', '/tmp/lab/u')] =
        typeof k === 'object' && 'text' in k ? { text: k.text.replaceAll('/home/u', '/tmp/lab/u') } : k;
    const r = checkConfig(Buffer.from(tyba), {
      file: 'c.toml',
      view: manifestView(JSON.stringify({ home: '/tmp/lab/u', entries }), 'm'),
      worktree: '/tmp/lab/u/wt',
    });
    const dotGit = agent(r).hostTrusted.find((ta) => ta.trusted.path === '/tmp/lab/u/wt/.git')!;
    assert.equal(dotGit.state.linux, 'read-only');
    assert.equal(dotGit.pinnedAncestors?.linux, undefined, 'renaming /tmp/lab moves no host path: nothing to pin');
  });

  it('a .git file that does not have the shape git worktree add gives it grants nothing: a warning, and it stays read-only', () => {
    const planted = {
      ...linked,
      '/home/u/wt/.git': { text: 'gitdir: /home/u/wt/.planted\n' },
      '/home/u/wt/.planted/HEAD': 'file' as const,
      '/home/u/wt/.planted/commondir': { text: '/home/u\n' },
    };
    const r = check(tyba, planted, { worktree: '/home/u/wt' });
    assert.ok(r.ir!.tyba!.git && 'problem' in r.ir!.tyba!.git);
    assert.match(
      ofRule(r, 'warning')[0]!.message,
      /^the session worktree's \.git is not followed: \/home\/u\/wt\/\.planted is not a worktree's git directory/,
    );
    const pa = agent(r);
    assert.equal(cells(pa, '/home/u/repo/.git/objects/x')[1], '—', 'nothing of the repository is granted');
    assert.deepEqual(cells(pa, '/home/u/wt/.git'), ['r', 'rx', 'rx']);
    // The git directory it names, inside the worktree, is host-trusted as a whole.
    assert.deepEqual(cells(pa, '/home/u/wt/.planted/config'), ['r', 'rx', 'rx']);
  });
});
