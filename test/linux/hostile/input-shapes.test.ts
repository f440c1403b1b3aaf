// Attack 6 of issue 34: input that crashed commands. A grant path of 60,000
// components made lint, explain and compile exit 2 with `internal error:
// Maximum call stack size exceeded` (inspectPath recursed once per
// ancestor); a config of 5,000 tools made compile fail with `internal
// error: boxwright-sandbox --vet failed: the views on stdin: too many` (a
// fixed array of 256 views in vet.c). Each now gets an answer: the deep
// path a positioned error (longer than any platform takes), the wide
// config its diagnostics and its artifacts.
//
// The control for the deep path: inspectPath's old recursion, kept here as
// it was (one frame per ancestor), overflows the stack on the very path.
// For the views there is no sensible control of a removed fixed array (the
// built program is the new one): the test gives --vet 5,001 views, and
// `compile` 301 principals, past the old 256, and checks the last one was
// read.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { artifactStem } from '../../../targets/target.js';
import { vet } from '../../../targets/linux/run/sandbox/vet.js';
import { compileText } from '../../compile-helpers.js';
import { boxwright } from '../support.js';
import { skip } from './support.js';

const COMPONENTS = 60_000;
const TOOLS = 5_000;

describe('hostile input: deep and wide configs get an answer, never an internal error (issue 34, attack 6)', {
  skip,
  concurrency: 1,
}, () => {
  let dir = '';
  let deep = '';
  let wide = '';
  let wideSmall = '';
  const deepPath = `~/${Array.from({ length: COMPONENTS }, () => 'a').join('/')}`;
  const toolsText = (n: number): string =>
    `[agent.filesystem]\nread = ["/usr"]\n${Array.from({ length: n }, (_, i) => `[tools.t${i}.filesystem]\nread = ["/usr"]\n`).join('')}`;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'boxwright-input-shapes-'));
    deep = join(dir, 'deep.toml');
    writeFileSync(deep, `[agent.filesystem]\nread = ["/usr"]\nwrite = ["${deepPath}"]\n`);
    wide = join(dir, 'wide.toml');
    writeFileSync(wide, toolsText(TOOLS));
    // Past the old 256 views, small enough that compile's launcher copies stay a few hundred MB.
    wideSmall = join(dir, 'wide-300.toml');
    writeFileSync(wideSmall, toolsText(300));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const noInternalError = (r: { stdout: string; stderr: string }): void => {
    assert.doesNotMatch(r.stderr, /internal error|Maximum call stack|RangeError/, r.stderr.slice(0, 2000));
  };
  const positioned =
    /deep\.toml:3:10 {2}error {2}unrepresentable-path {2}\[macos,linux,windows\] {2}path is \d+ characters long: no platform takes a path longer than 32767/;

  it('a write grant of 60,000 components: lint, explain and compile say where and why (exit 1), in seconds', async () => {
    for (const args of [['lint'], ['explain'], ['compile', '--target', 'linux', '--out', join(dir, 'out-deep')]]) {
      const started = Date.now();
      const r = await boxwright([args[0]!, deep, '--home', dir, ...args.slice(1)]);
      noInternalError(r);
      assert.equal(r.status, 1, `${args[0]}: ${r.stderr.slice(0, 500)}`);
      assert.match(r.stdout + r.stderr, positioned, args[0]);
      assert.ok(Date.now() - started < 60_000, `${args[0]} took ${Date.now() - started} ms`);
    }
  });

  it("control: inspectPath's old recursion (one frame per ancestor) overflows the stack on that path", () => {
    const path = deepPath.replace('~', dir);
    const memo = new Map<string, string>();
    const oldInspect = (p: string): string => {
      const hit = memo.get(p);
      if (hit) return hit;
      const slash = p.lastIndexOf('/');
      const facts = slash > 0 ? oldInspect(p.slice(0, slash)) : 'dir';
      memo.set(p, facts);
      return facts;
    };
    assert.throws(() => oldInspect(path), RangeError);
  });

  it('5,000 tools: lint and explain answer (exit 0)', async () => {
    const lint = await boxwright(['lint', wide, '--home', dir, '--platform', 'linux']);
    noInternalError(lint);
    assert.equal(lint.status, 0, lint.stderr.slice(0, 500));
    assert.match(lint.stdout, /0 errors, \d+ warnings?, \d+ info/);
    const explain = await boxwright(['explain', wide, '--home', dir]);
    noInternalError(explain);
    assert.equal(explain.status, 0, explain.stderr.slice(0, 500));
    assert.match(explain.stdout, new RegExp(`tool\\.t${TOOLS - 1}`));
  });

  it("5,000 tools: every principal's compiled view goes through boxwright-sandbox --vet, which answers", async () => {
    const outcome = await compileText(toolsText(TOOLS), 'linux', { home: dir });
    assert.ok(outcome.ok, 'compiled');
    const views = outcome.artifacts
      .filter((a) => a.name.endsWith('.bwrap.args'))
      .map((a) => ({ principal: a.name.slice(0, -'.bwrap.args'.length), args: Buffer.from(a.content) }));
    assert.equal(views.length, TOOLS + 1);
    assert.ok(views.some((v) => v.principal === artifactStem(`tool.t${TOOLS - 1}`)));
    // A file under /usr is reached by no view: no finding, and above all no failure.
    assert.deepEqual(vet({ views, files: ['/usr/bin/env'], trees: ['/usr/lib'] }), []);
    // And a view that writes /usr is found, the last of 5,001: every view was read.
    const writer = { principal: 'writer', args: Buffer.from('--bind\0/usr\0/usr\0') };
    assert.deepEqual(vet({ views: [...views, writer], files: ['/usr/bin/env'] }), [
      { kind: 'reach', path: '/usr/bin/env', principal: 'writer', dest: '/usr' },
    ]);
  });

  it('a malformed view on stdin is refused with its number, not a crash', () => {
    const bad = { principal: 'bad', args: Buffer.from('--frobnicate\0') };
    assert.throws(
      () => vet({ views: [{ principal: 'ok', args: Buffer.from('--ro-bind\0/usr\0/usr\0') }, bad], files: ['/usr'] }),
      /the views on stdin: view 2 \(bad\): "--frobnicate" is not an option a compiled view holds/,
    );
  });

  it('300 tools (past the old 256 views): `boxwright compile` writes every launcher', async () => {
    const out = join(dir, 'out-wide');
    const r = await boxwright(['compile', wideSmall, '--home', dir, '--target', 'linux', '--out', out]);
    noInternalError(r);
    assert.equal(r.status, 0, r.stderr.slice(0, 500));
    const written = readdirSync(out);
    assert.equal(written.filter((f) => f.endsWith('.run')).length, 301);
    rmSync(out, { recursive: true, force: true });
  });
});
