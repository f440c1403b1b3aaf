// The macOS target on the bundled examples: goldens, determinism, every
// profile read back, the rule order, and the seed rows visible in the output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompileOutcome } from '../../app/cli/compile.js';
import { FILE_SECTIONS } from '../../targets/macos/profile.js';
import { compileExample, compileText, exampleNames } from '../compile-helpers.js';
import { matchSnapshot } from '../snapshot.js';
import { pathFilters, ruleParts, shape, stringsOf } from './sbpl-reader.js';
import {
  artifactsOf,
  assertBaselineReadsOnlySystem,
  assertDeniesLast,
  assertNoContentRead,
  covers,
  expectedFilePaths,
  parseProfile,
  principalsOf,
  type Form,
  type Profile,
} from './support.js';

const compiled = new Map<string, Promise<CompileOutcome>>();
const macos = (name: string): Promise<CompileOutcome> => {
  if (!compiled.has(name)) compiled.set(name, compileExample(name, 'macos'));
  return compiled.get(name)!;
};

/** The named artifact of an example, parsed. */
async function profileOf(example: string, artifact = 'agent.sb'): Promise<Profile> {
  const a = artifactsOf(await macos(example)).find((x) => x.name === artifact);
  assert.ok(a, `${example} has no ${artifact}`);
  return parseProfile(a!.content);
}

const rulesWith = (forms: readonly Form[], action: string, op: string): Form[] =>
  forms.filter((f) => ruleParts(f).action === action && ruleParts(f).operations.includes(op));
const stem = (name: string): string => name.replace(/\.toml$/, '');

describe('macos: examples', () => {
  for (const name of exampleNames) {
    it(`${name}: golden profiles, or refused where the verdict is refused`, async () => {
      const outcome = await macos(name);
      if (!outcome.ok) {
        assert.equal(
          outcome.check.verdicts.macos,
          'refused',
          `${name} was not compiled although macOS does not refuse it: ${outcome.reason}`,
        );
        return;
      }
      assert.notEqual(outcome.check.verdicts.macos, 'refused');
      const artifacts = artifactsOf(outcome);
      const ids = principalsOf(outcome).map((p) => `${p.principal.id}.sb`);
      assert.deepEqual(
        artifacts.map((a) => a.name),
        ids,
        'one profile per principal',
      );
      for (const a of artifacts) matchSnapshot(`macos/${stem(name)}/${a.name}`, a.content);
    });
  }

  it('every compiled example reads back: balanced, fixed sections, every path literal exact', async () => {
    for (const name of exampleNames) {
      const outcome = await macos(name);
      if (!outcome.ok) continue;
      const artifacts = artifactsOf(outcome);
      for (const pa of principalsOf(outcome)) {
        const a = artifacts.find((x) => x.name === `${pa.principal.id}.sb`)!;
        const profile = parseProfile(a.content);
        assert.deepEqual(
          profile.sections.get('header')!.map((f) => f.items.map((n) => ('value' in n ? n.value : '…')).join(' ')),
          ['version 1', 'deny default'],
          `${name}/${a.name}: header forms`,
        );
        const literals = new Set(profile.fileRules.flatMap((f) => stringsOf(f)));
        assert.deepEqual(
          [...literals].sort(),
          [...expectedFilePaths(outcome, pa)].sort(),
          `${name}/${a.name}: file-rule literals are exactly the granted paths`,
        );
        // Every rule's provenance comment: the line before each file rule.
        const lines = a.content.split('\n');
        for (const f of profile.fileRules)
          assert.match(
            lines[f.line - 2]!,
            /^;; (config line \d+: [a-z_]+ = ".*"|implicit: .+)/,
            `${name}/${a.name}: rule on line ${f.line} has no origin comment`,
          );
      }
    }
  });

  it('is deterministic: compiling twice gives the same bytes', async () => {
    for (const name of exampleNames) {
      const a = await compileExample(name, 'macos');
      const b = await compileExample(name, 'macos');
      assert.equal(a.ok, b.ok);
      if (a.ok && b.ok) assert.deepEqual(artifactsOf(a), artifactsOf(b), name);
    }
  });
});

