// The learned config as text (app/learn/config-text.ts) and learning into a
// config that exists (merge.ts): hostile paths stay data, in values and in
// comments; a merge adds only what the config's model does not give, keeps
// the file as written, and adds nothing the second time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConfig, type CheckedPolicy } from '../../app/check.js';
import { configText, tableName } from '../../app/learn/config-text.js';
import { mergeLearned } from '../../app/learn/merge.js';
import type { Need } from '../../app/learn/needs.js';
import type { LearnedGrant } from '../../app/learn/policy.js';
import type { ListName } from '../../compiler/ir/types.js';
import { manifestView } from '../../compiler/paths/index.js';
import { parseToml, toPlainJsonText } from '../../compiler/toml/index.js';

const HOME = '/home/dev';
const hostile = [
  '/home/dev/p/quote"d',
  '/home/dev/p/new\nline = "x"',
  '/home/dev/p/hash # not a comment',
  '/home/dev/p/]bracket,',
  '/home/dev/p/ünï码🙂',
  '/home/dev/p/back\\slash',
  "/home/dev/p/it's",
];
const entries: Record<string, 'file' | 'dir'> = { '/home/dev/p/plain.txt': 'file', '/usr/bin/git': 'file', '/home/dev/p/out': 'dir' };
for (const h of hostile) entries[h] = 'file';
const view = manifestView(JSON.stringify({ home: HOME, entries }), 'm.json');

const need = (path: string, kind: Need['kind'] = 'read'): Need => ({
  path,
  kind,
  is: 'file',
  count: 1,
  first: { syscall: 'openat', program: '/usr/bin/x"y\nz', named: path },
});
const grant = (list: ListName, path: string, kind?: Need['kind']): LearnedGrant => ({
  list,
  path,
  needs: [need(path, kind)],
  notes: [`because of ${path}`],
});

function check(text: string): CheckedPolicy {
  const c = checkConfig(Buffer.from(text, 'utf8'), { file: 'learned.toml', view, worktree: '/home/dev/p' });
  assert.ok(c.ir, `the text is a config:\n${text}\n${c.diagnostics.map((d) => d.message).join('\n')}`);
  assert.deepEqual(
    c.diagnostics.filter((d) => d.ruleId === 'toml-syntax' || d.ruleId === 'schema'),
    [],
  );
  return c;
}
const paths = (c: CheckedPolicy, list: ListName, principal = 'agent'): string[] =>
  c.ir.principals
    .find((p) => p.id === principal)!
    .grants.filter((g) => g.list === list)
    .map((g) => g.path!);

describe('the learned config as text', () => {
  it('keeps every path as data, in values and in comments', () => {
    const text = configText({
      dialect: 'box',
      principal: 'agent',
      home: HOME,
      command: ['sh', '-c', 'echo "a\nb"'],
      ending: 'The run exited with status 0.',
      incomplete: [],
      workspace: '/home/dev/p',
      grants: hostile.map((h) => grant('read_file', h)),
      unmet: [{ path: '/home/dev/.ssh/k\n[agent.filesystem]\nread = ["/"]', what: 'a secret', first: need('/x').first }],
      network: ['1.2.3.4:443 (refused: ENETUNREACH)'],
    });
    const c = check(text);
    assert.deepEqual(paths(c, 'read_file'), hostile);
    assert.equal(c.ir.principals.length, 1);
    // Nothing the paths hold became a key or a table: the document has exactly what was written.
    const doc = JSON.parse(toPlainJsonText(parseToml(text).document!));
    assert.deepEqual(Object.keys(doc), ['agent']);
    assert.deepEqual(Object.keys(doc.agent.filesystem).sort(), ['read_file', 'workspace']);
    for (const line of text.split('\n')) assert.ok(!/^\s*read\s*=/.test(line), `no line of a comment became a key: ${line}`);
  });

  it('names a tool with a dot in its name as one key', () => {
    assert.equal(tableName('box', 'tool.fmt.v2'), 'tools."fmt.v2".filesystem');
    const text = configText({
      dialect: 'box',
      principal: 'tool.fmt.v2',
      home: HOME,
      command: ['x'],
      ending: '',
      incomplete: [],
      grants: [grant('read_file', '/home/dev/p/plain.txt')],
      unmet: [],
      network: [],
    });
    assert.deepEqual(paths(check(text), 'read_file', 'tool.fmt.v2'), ['/home/dev/p/plain.txt']);
  });
});

