// compiler/paths/git-config.ts: the three keys git's config makes it run or
// read elsewhere, read as git reads them (git-config(1): SYNTAX), and where
// they lead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configPath, gitConfigRefs, gitConfigTargets } from '../../compiler/paths/git-config.js';
import { manifestView } from '../../compiler/paths/index.js';

describe('git config: hooksPath and includes', () => {
  it('reads core.hooksPath and every include and includeIf path, keys and sections in any case, values unquoted', () => {
    const text = [
      '[core]',
      '\tbare = false',
      '\tHooksPath = .githooks ; a comment',
      '[Include]',
      '\tpath = "~/shared/git config"',
      '[includeIf "gitdir:~/work/"]',
      '  path = ../w.inc # comment',
      '[includeIf "onbranch:main"] path = "a\\"b"',
      // The deprecated [section.sub] spelling: read as its section (a key too many is the safe side).
      '[core.sub]',
      '\thookspath = \\',
      '  /opt/hooks',
      '[remote "origin"]',
      '\tpath = not-an-include',
      '[core]',
      '\thooksPath =',
    ].join('\n');
    assert.deepEqual(gitConfigRefs(text), {
      hooksPaths: ['.githooks', '/opt/hooks'],
      includes: ['~/shared/git config', '../w.inc', 'a"b'],
    });
  });

  it('a value leads where git resolves it: ~/ is the home, relative to the base, ~user is not known', () => {
    assert.equal(configPath('~/w/.gitconfig', '/etc', '/home/u'), '/home/u/w/.gitconfig');
    assert.equal(configPath('../w.inc', '/home/u/repo/.git', '/home/u'), '/home/u/repo/w.inc');
    assert.equal(configPath('/abs', '/x', '/home/u'), '/abs');
    assert.equal(configPath('~bob/x', '/x', '/home/u'), undefined);
  });

  it('follows includes as git does, each file once (a cycle ends), and lands a relative hooks path in each work tree', () => {
    const view = manifestView(
      JSON.stringify({
        home: '/home/u',
        entries: {
          '/home/u': 'dir',
          '/home/u/.gitconfig': { text: '[include]\n\tpath = ~/a.inc\n[core]\n\thooksPath = hooks-everywhere\n' },
          '/home/u/a.inc': { text: '[include]\n\tpath = b.inc\n' },
          '/home/u/b.inc': { text: '[include]\n\tpath = a.inc\n' },
          '/home/u/p/.git/config': { text: '[core]\n\thooksPath = .husky/_\n' },
        },
      }),
      'test',
    );
    const targets = gitConfigTargets(view, new Map([['/home/u/p/.git', ['/home/u/p']]]));
    assert.deepEqual([...new Set(targets.map((t) => t.path))].sort(), [
      '/home/u/a.inc',
      '/home/u/b.inc',
      '/home/u/p/.husky/_',
      '/home/u/p/hooks-everywhere',
    ]);
  });
});
