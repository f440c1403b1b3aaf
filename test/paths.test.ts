import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  expandHome,
  hostView,
  isUnder,
  protectedHit,
  protectedPaths,
  inspectPath,
  macosCanonical,
  manifestView,
  noneView,
  normalise,
  spellingProblems,
  windowsNameProblem,
  windowsUnmapped,
} from '../compiler/paths/index.js';

// A real temporary tree: links in the middle of a path, at its end, relative
// and absolute, dangling, and a loop.
const root = mkdtempSync(join(tmpdir(), 'boxwright-paths-'));
mkdirSync(join(root, 'home/dev/project/src'), { recursive: true });
mkdirSync(join(root, 'home/dev/releases/v2/bin'), { recursive: true });
writeFileSync(join(root, 'home/dev/project/src/main.py'), 'print(1)\n');
symlinkSync('releases/v2', join(root, 'home/dev/current'));
symlinkSync(join(root, 'home/dev/project'), join(root, 'home/dev/proj-abs'));
symlinkSync('nowhere', join(root, 'home/dev/dangling'));
symlinkSync('loop-b', join(root, 'home/dev/loop-a'));
symlinkSync('loop-a', join(root, 'home/dev/loop-b'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('host view on a real tree', () => {
  const view = hostView(join(root, 'home/dev'));
  it('an existing directory and file', () => {
    assert.deepEqual(inspectPath(view, join(root, 'home/dev/project')), { existence: 'exists', kind: 'dir' });
    assert.deepEqual(inspectPath(view, join(root, 'home/dev/project/src/main.py')), { existence: 'exists', kind: 'file' });
  });
  it('a missing path', () => {
    assert.equal(inspectPath(view, join(root, 'home/dev/projcet')).existence, 'absent');
    assert.equal(inspectPath(view, join(root, 'home/dev/project/src/main.py/x')).existence, 'absent');
  });
  it('a symlinked component in the middle names the link and the resolved target', () => {
    const facts = inspectPath(view, join(root, 'home/dev/current/bin'));
    assert.equal(facts.existence, 'exists');
    assert.deepEqual(facts.symlink, { link: join(root, 'home/dev/current'), resolved: join(root, 'home/dev/releases/v2/bin') });
  });
  it('an absolute link at the end', () => {
    const facts = inspectPath(view, join(root, 'home/dev/proj-abs'));
    assert.equal(facts.symlink?.resolved, join(root, 'home/dev/project'));
  });
  it('a dangling link is a link to an absent path', () => {
    const facts = inspectPath(view, join(root, 'home/dev/dangling'));
    assert.equal(facts.existence, 'absent');
    assert.equal(facts.symlink?.link, join(root, 'home/dev/dangling'));
  });
  it('a link loop ends, as absent', () => {
    assert.equal(inspectPath(view, join(root, 'home/dev/loop-a')).existence, 'absent');
  });
});

describe('spelling', () => {
  it('~ expands to --home; relative paths and ~user are problems', () => {
    assert.deepEqual(expandHome('~', '/home/dev'), { path: '/home/dev' });
    assert.deepEqual(expandHome('~/project', '/home/dev/'), { path: '/home/dev/project' });
    assert.ok('problem' in expandHome('project', '/home/dev'));
    assert.ok('problem' in expandHome('~root/x', '/home/dev'));
    assert.ok('problem' in expandHome('', '/home/dev'));
  });
  it('non-canonical spellings', () => {
    assert.deepEqual(spellingProblems('/a/b'), []);
    assert.deepEqual(spellingProblems('/'), []);
    assert.ok(spellingProblems('/a/b/').length);
    assert.ok(spellingProblems('/a//b').length);
    assert.ok(spellingProblems('/a/./b').length);
    assert.ok(spellingProblems('/a/../b').length);
    assert.equal(normalise('/a/./b/../c//d/'), '/a/c/d');
  });
  it('macOS /tmp, /var and /etc live under /private', () => {
    assert.equal(macosCanonical('/tmp'), '/private/tmp');
    assert.equal(macosCanonical('/var/log/x'), '/private/var/log/x');
    assert.equal(macosCanonical('/etc/hosts'), '/private/etc/hosts');
    assert.equal(macosCanonical('/tmpfoo'), undefined);
    assert.equal(macosCanonical('/private/tmp'), undefined);
  });
});

describe('manifest view', () => {
  const view = manifestView(
    JSON.stringify({
      home: '/home/dev',
      entries: {
        '/home/dev/project/a.txt': 'file',
        '/home/dev/cur': { symlink: 'project' },
        '/bin': { symlink: 'usr/bin' },
        '/usr/bin/git': 'file',
      },
    }),
    'm.json',
  );
  it('listed paths, their parents, and nothing else', () => {
    assert.equal(view.home, '/home/dev');
    assert.deepEqual(inspectPath(view, '/home/dev/project'), { existence: 'exists', kind: 'dir' });
    assert.deepEqual(inspectPath(view, '/home/dev/project/a.txt'), { existence: 'exists', kind: 'file' });
    assert.equal(inspectPath(view, '/home/dev/other').existence, 'absent');
  });
  it('links resolve relative to their directory', () => {
    assert.deepEqual(inspectPath(view, '/home/dev/cur/a.txt'), {
      existence: 'exists',
      kind: 'file',
      symlink: { link: '/home/dev/cur', resolved: '/home/dev/project/a.txt' },
    });
    assert.equal(inspectPath(view, '/bin/git').symlink?.resolved, '/usr/bin/git');
  });
  it('a malformed manifest is refused with the reason', () => {
    assert.throws(() => manifestView('{"home": "rel", "entries": {}}', 'bad.json'), /bad\.json: not a filesystem manifest/);
    assert.throws(() => manifestView('{', 'bad.json'), /^Error: bad\.json:1:2: not valid JSON: /);
    assert.throws(() => manifestView('{\n  "home": "/h",\n  "entries": {} x\n}', 'bad.json'), /^Error: bad\.json:3:17: not valid JSON: /);
    // JSON.parse would keep the second silently: which machine the manifest describes would be a guess.
    assert.throws(
      () => manifestView('{"home":"/h","entries":{"/a":"file","/a":"dir"}}', 'bad.json'),
      /^Error: bad\.json:1:37: the key "\/a" is given twice \(first at 1:25\): say it once$/,
    );
    assert.throws(() => manifestView('{"home":"/h","entries":{"/x":"pipe"}}', 'bad.json'), /not a filesystem manifest/);
  });
});

describe('none view', () => {
  it('knows nothing and says so', () => {
    const view = noneView('/home/dev');
    assert.equal(view.knowsFacts, false);
    assert.deepEqual(inspectPath(view, '/home/dev/project'), { existence: 'unknown' });
  });
});

describe('windowsUnmapped', () => {
  // Its quick look at each component must never clear one that windowsNameProblem refuses:
  // every component here, at every place in a path, gets the answer of the
  // mapping's definition (split the rest below the home, ask each component).
  const byDefinition = (path: string, home: string): unknown => {
    const h = home.length > 1 ? home.replace(/\/+$/, '') : home;
    const under = h === '/' ? path.startsWith('/') : path === h || path.startsWith(h + '/');
    if (!path.startsWith('/') || !under) return { kind: 'outside-home', home: h };
    for (const part of (h === '/' ? path : path.slice(h.length)).split('/').filter((c) => c !== '')) {
      const problem = windowsNameProblem(part);
      if (problem) return { kind: 'name', problem };
    }
    return undefined;
  };
  const parts = [
    'a',
    'out',
    'd19',
    'g0',
    'n20000',
    'con',
    'CON',
    'con.txt',
    'con.a.b',
    'conx',
    'nul',
    'Nul.',
    'aux1',
    'com1',
    'COM9.log',
    'com¹',
    'lpt3',
    'lpt0',
    'prn',
    'a.',
    'a ',
    ' a',
    '.a',
    '..',
    '.',
    'a:b',
    'a<b',
    'a>b',
    'a"b',
    'a|b',
    'a?b',
    'a*b',
    'a\\b',
    'tab\tx',
    'nl\nx',
    'del\u007fx',
    'é',
    'ſ',
    'K',
    'x\u0080',
    '%TEMP%',
    'c',
    'cp',
    'cpan',
    'lpt',
    'lpt12',
  ];
  const homes = ['/home/u', '/home/u/', '/', '/home//u//'];
  it('says what the definition says, for every component anywhere', () => {
    for (const home of homes)
      for (const a of parts)
        for (const b of ['', ...parts]) {
          for (const path of [
            `${home.replace(/\/+$/, '')}/${a}`,
            `${home.replace(/\/+$/, '')}/${a}/${b}`,
            `${home.replace(/\/+$/, '')}//${b}/${a}/`,
            `/elsewhere/${a}`,
            a,
          ]) {
            assert.deepEqual(windowsUnmapped(path, home), byDefinition(path, home), `${path} under ${home}`);
          }
        }
  });
});

describe('protectedHit', () => {
  // The quick answer for paths that meet no listed one must agree with the scan of the list by isUnder.
  const byDefinition = (path: string, list: ReturnType<typeof protectedPaths>): unknown => {
    const inside = list.filter((p) => (p.why === 'root' ? path === '/' : isUnder(path, p.path)));
    const exposes = list.filter((p) => p.why !== 'root' && !isUnder(path, p.path) && isUnder(p.path, path));
    return { inside, exposes };
  };
  it('says what a scan of the list says', () => {
    for (const [home, data] of [
      ['/home/u', '~/.tyba'],
      ['/home/u/', '~/.tyba/'],
      ['/', '~'],
      ['/h', 'rel/dir'],
      ['/h', '/h/.ssh/x'],
    ] as const) {
      const list = protectedPaths(home, data);
      const paths = [
        '/',
        '',
        'h',
        '//',
        '/home',
        '/home/',
        '/home/u',
        '/home/u/',
        '/home/u/.ssh',
        '/home/u/.ssh/',
        '/home/u/.ssh/id',
        '/home/u/.sshx',
        '/home/u//.ssh',
        '/home/u/.tyba',
        '/home/u/.tyba/x',
        '/home/u/.tyba//x',
        '/home/u/.config',
        '/home/u/.config/boxwright/a',
        '/home/u/src/a',
        '/h',
        '/h/.ssh',
        '/h/.ssh/x/y',
        '/h/rel/dir',
        '/rel',
        '/x/y/z',
        '/.ssh',
      ];
      for (const path of [...paths, ...paths, ...list.map((p) => p.path)])
        assert.deepEqual({ ...protectedHit(path, list) }, byDefinition(path, list), `${path} (home ${home}, data ${data})`);
    }
  });
});