describe('macos: rule order', () => {
  it('no allow after a deny re-opens it, in every compiled example', async () => {
    for (const name of exampleNames) {
      const outcome = await macos(name);
      if (!outcome.ok) continue;
      for (const a of artifactsOf(outcome)) {
        assertDeniesLast(parseProfile(a.content), `${name}/${a.name}`);
        assertBaselineReadsOnlySystem(parseProfile(a.content), `${name}/${a.name}`);
      }
    }
  });

  it('the file sections come in the fixed order', async () => {
    const p = await profileOf('coding-agent.toml');
    const order = FILE_SECTIONS.filter((s) => p.sections.get(s)!.length > 0);
    assert.deepEqual(order, ['1) reads', '2) writes', '5) exec', '6) denies']);
    const lines = FILE_SECTIONS.flatMap((s) => p.sections.get(s)!.map((f) => f.line));
    assert.deepEqual(
      lines,
      [...lines].sort((x, y) => x - y),
    );
  });

  it('no read rule covers a write-only path, in every compiled example', async () => {
    let seen = 0;
    for (const name of exampleNames) {
      const outcome = await macos(name);
      if (!outcome.ok) continue;
      const artifacts = artifactsOf(outcome);
      for (const pa of principalsOf(outcome)) {
        const profile = parseProfile(artifacts.find((x) => x.name === `${pa.principal.id}.sb`)!.content);
        for (const ga of pa.grants) {
          const cell = ga.effective.macos;
          if (!ga.grant.path || cell.kind !== 'access' || !cell.write || cell.read) continue;
          seen++;
          assertNoContentRead(profile, ga.grant.path, `${name}/${pa.principal.id}`, cell.names);
        }
      }
    }
    assert.ok(seen >= 2, 'the examples hold write-only grants');
  });
});

