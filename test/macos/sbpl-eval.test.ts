// The SBPL evaluator (sbpl-eval.ts) on hand-written profiles: one test per
// point of Seatbelt's semantics it implements, each as test/macos/README.md
// cites it, so that the differential test (model-vs-sbpl.test.ts) rests on
// an evaluator whose own reading is checked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operationsNamed, OrderDependent, ProfileLoadError, SbplProfile, type Query } from './sbpl-eval.js';

const profile = (body: string, params: Record<string, string> = {}): SbplProfile => new SbplProfile(`(version 1)\n${body}\n`, params);
const file = (operation: string, path: string, vnode: Query['vnode'] = 'REGULAR-FILE'): Query => ({ operation, path, vnode });

describe('SBPL evaluator: the rules', () => {
  it('(deny default) closes what no rule opens; (allow default) opens it', () => {
    assert.equal(profile('(deny default)').allows(file('file-read-data', '/a')), false);
    assert.equal(profile('(allow default)').allows(file('file-read-data', '/a')), true);
    assert.equal(profile('(deny default)\n(allow file-read-data (literal "/a"))').allows(file('file-read-data', '/a')), true);
  });

  it('a later matching rule overrides an earlier one, for each operation', () => {
    const allowThenDeny = profile('(deny default)\n(allow file-read* (subpath "/p"))\n(deny file-read* (subpath "/p/s"))');
    assert.equal(allowThenDeny.allows(file('file-read-data', '/p/a')), true);
    assert.equal(allowThenDeny.allows(file('file-read-data', '/p/s/x')), false);
    const denyThenAllow = profile('(deny default)\n(deny file-read* (subpath "/p/s"))\n(allow file-read* (subpath "/p"))');
    assert.equal(denyThenAllow.allows(file('file-read-data', '/p/s/x')), true);
    // Per operation: a deny of writes leaves the reads of the same path alone.
    const writes = profile('(deny default)\n(allow file-read* file-write* (subpath "/p"))\n(deny file-write* (subpath "/p"))');
    assert.equal(writes.allows(file('file-read-data', '/p/a')), true);
    assert.equal(writes.allows(file('file-write-data', '/p/a')), false);
  });

  it('`op*` covers the operations it prefixes, and nothing else; aliases are resolved first', () => {
    assert.deepEqual(operationsNamed('file-read*'), ['file-read*', 'file-read-data', 'file-read-metadata', 'file-read-xattr']);
    const reads = profile('(deny default)\n(allow file-read* (subpath "/p"))');
    assert.equal(reads.allows(file('file-read-metadata', '/p/a')), true);
    assert.equal(reads.allows(file('file-test-existence', '/p/a')), false, 'file-test-existence is an operation of its own');
    assert.equal(reads.allows(file('file-write-data', '/p/a')), false);
    // sbpl_v1.scm: (define process-exec process-exec*).
    assert.equal(
      profile('(deny default)\n(allow process-exec (literal "/bin/sh"))').allows(file('process-exec-interpreter', '/bin/sh')),
      true,
    );
    assert.throws(() => profile('(allow file-raed-data)'), ProfileLoadError);
  });

  it('several filters in one rule are alternatives', () => {
    const p = profile('(deny default)\n(allow file-read-data (literal "/a") (literal "/b"))');
    assert.equal(p.allows(file('file-read-data', '/a')), true);
    assert.equal(p.allows(file('file-read-data', '/b')), true);
    assert.equal(p.allows(file('file-read-data', '/c')), false);
  });

  it('require-all, require-any and require-not combine filters', () => {
    const p = profile(
      '(deny default)\n(allow file-read-data (require-all (subpath "/p") (require-not (literal "/p/s")) (require-any (vnode-type REGULAR-FILE) (vnode-type DIRECTORY))))',
    );
    assert.equal(p.allows(file('file-read-data', '/p/a')), true);
    assert.equal(p.allows(file('file-read-data', '/p/d', 'DIRECTORY')), true);
    assert.equal(p.allows(file('file-read-data', '/p/s')), false);
    assert.equal(p.allows(file('file-read-data', '/p/sock', 'SOCKET')), false);
  });

  it('literal is the path alone, subpath the path and below at a "/" boundary, prefix a string prefix', () => {
    const lit = profile('(deny default)\n(allow file-read-data (literal "/p/d"))');
    assert.equal(lit.allows(file('file-read-data', '/p/d', 'DIRECTORY')), true);
    assert.equal(lit.allows(file('file-read-data', '/p/d/f')), false);
    const sub = profile('(deny default)\n(allow file-read-data (subpath "/p/d"))');
    assert.equal(sub.allows(file('file-read-data', '/p/d')), true);
    assert.equal(sub.allows(file('file-read-data', '/p/d/e/f')), true);
    assert.equal(sub.allows(file('file-read-data', '/p/dx')), false);
    assert.equal(profile('(deny default)\n(allow file-read-data (prefix "/p/d"))').allows(file('file-read-data', '/p/dx')), true);
  });

  it('regex is an extended regular expression over the whole path (anchors as written)', () => {
    const p = profile('(deny default)\n(allow file-read-data (regex #"^/dev/ttys[0-9]+$"))');
    assert.equal(p.allows(file('file-read-data', '/dev/ttys003', 'CHARACTER-DEVICE')), true);
    assert.equal(p.allows(file('file-read-data', '/dev/ttys', 'CHARACTER-DEVICE')), false);
    assert.equal(p.allows(file('file-read-data', '/x/dev/ttys1', 'CHARACTER-DEVICE')), false);
    // Unanchored, it matches anywhere in the path.
    assert.equal(profile('(deny default)\n(allow file-read-data (regex #"ttys"))').allows(file('file-read-data', '/x/ttys1')), true);
    assert.throws(() => profile('(allow file-read-data (regex #"[[:digit:]]"))'), ProfileLoadError);
  });

  it('vnode-type tells the kinds of object apart', () => {
    const p = profile('(deny default)\n(allow file-read-data (require-all (literal "/p") (vnode-type DIRECTORY)))');
    assert.equal(p.allows(file('file-read-data', '/p', 'DIRECTORY')), true);
    assert.equal(p.allows(file('file-read-data', '/p', 'REGULAR-FILE')), false);
  });

  it('(param "NAME") is the -D value; a profile naming a parameter nobody passed does not load', () => {
    const text = '(deny default)\n(allow file-write* (subpath (param "TMPDIR")))';
    assert.equal(
      profile(text, { TMPDIR: '/private/var/folders/x/T/s' }).allows(file('file-write-create', '/private/var/folders/x/T/s/new')),
      true,
    );
    assert.equal(profile(text, { TMPDIR: '/private/var/folders/x/T/s' }).allows(file('file-write-create', '/private/tmp/new')), false);
    assert.throws(() => profile(text), ProfileLoadError);
  });

  it('an unfiltered rule sets the fallback; a filtered rule of the other action before it is an open question, and the evaluator says so', () => {
    const net = profile('(deny default)\n(deny network*)\n(allow network-outbound (remote ip "localhost:8080"))');
    const ip = (host: string, port: number): Query => ({
      operation: 'network-outbound',
      remote: { kind: 'ip', protocol: 'tcp', host, port },
    });
    assert.equal(net.allows(ip('localhost', 8080)), true);
    assert.equal(net.allows(ip('localhost', 22)), false);
    assert.equal(net.allows(ip('*', 443)), false);
    const open = profile('(deny default)\n(deny file-read* (subpath "/s"))\n(allow file-read*)');
    assert.equal(open.allows(file('file-read-data', '/p')), true);
    assert.throws(() => open.allows(file('file-read-data', '/s/k')), OrderDependent);
  });

  it('network: (remote ip) is IP peers only; a unix socket is matched by its path', () => {
    const p = profile(
      '(deny default)\n(allow network-outbound (remote ip "*:*"))\n(allow network-outbound (remote unix-socket (path-literal "/run/x.sock")))',
    );
    assert.equal(p.allows({ operation: 'network-outbound', remote: { kind: 'ip', protocol: 'udp', host: '*', port: 53 } }), true);
    assert.equal(p.allows({ operation: 'network-outbound', path: '/run/x.sock', remote: { kind: 'unix' } }), true);
    assert.equal(p.allows({ operation: 'network-outbound', path: '/run/docker.sock', remote: { kind: 'unix' } }), false);
    // Unfiltered, network-outbound covers unix sockets too.
    assert.equal(
      profile('(deny default)\n(allow network-outbound)').allows({
        operation: 'network-outbound',
        path: '/run/docker.sock',
        remote: { kind: 'unix' },
      }),
      true,
    );
  });

  it('extension: a rule that requires one matches only a process holding it', () => {
    const p = profile('(deny default)\n(allow file-read* (require-all (regex #"^/dev/ttys[0-9]+$") (extension "com.apple.sandbox.pty")))');
    assert.equal(p.allows(file('file-read-data', '/dev/ttys001', 'CHARACTER-DEVICE')), false);
    assert.equal(p.allows({ ...file('file-read-data', '/dev/ttys001', 'CHARACTER-DEVICE'), extensions: ['com.apple.sandbox.pty'] }), true);
  });

  it('what it does not know, it refuses to guess', () => {
    assert.throws(() => profile('(allow file-read* (home-subpath "/x"))'), ProfileLoadError);
    assert.throws(() => new SbplProfile('(allow file-read*)'), ProfileLoadError);
    assert.throws(() => profile('(allow file-read* (literal "/a"))\n(deny default)'), ProfileLoadError);
  });
});