describe('learning into a config that exists', () => {
  const shapes: Record<string, string> = {
    'a one-line array': '[agent.filesystem]\nread_file = ["~/p/plain.txt"]  # mine\n',
    'a trailing comma and comments':
      '# my config\n[agent.filesystem]\nread_file = [\n  "~/p/plain.txt",  # mine\n  # a note\n]\nexec = ["/usr/bin/git"]\n',
    'no comma after the last item, then a comment': '[agent.filesystem]\nread_file = [\n  "~/p/plain.txt"  # mine\n]\n',
    'no such list yet': '[agent.filesystem]\nexec = ["/usr/bin/git"]\n',
    'no table yet': '# only a tool\n[tools.fmt.filesystem]\nread_file = ["~/p/plain.txt"]',
  };
  for (const [name, before] of Object.entries(shapes)) {
    it(`adds only what the config lacks, keeps what is written, and adds nothing the second time: ${name}`, () => {
      const learned = [
        grant('read_file', '/home/dev/p/plain.txt'),
        grant('read_file', hostile[1]!),
        grant('exec', '/usr/bin/git', 'exec'),
        grant('write', '/home/dev/p/out', 'write-dir'),
        grant('read', '/home/dev/p/out'),
      ];
      const first = mergeLearned({
        check: check(before),
        dialect: 'box',
        principal: 'agent',
        home: HOME,
        workspace: '/home/dev/p',
        grants: learned,
        header: 'learned from: "x"',
      });
      assert.ok(first.ok, !first.ok ? first.error : '');
      const after = check(first.text);
      for (const l of ['read_file', 'exec', 'write', 'read'] as const)
        for (const g of learned.filter((x) => x.list === l))
          assert.ok(paths(after, l).includes(g.path), `${l} ${g.path} in:\n${first.text}`);
      for (const line of before.split('\n').filter((l) => l.includes('#')))
        assert.ok(first.text.includes(line.trim().replace(/^.*#/, '#')), `the comment of "${line}" is kept`);
      assert.equal(paths(after, 'read_file').filter((p) => p === '/home/dev/p/plain.txt').length, 1, 'no entry twice');
      const again = mergeLearned({
        check: after,
        dialect: 'box',
        principal: 'agent',
        home: HOME,
        workspace: '/home/dev/p',
        grants: learned,
        header: 'again',
      });
      assert.ok(again.ok);
      assert.equal(again.added.length, 0);
      assert.equal(again.text, first.text);
    });
  }

  it('leaves a deny of the config in place and says so', () => {
    const before = '[agent.filesystem]\nread = ["~/p"]\ndeny = ["~/p/plain.txt"]\n';
    const m = mergeLearned({
      check: check(before),
      dialect: 'box',
      principal: 'agent',
      home: HOME,
      grants: [grant('read_file', '/home/dev/p/plain.txt')],
      header: 'h',
    });
    assert.ok(m.ok);
    assert.equal(m.added.length, 0);
    assert.match(m.denied[0]!.what, /the config denies it/);
  });

  it("adds a learned deny with the tree it keeps a secret out of, never to narrow the config's own grant", () => {
    const learned = [grant('read', '/home/dev/p', 'list'), grant('deny', '/home/dev/p/plain.txt', 'list')];
    const added = mergeLearned({
      check: check('[agent.filesystem]\nexec = ["/usr/bin/git"]\n'),
      dialect: 'box',
      principal: 'agent',
      home: HOME,
      grants: learned,
      header: 'h',
    });
    assert.ok(added.ok);
    assert.deepEqual(paths(check(added.text), 'deny'), ['/home/dev/p/plain.txt']);
    const kept = mergeLearned({
      check: check('[agent.filesystem]\nread = ["~/p"]\n'),
      dialect: 'box',
      principal: 'agent',
      home: HOME,
      grants: learned,
      header: 'h',
    });
    assert.ok(kept.ok);
    assert.equal(kept.added.length, 0, 'the config already reads ~/p: the learned deny would take what it gives away');
  });

  it('refuses a table written inline rather than guess an edit', () => {
    const m = mergeLearned({
      check: check('agent = { filesystem = { read = ["~/p"] } }\n'),
      dialect: 'box',
      principal: 'agent',
      home: HOME,
      grants: [grant('exec', '/usr/bin/git', 'exec')],
      header: 'h',
    });
    assert.equal(m.ok, false);
  });
});