describe('macos: seed rows in the profiles', () => {
  it('write-only: a write rule and no read rule for the path (seed 000, write-only content)', async () => {
    const p = await profileOf('write-only.toml');
    assert.deepEqual(
      p.sections.get('2) writes')!.map((f) => [ruleParts(f).operations, pathFilters(f)]),
      [[['file-write*'], [{ kind: 'subpath', path: '/home/dev/project' }]]],
    );
    assertNoContentRead(p, '/home/dev/project', 'write-only.toml');
    assertNoContentRead(p, '/home/dev/project/README.md', 'write-only.toml');
    // …while the child the config names is readable.
    assert.ok(rulesWith(p.fileRules, 'allow', 'file-read*').some((f) => covers(f, '/home/dev/project/src/main.py')));
  });

  it('read-file-cannot-cover-dir: the write tree gets no read beyond the literal', async () => {
    const p = await profileOf('read-file-cannot-cover-dir.toml');
    const reads = rulesWith(p.fileRules, 'allow', 'file-read*');
    assert.deepEqual(reads.flatMap(pathFilters), [{ kind: 'literal', path: '/home/dev/project/output' }]);
    assertNoContentRead(p, '/home/dev/project/output/build.log', 'read-file-cannot-cover-dir.toml');
  });

  it('list: metadata of the directory literal, and file-read-data of it only while it is a directory', async () => {
    const p = await profileOf('list-without-content.toml');
    const list = p.sections.get('3) list')!;
    assert.equal(list.length, 2);
    assert.deepEqual(ruleParts(list[0]!).operations, ['file-read-metadata', 'file-test-existence']);
    assert.deepEqual(pathFilters(list[0]!), [{ kind: 'literal', path: '/home/dev/inbox' }]);
    assert.deepEqual(ruleParts(list[1]!).operations, ['file-read-data']);
    assert.deepEqual(shape(ruleParts(list[1]!).filters[0]!), [
      { symbol: 'require-all' },
      [{ symbol: 'literal' }, { string: '/home/dev/inbox' }],
      [{ symbol: 'vnode-type' }, { symbol: 'DIRECTORY' }],
    ]);
    assertNoContentRead(p, '/home/dev/inbox/mail.eml', 'list-without-content.toml');
  });

  it('metadata: file-read-metadata on the subpath, no content', async () => {
    const p = await profileOf('metadata-agent.toml');
    const meta = p.sections.get('4) metadata')!;
    assert.equal(meta.length, 1);
    assert.deepEqual(ruleParts(meta[0]!).operations, ['file-read-metadata', 'file-test-existence']);
    assert.deepEqual(pathFilters(meta[0]!), [{ kind: 'subpath', path: '/home/dev/archive' }]);
    assertNoContentRead(p, '/home/dev/archive', 'metadata-agent.toml');
  });

  it('metadata in a tool: refused, no profile', async () => {
    const outcome = await macos('metadata-tool.toml');
    assert.equal(outcome.ok, false);
    assert.equal(outcome.check.verdicts.macos, 'refused');
  });

  it('deny of an absent path: a deny rule, last (seed 000, deny an absent path)', async () => {
    const p = await profileOf('deny-absent-path.toml');
    const denies = p.sections.get('6) denies')!;
    assert.equal(denies.length, 1);
    assert.deepEqual(ruleParts(denies[0]!).operations, [
      'file-read*',
      'file-test-existence',
      'file-write*',
      'process-exec*',
      'file-map-executable',
    ]);
    assert.deepEqual(pathFilters(denies[0]!), [{ kind: 'subpath', path: '/home/dev/project/.env.local' }]);
    assert.equal(p.forms.at(-1), denies[0], 'the deny is the last rule of the profile');
    assert.match(p.text, /deny = "~\/project\/\.env\.local"; macOS: absent today/);
  });

  it('deny of an existing file: a refusal rule, after the read of its parent', async () => {
    const p = await profileOf('deny-existing-file.toml');
    const [deny] = p.sections.get('6) denies')!;
    assert.deepEqual(pathFilters(deny!), [{ kind: 'subpath', path: '/home/dev/project/.env' }]);
    const [read] = p.sections.get('1) reads')!;
    assert.ok(read!.line < deny!.line);
  });

  it('helper execution: a tool may exec from its content grants; the agent only its exec grant', async () => {
    const tool = await profileOf('helper-execution.toml', 'tool.builder.sb');
    const exec = tool.sections.get('5) exec')!;
    assert.deepEqual(exec.flatMap(pathFilters), [
      { kind: 'subpath', path: '/home/dev/project' },
      { kind: 'subpath', path: '/home/dev/project/output' },
    ]);
    for (const f of exec) assert.deepEqual(ruleParts(f).operations, ['process-exec', 'file-map-executable']);
    const agent = await profileOf('helper-execution.toml', 'agent.sb');
    assert.deepEqual(agent.sections.get('5) exec')!.flatMap(pathFilters), [{ kind: 'literal', path: '/usr/bin/git' }]);
  });

  it('exec does not satisfy read: the agent gets exec and write on the file, one exec rule, no read rule of its own', async () => {
    const p = await profileOf('exec-does-not-satisfy-read.toml');
    const exec = p.sections.get('5) exec')!;
    assert.equal(exec.length, 1);
    assert.match(p.text.split('\n')[exec[0]!.line - 2]!, /config line 3: exec = /);
    assert.equal(p.sections.get('1) reads')!.length, 0);
    assert.deepEqual(p.sections.get('2) writes')!.flatMap(pathFilters), [{ kind: 'literal', path: '/usr/bin/python3' }]);
  });

  it('native-filesystem-policy compiles for macOS, with the macOS warning', async () => {
    const outcome = await macos('native-filesystem-policy.toml');
    assert.ok(outcome.ok);
    assert.equal(outcome.check.verdicts.macos, 'accepted-with-warnings');
    const d = outcome.check.diagnostics.find((x) => x.ruleId === 'native-fs-policy' && x.platforms.includes('macos'));
    assert.ok(d, 'the macOS warning is present');
    assert.equal(d!.severity, 'warning');
  });

  it('direct network: network-outbound to IP peers and IP sockets; the gateway only otherwise', async () => {
    for (const artifact of ['tool.fetcher.sb', 'mcp.search.sb']) {
      const p = await profileOf('direct-network.toml', artifact);
      const net = p.sections.get('network')!.map((f) => f.items.map((n) => ('value' in n ? n.value : '(…)')).join(' '));
      assert.deepEqual(net.slice(0, 3), ['deny network*', 'allow network-outbound (…)', 'allow system-socket (…) (…)'], artifact);
    }
    const agent = await profileOf('coding-agent.toml');
    const net = agent.sections.get('network')!;
    assert.equal(net.length, 2);
    assert.deepEqual(stringsOf(net[1]!), ['localhost:8080']);
    assert.match(agent.text, /default 8080/);
  });

  it('--gateway-port sets the loopback port, and a bad port is a usage error', async () => {
    const outcome = await compileExample('read-only-content.toml', 'macos', { 'gateway-port': 3128 });
    assert.match(artifactsOf(outcome)[0]!.content, /\(allow network-outbound \(remote ip "localhost:3128"\)\)/);
    await assert.rejects(compileExample('read-only-content.toml', 'macos', { 'gateway-port': 70000 }), /gateway-port/);
  });

  it('tyba: metadata everywhere, secrets denied after read_allow, metadata of denied paths kept', async () => {
    const p = await profileOf('tyba-read-allow-secret.toml');
    assert.ok(
      p.sections
        .get('4) metadata')!
        .some((f) => f.items.length === 3 && ruleParts(f).operations.join(' ') === 'file-read-metadata file-test-existence'),
      '(allow file-read-metadata file-test-existence)',
    );
    const aws = '/home/dev/.aws';
    const read = rulesWith(p.fileRules, 'allow', 'file-read*').find((f) => covers(f, aws));
    const deny = p.sections.get('6) denies')!.find((f) => covers(f, aws));
    assert.ok(read && deny && read.line < deny.line, 'the secret deny comes after the read_allow that names it');
    assert.ok(!ruleParts(deny).operations.includes('file-read-metadata') && !ruleParts(deny).operations.includes('file-read*'));
    assert.ok(ruleParts(deny).operations.includes('file-read-data'));
    // Beside the host-trusted paths of the worktree (writes only: host-trusted-path).
    const closes = p.sections.get('6) denies')!.filter((f) => ruleParts(f).operations.join(' ') !== 'file-write*');
    assert.equal(closes.length, 13, 'twelve secrets and the TYBA data directory');
    assert.match(p.text, /read_allow = "~\/\.aws"; macOS: (no effect|denials beat permissions)/);
    // The implicit grants in their macOS spelling: the temp directory is the session's own, a parameter; never a /tmp.
    assert.ok(
      rulesWith(p.fileRules, 'allow', 'file-write*').some((f) => p.text.split('\n')[f.line - 1]!.includes('(subpath (param "TMPDIR"))')),
    );
    assert.ok(!p.fileRules.some((f) => covers(f, '/tmp/x') || covers(f, '/private/tmp/x')));
  });

  it('forced: the header says so, and refused grants are left out', async () => {
    const outcome = await compileExample('metadata-tool.toml', 'macos', { force: true });
    const [a] = artifactsOf(outcome);
    assert.match(a!.content.split('\n').slice(0, 5).join('\n'), /^;; WARNING: compiled with --force/m);
    const p = parseProfile(a!.content);
    assert.equal(p.fileRules.length, 0);
    assert.match(p.text, /not emitted: macOS refuses it, metadata-in-tool/);
  });

  it('a control character never reaches a profile, even with --force', async () => {
    const outcome = await compileExample('unrepresentable-path.toml', 'macos');
    assert.equal(outcome.ok, false);
    await assert.rejects(compileExample('unrepresentable-path.toml', 'macos', { force: true }), /control character/);
  });

  it('a path written to break out of its string stays one string literal', async () => {
    const evil = '/home/dev/p/x") (allow default) (allow file-read* (subpath "/Users';
    const evil2 = '/home/dev/p/y\\") ;(allow default)';
    const text = `[agent.filesystem]\nread = [${JSON.stringify(evil)}]\ndeny = [${JSON.stringify(evil2)}]\n`;
    const outcome = await compileText(text, 'macos', { fs: 'none', home: '/home/dev' });
    const p = parseProfile(artifactsOf(outcome)[0]!.content);
    assert.deepEqual(new Set(p.fileRules.flatMap(stringsOf)), new Set([evil, evil2]));
    assert.equal(p.fileRules.length, 2);
    assert.ok(!p.forms.some((f) => ruleParts(f).operations.includes('default') && ruleParts(f).action === 'allow'), 'no (allow default)');
    assert.ok(
      p.text.includes(
        '(allow file-read* file-test-existence (subpath "/home/dev/p/x\\") (allow default) (allow file-read* (subpath \\"/Users"))',
      ),
    );
  });

  it('a principal name that would leave the output directory is refused (by the schema, before any emitter)', async () => {
    const outcome = await compileText('[tools."x/../../y".filesystem]\nread = ["~/project"]\n', 'macos');
    assert.equal(outcome.ok, false);
    assert.ok(outcome.check.diagnostics.some((d) => d.ruleId === 'schema' && d.message.includes('cannot name a principal')));
  });

  it('the workspace gets its own properties and the way to it, no content', async () => {
    const p = await profileOf('workspace.toml');
    assert.equal(p.fileRules.length, 0);
    const resolution = p.sections
      .get('resolution')!
      .flatMap(pathFilters)
      .map((f) => f.path);
    for (const d of ['/', '/home', '/home/dev', '/home/dev/work']) assert.ok(resolution.includes(d), d);
    for (const f of p.sections.get('resolution')!) assert.deepEqual(ruleParts(f).operations, ['file-read-metadata', 'file-test-existence']);
    assertNoContentRead(p, '/home/dev/work', 'workspace.toml');
  });
});
