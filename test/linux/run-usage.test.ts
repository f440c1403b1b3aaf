// `boxwright run`'s command line, as a user types it, with a cached entry
// for the config or without one: every usage error exits 2 with one clear
// message before anything runs (README: "every usage error exits 2"; the
// runner's README: exit 2 = usage), and options before CONFIG are read the
// same way by the full path and the fast path.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { boxwright, bwrapAvailable } from './support.js';

const skip = requireOrSkip(bwrapAvailable, 'bubblewrap');
const CACHED = /boxwright run: the sandbox cached in /;
const bin = join(repoRoot, 'bin', 'boxwright.cjs');

describe('boxwright run: usage errors and options before CONFIG', { skip, concurrency: 1 }, () => {
  let home = '';
  let config = '';
  let n = 0;
  const env = (): Record<string, string> => ({ XDG_CACHE_HOME: join(home, 'cache'), PASSED: 'yes' });
  const marker = (): string => join(home, 'out', `ran-${++n}`);
  const touch = (m: string): string[] => ['--', '/usr/bin/dash', '-c', `echo ran > ${m}`];

  before(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'boxwright-run-usage-')));
    mkdirSync(join(home, 'out'));
    mkdirSync(join(home, 'a-directory'));
    config = join(home, 'c.toml');
    writeFileSync(config, '[agent.filesystem]\nread = ["/usr", "~/out"]\nwrite = ["~/out"]\nexec = ["/usr/bin/dash", "/usr/bin/env"]\n');
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('options before CONFIG: --pass-env NAME CONFIG and --pass-fd N CONFIG run, on the full path and the fast path alike', async () => {
    for (const cache of ['off', 'on']) {
      for (let i = 0; i < 2; i++) {
        const r = await boxwright(['run', '--home', home, '--pass-env', 'PASSED', config, '-v', '--', '/usr/bin/env'], {
          env: { ...env(), BOXWRIGHT_RUN_CACHE: cache },
        });
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /^PASSED=yes$/m);
        if (cache === 'on' && i === 1) assert.match(r.stderr, CACHED, 'the second run is the fast path');
        if (cache === 'off') assert.doesNotMatch(r.stderr, CACHED);
      }
      const m = marker();
      const fd = await boxwright(
        [
          'run',
          '--home',
          home,
          '--pass-fd',
          '999',
          '--pass-env',
          'A',
          '--pass-env',
          'B',
          config,
          '--',
          '/usr/bin/dash',
          '-c',
          `echo ran > ${m}`,
        ],
        { env: { ...env(), BOXWRIGHT_RUN_CACHE: cache } },
      );
      // fd 999 is not open: refused by name (the option reached the run), exit 125, never an internal error.
      assert.equal(fd.status, 125, fd.stderr);
      assert.match(fd.stderr, /--pass-fd 999: the descriptor is not open; the command did not run/);
      assert.doesNotMatch(fd.stderr, /internal error/);
      assert.ok(!existsSync(m));
    }
  });

  it("--pass-fd of a number the caller left free is refused: Node's own descriptors sit there (epoll, eventfd, its pipes), never handed to the workload", async () => {
    // The caller passes nothing above stderr (support.ts's boxwright()), so 3 to 8 are Node's own in boxwright's process.
    for (const cache of ['off', 'on']) {
      for (const fd of ['3', '4', '5', '6', '7', '8']) {
        const m = marker();
        const r = await boxwright(['run', '--home', home, '--pass-fd', fd, config, ...touch(m)], {
          env: { ...env(), BOXWRIGHT_RUN_CACHE: cache },
        });
        assert.equal(r.status, 125, `--pass-fd ${fd}: ${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(
            `--pass-fd ${fd}: the descriptor is not open in boxwright's caller \\(that number is boxwright's own\\); the command did not run`,
          ),
        );
        assert.ok(!existsSync(m), `--pass-fd ${fd}: the command ran`);
      }
    }
    // The control: a descriptor the caller did open at such a number passes, and is what the caller opened.
    const passed = join(home, 'out', 'passed.txt');
    writeFileSync(passed, "the caller's file\n");
    const r = spawnSync(
      'sh',
      [
        '-c',
        `exec 4<"${passed}"; exec "$0" "$@"`,
        process.execPath,
        bin,
        'run',
        '--home',
        home,
        '--pass-fd',
        '4',
        config,
        '--',
        '/usr/bin/dash',
        '-c',
        'read line <&4; echo "$line"',
      ],
      { encoding: 'utf8', env: { ...process.env, ...env() } },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "the caller's file\n");
  });

  const usage: readonly (readonly [string, readonly string[], RegExp])[] = [
    ['a relative --home', ['--home', 'relative/dir'], /--home must be an absolute directory .*"relative\/dir"/],
    ['an empty --home', ['--home='], /--home must be an absolute directory .*""/],
    ['--home twice', ['--home', '/a', '--home', '/b'], /--home takes one value, given 2/],
    ['an unknown --fs', ['--fs', 'bogus'], /--fs takes `host` .* bogus is neither, and no such file exists/],
    ['a directory as --fs', ['--fs', '@DIR'], /--fs takes `host` .*is a directory/],
    ['a relative --gateway-socket', ['--gateway-socket', 'g.sock'], /--gateway-socket must be an absolute path, not "g\.sock"/],
    ['an unknown --principal', ['--principal', 'bogus'], /--principal must be agent, tool.NAME or mcp.NAME/],
    ['--landlock maybe', ['--landlock', 'maybe'], /--landlock takes "on", "off", not "maybe"/],
    ['--dialect bogus', ['--dialect', 'bogus'], /--dialect takes "box", "tyba", "srt", "claude", "codex", "cursor", "vscode", not "bogus"/],
    ['--pass-fd abc', ['--pass-fd', 'abc'], /--pass-fd takes a descriptor number above 2/],
    ['--pass-fd 1', ['--pass-fd', '1'], /--pass-fd takes a descriptor number above 2/],
    ['an unknown option', ['--bogus'], /unknown option --bogus/],
  ];

  for (const cached of [false, true]) {
    it(`every usage error exits 2 before anything runs, one line, no stack trace (${cached ? 'with' : 'without'} a cached entry)`, async () => {
      if (cached) {
        assert.equal((await boxwright(['run', '--home', home, config, '--', '/usr/bin/dash', '-c', 'true'], { env: env() })).status, 0);
        assert.match(
          (await boxwright(['run', '--home', home, config, '-v', '--', '/usr/bin/dash', '-c', 'true'], { env: env() })).stderr,
          CACHED,
        );
      }
      for (const [what, options, message] of usage) {
        const m = marker();
        // The rows about --home give their own; the others run with the test's home.
        const ownHome = options.some((o) => o.startsWith('--home'));
        const argv = [
          'run',
          ...(ownHome ? [] : ['--home', home]),
          ...options.map((o) => o.replace('@DIR', join(home, 'a-directory'))),
          config,
          ...touch(m),
        ];
        const r = await boxwright(argv, { env: env() });
        assert.equal(r.status, 2, `${what}: ${r.stderr}`);
        assert.match(r.stderr, /^boxwright run: /, what);
        assert.match(r.stderr, message, what);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${what}: no stack trace`);
        assert.ok(r.stderr.trim().split('\n').length <= 2, `${what}: the message and at most the pointer to --help: ${r.stderr}`);
        assert.ok(!existsSync(m), `${what}: the command never ran`);
      }
    });
  }

  it('a usage error comes before an unreadable config', async () => {
    const r = await boxwright(['run', '--fs', 'bogus', join(home, 'missing.toml'), '--', '/usr/bin/true'], { env: env() });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--fs takes/);
  });
});
