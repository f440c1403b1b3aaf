// What `boxwright run` prints after a JIT runtime's abort (exit 133): the
// command line to run instead, as a shell reads it back, that needs no
// variable in boxwright's own environment (`--pass-env NAME=VALUE`), and the
// environment that form gives the command (targets/linux/run/sandbox/outcome.ts,
// targets/run/env.ts, targets/linux/run/sandbox/run-request.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { afterStatus, jitlessCommand, shellWord } from '../../targets/linux/run/sandbox/outcome.js';
import { passEnvList, RunUsageError } from '../../targets/linux/run/sandbox/run-request.js';
import { sandboxEnv } from '../../targets/run/env.js';

describe('the JIT remedy: the command line, changed', () => {
  it('node itself: --jitless after it', () => {
    assert.equal(jitlessCommand(['run', 'c.toml', '--', 'node', '-e', '1']), 'boxwright run c.toml -- node --jitless -e 1');
    assert.equal(
      jitlessCommand(['run', 'c.toml', '--', '/usr/bin/node20', 'a b.js']),
      "boxwright run c.toml -- /usr/bin/node20 --jitless 'a b.js'",
    );
  });
  it('a program that starts node: NODE_OPTIONS set for the command alone, once', () => {
    assert.equal(
      jitlessCommand(['run', 'c.toml', '--', 'node_modules/.bin/tsc', '-p', '.']),
      'boxwright run c.toml --pass-env NODE_OPTIONS=--jitless -- node_modules/.bin/tsc -p .',
    );
    assert.equal(
      jitlessCommand(['run', '--pass-env', 'NODE_OPTIONS', 'c.toml', '-v', '--', 'npm', 'test']),
      'boxwright run c.toml -v --pass-env NODE_OPTIONS=--jitless -- npm test',
    );
    assert.equal(
      jitlessCommand(['run', '--pass-env=NODE_OPTIONS=--max-old-space-size=99', 'c.toml', '--', 'npm']),
      'boxwright run c.toml --pass-env NODE_OPTIONS=--jitless -- npm',
    );
    assert.equal(jitlessCommand(['lint', 'c.toml']), undefined);
  });
  it('the words survive a shell', () => {
    for (const w of ["it's", 'a b', '$HOME', '`x`', '', 'plain-1.2/x=y', '*', '\\']) {
      const back = spawnSync('sh', ['-c', `printf %s ${shellWord(w)}`], { encoding: 'utf8' }).stdout;
      assert.equal(back, w, shellWord(w));
    }
  });
  it('the message after exit 133 carries it; another runtime keeps its own remedy', () => {
    assert.match(
      afterStatus(133, ['node_modules/.bin/tsc'], ['run', 'c.toml', '--', 'node_modules/.bin/tsc'])!,
      /: boxwright run c\.toml --pass-env NODE_OPTIONS=--jitless -- node_modules\/\.bin\/tsc$/,
    );
    assert.match(afterStatus(133, ['java', '-jar', 'x.jar'], ['run', 'c.toml', '--', 'java', '-jar', 'x.jar'])!, /-Xint/);
    assert.equal(afterStatus(1, ['node'], ['run', 'c.toml', '--', 'node']), undefined);
  });
});

describe('--pass-env NAME=VALUE', () => {
  it('one operand, commas and all; names split at commas', () => {
    assert.deepEqual(passEnvList(['A,B', 'NODE_OPTIONS=--a,--b']), ['A', 'B', 'NODE_OPTIONS=--a,--b']);
    assert.throws(() => passEnvList(['=x']), RunUsageError);
  });
  it("sets the variable for the command over the caller's, and lets no other through", () => {
    const { env, withheld } = sandboxEnv({ PATH: '/bin', NODE_OPTIONS: '--inspect', SECRET: 's' }, ['NODE_OPTIONS=--jitless']);
    assert.deepEqual(env, { PATH: '/bin', NODE_OPTIONS: '--jitless' });
    assert.deepEqual(withheld, ['SECRET']);
  });
});
