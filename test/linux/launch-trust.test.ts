// launchTrust (targets/linux/launcher/trust.ts): what the launch file tells
// the launcher to check before and after a run, read off the model and the
// Linux plan, against manifests (each case a machine of its own). The
// launcher's side under real bubblewrap: test/linux/hostile/absent-names.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { manifestView, projectNames } from '../../compiler/paths/index.js';
import { linuxPlan } from '../../targets/linux/model/plan.js';
import { decodeLaunchFile, encodeLaunchFile, NO_TRUST_CHECK, type LaunchTrust } from '../../targets/linux/launcher/index.js';
import { launchTrust } from '../../targets/linux/launcher/trust.js';

type Entry = 'file' | 'dir' | { symlink: string };

function trustOf(toml: string, entries: Record<string, Entry>, id = 'agent'): LaunchTrust {
  const view = manifestView(JSON.stringify({ home: '/home/u', landlockAbi: 7, entries }), 'test machine');
  const r = checkConfig(Buffer.from(toml), { file: '/home/u/c.toml', view, worktree: '/home/u/p' });
  assert.ok(r.model, r.diagnostics.map((d) => d.message).join('\n'));
  const pa = r.model.principals.find((p) => p.principal.id === id)!;
  return launchTrust(pa, linuxPlan(pa));
}

const project = '[agent.filesystem]\nread = ["~/p"]\nwrite = ["~/p"]\n';

describe('launchTrust: the launch file records of the check before and after a run', () => {
  it('a write tree: walked, with every project name; an existing .git is kept (bound read-only), absent root names left to the walk', () => {
    const t = trustOf(project, { '/home/u/p/src/a.py': 'file', '/home/u/p/sub/.git/config': 'file' });
    assert.deepEqual(t.walk, ['/home/u/p']);
    assert.deepEqual(t.names, [...projectNames].sort());
    assert.deepEqual(t.keep, ['/home/u/p/sub/.git']);
    // `/home/u/p/.git` is not there: the walk finds it by name after the run, so it is no `absent` path.
    assert.deepEqual(t.absent, []);
  });

  it('write = ["~"]: home paths that are not there are `absent` paths; what exists is kept', () => {
    const t = trustOf('[agent.filesystem]\nread = ["~"]\nwrite = ["~"]\n', { '/home/u/.profile': 'file', '/home/u/work': 'dir' });
    assert.deepEqual(t.walk, ['/home/u']);
    assert.ok(t.absent.includes('/home/u/.bashrc'), t.absent.join(' '));
    assert.ok(t.absent.includes('/home/u/.config'), t.absent.join(' '));
    assert.ok(!t.absent.includes('/home/u/.profile') && t.keep.includes('/home/u/.profile'));
    assert.ok(!t.absent.some((p) => p.endsWith('/.git')), 'project names are the walk’s');
  });

  it('a name the config lifts is kept (left to the command), and what the sandbox cannot write inside a tree is kept too', () => {
    const t = trustOf('[agent.filesystem]\nread = ["~/p"]\nwrite = ["~/p", "~/p/.vscode"]\ndeny = ["~/p/secret"]\n', {
      '/home/u/p/.vscode/tasks.json': 'file',
      '/home/u/p/secret/.git/config': 'file',
    });
    // The lifted .vscode is a writable tree too, but inside a host-trusted name: the config's to write, not walked.
    assert.deepEqual(t.walk, ['/home/u/p']);
    assert.ok(t.keep.includes('/home/u/p/.vscode'), t.keep.join(' '));
    // The deny's cover: the host's .git under it is no workload's doing, and the walk does not enter it.
    assert.ok(t.keep.includes('/home/u/p/secret'), t.keep.join(' '));
  });

  it('no write tree: nothing to check, and the launch file says nothing of it', () => {
    const t = trustOf('[agent.filesystem]\nread = ["~/p"]\n', { '/home/u/p/a': 'file' });
    assert.deepEqual(t, NO_TRUST_CHECK);
  });

  it('deterministic: the same config on the same machine gives the same bytes', () => {
    const entries: Record<string, Entry> = { '/home/u/p/b/.git/config': 'file', '/home/u/p/a/.envrc': 'file' };
    const one = trustOf(project, entries);
    const two = trustOf(project, entries);
    assert.deepEqual(one, two);
    for (const list of [one.walk, one.names, one.keep, one.absent]) assert.deepEqual(list, [...list].sort());
    const launch = {
      config: '/home/u/c.toml',
      configSha256: 'a'.repeat(64),
      principal: 'agent',
      args: { name: 'agent.bwrap.args', sha256: 'b'.repeat(64) },
      seccomp: { x86_64: { name: 'seccomp.x86_64.bpf', sha256: 'c'.repeat(64) } },
      landlock: undefined,
      bwrap: { path: '/usr/bin/bwrap', uid: 0, mode: 0o755 },
      env: [],
      envPrefixes: [],
      compileOptions: [],
      trust: one,
    };
    assert.deepEqual(decodeLaunchFile(encodeLaunchFile(launch)).trust, one);
  });
});
