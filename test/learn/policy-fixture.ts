// The machine the collapse-policy tests learn on (a manifest), and how they
// learn: shared by policy.test.ts and least-privilege.test.ts.
import { learnBoundaries } from '../../app/learn/boundaries.js';
import type { Interpreter } from '../../app/learn/interpreter.js';
import { deriveNeeds } from '../../app/learn/needs.js';
import { decide, type Decision, type LearnDialect } from '../../app/learn/policy.js';
import type { Access, Op } from '../../app/learn/trace.js';
import { manifestView } from '../../compiler/paths/index.js';

export const HOME = '/home/dev';
export const W = '/home/dev/proj';
export const machine = {
  home: HOME,
  entries: {
    '/home/dev/.ssh/id_ed25519': 'file',
    '/home/dev/.gitconfig': 'file',
    '/home/dev/notes.txt': 'file',
    '/home/dev/proj/package.json': 'file',
    '/home/dev/proj/.env': 'file',
    '/home/dev/proj/src/main.js': 'file',
    '/home/dev/proj/src/lib/util.js': 'file',
    '/home/dev/proj/.git/HEAD': 'file',
    '/home/dev/proj/.git/config': 'file',
    '/home/dev/proj/.git/objects/ab/cdef': 'file',
    '/home/dev/proj/out': 'dir',
    '/home/dev/proj/sub/.env.local': 'file',
    '/home/dev/proj/sub/a.js': 'file',
    '/home/dev/proj/sub/lib/b.js': 'file',
    '/usr/lib/node_modules/npm/lib/cli.js': 'file',
    '/usr/lib/node_modules/npm/package.json': 'file',
    '/usr/lib/node_modules/@scope/pkg/index.js': 'file',
    '/usr/lib/node_modules/corepack/index.js': 'file',
    '/usr/lib/python3/dist-packages/yaml/__init__.py': 'file',
    '/usr/lib/python3/dist-packages/six.py': 'file',
    '/home/dev/proj/link': { symlink: 'src/main.js' },
    '/usr/bin/git': 'file',
    '/usr/bin/dash': 'file',
    '/usr/bin/sh': { symlink: 'dash' },
    '/usr/bin/cc': { symlink: '/etc/alternatives/cc' },
    '/usr/bin/gcc-12': 'file',
    '/etc/alternatives/cc': { symlink: '/usr/bin/gcc-12' },
    '/usr/lib/x86_64-linux-gnu/libc.so.6': 'file',
    '/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2': 'file',
    '/usr/lib64/ld-linux-x86-64.so.2': { symlink: '../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' },
    '/lib64': { symlink: 'usr/lib64' },
    '/usr/lib/python3.11/json/__init__.py': 'file',
    '/usr/lib/python3.11/os.py': 'file',
    '/usr/share/zoneinfo/Etc/UTC': 'file',
    '/usr/include/stdio.h': 'file',
    '/etc/localtime': { symlink: '/usr/share/zoneinfo/Etc/UTC' },
    '/etc/shadow': 'file',
    '/etc/passwd': 'file',
    '/etc/ssl/private/key.pem': 'file',
    '/etc/ssl/certs/ca.pem': 'file',
    '/opt/tool/share/data.txt': 'file',
    '/tmp/scratch': 'dir',
    '/proc/self/status': 'file',
  },
} as const;
export const view = manifestView(JSON.stringify(machine), 'machine.json');
export const loaders: Record<string, Interpreter> = {
  '/usr/bin/git': { kind: 'loader', path: '/lib64/ld-linux-x86-64.so.2' },
  '/usr/bin/dash': { kind: 'loader', path: '/lib64/ld-linux-x86-64.so.2' },
  '/home/dev/proj/src/main.js': { kind: 'script', path: '/usr/bin/sh', line: '#!/usr/bin/sh' },
};

export const access = (op: Op, path: string, extra: Partial<Access> = {}): Access => ({
  pid: 1,
  program: '/usr/bin/git',
  syscall: op === 'list' ? 'getdents64' : 'openat',
  op,
  path,
  ok: true,
  ...extra,
});

export function learn(
  accesses: readonly Access[],
  o: { dialect?: LearnDialect; hostTrusted?: { path: string; reason: string }[]; changes?: { kind: string; path: string }[] } = {},
): Decision {
  const set = deriveNeeds({ accesses, changes: o.changes ?? [], view, interpreterOf: (p) => loaders[p] });
  const boundaries = learnBoundaries({ home: HOME, ...(o.hostTrusted ? { hostTrusted: o.hostTrusted } : {}) });
  return decide(set, {
    dialect: o.dialect ?? 'box',
    home: HOME,
    workspace: W,
    boundaries,
    view,
    ...(o.dialect === 'tyba' ? { implicit: [W, '/tmp'] } : {}),
  });
}
export const granted = (d: Decision): string[] => d.grants.map((g) => `${g.list} ${g.path}`);
