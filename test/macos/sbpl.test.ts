// The SBPL primitives (escaping, regex literals, comments), the tests' own
// reader, and the runner's argv.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TargetError } from '../../targets/target.js';
import { baselineRules, directNetworkRules, notTaken, renderedBaseline, renderRule } from '../../targets/macos/baseline.js';
import { sandboxExecArgv } from '../../targets/macos/run/sandbox-exec-argv.js';
import { commentText, sbplRegex, sbplString, UnrepresentableError } from '../../targets/macos/sbpl.js';
import { readSbpl, SbplSyntaxError, shape, stringsOf } from './sbpl-reader.js';

describe('macos: sbplString', () => {
  it('escapes backslash and double quote, and nothing else', () => {
    assert.equal(sbplString('/a/b'), '"/a/b"');
    assert.equal(sbplString('/a"b'), '"/a\\"b"');
    assert.equal(sbplString('/a\\b'), '"/a\\\\b"');
    assert.equal(sbplString('/a\\"b'), '"/a\\\\\\"b"');
    assert.equal(sbplString('/a;b (c) #"d" é 日本 🙂'), '"/a;b (c) #\\"d\\" é 日本 🙂"');
  });

  it('round-trips through the reader', () => {
    for (const s of ['/x', '/"', '/\\', '/\\"', '/""\\\\', '/;(#"', '/é/日本/🙂', '/ a b ', '/\u2028\u0085']) {
      const parsed = readSbpl(`(allow file-read* (literal ${sbplString(s)}))`);
      assert.equal(parsed.forms.length, 1);
      assert.deepEqual(stringsOf(parsed.forms[0]!), [s]);
    }
  });

  it('refuses every control character, and lone surrogates', () => {
    for (let c = 0; c < 0x20; c++) assert.throws(() => sbplString(`/a${String.fromCharCode(c)}b`), UnrepresentableError);
    assert.throws(() => sbplString('/a\u007fb'), UnrepresentableError);
    assert.throws(() => sbplString('/a\ud800b'), UnrepresentableError);
    assert.ok(new UnrepresentableError('x') instanceof TargetError, 'the CLI reports it as a message, not a stack trace');
  });
});

describe('macos: regex literals and comments', () => {
  it('escapes every ERE metacharacter of the fixed prefix', () => {
    assert.equal(sbplRegex('/dev/ttys', '[0-9]+$'), '#"^/dev/ttys[0-9]+$"');
    assert.equal(sbplRegex('/a.b+c(d)[e]{f}|g?h*i^j$k\\l', ''), '#"^/a\\.b\\+c\\(d\\)\\[e\\]\\{f\\}\\|g\\?h\\*i\\^j\\$k\\\\l"');
  });

  it('refuses what a regex literal cannot hold', () => {
    assert.throws(() => sbplRegex('/a"b', ''));
    assert.throws(() => sbplRegex('/a\nb', ''));
    assert.throws(() => sbplRegex('/a', '"'));
    assert.throws(() => sbplRegex('/a', '\\'));
  });

  it('keeps comments on one line', () => {
    assert.equal(commentText('a\nb\rc\u0000d\u2028e'), 'a\\u{000A}b\\u{000D}c\\u{0000}d\\u{2028}e');
    const text = `;; ${commentText('x\n(allow default)')}\n(version 1)`;
    assert.equal(readSbpl(text).forms.length, 1);
  });
});

describe('macos: baseline data', () => {
  it('has one reason per rule and renders to balanced SBPL', () => {
    assert.ok(baselineRules.length >= 10);
    const text = renderedBaseline.map((b) => `;; ${b.reason}\n${b.sbpl}`).join('\n');
    const parsed = readSbpl(text);
    assert.equal(parsed.forms.length, baselineRules.length);
    assert.equal(parsed.comments.length, baselineRules.length);
    // Allows, and the one deny that takes back part of a wildcard (mach-host*'s port setting).
    for (const [i, f] of parsed.forms.entries()) assert.deepEqual(shape(f.items[0]!), { symbol: baselineRules[i]!.action ?? 'allow' });
    assert.deepEqual(
      baselineRules.filter((r) => r.action === 'deny').map((r) => r.operations),
      [['mach-host-special-port-set', 'mach-host-exception-port-set']],
    );
  });

  it("holds what the issues list (the peers' baselines, issue 16)", () => {
    const text = [...renderedBaseline.map((b) => b.sbpl), ...directNetworkRules.map(renderRule)].join('\n');
    for (const needle of [
      '(allow process-fork)',
      '(allow signal (target same-sandbox))',
      '(sysctl-name "hw.ncpu")',
      '(global-name "com.apple.system.opendirectoryd.libinfo")',
      '(global-name "com.apple.cfprefsd.daemon")',
      '(global-name "com.apple.cfprefsd.agent")',
      '(global-name "com.apple.system.logger")',
      '(global-name "com.apple.logd")',
      '(allow ipc-posix-sem)',
      '(allow user-preference-read)',
      '(allow pseudo-tty)',
      '(literal "/dev/ptmx")',
      '(regex #"^/dev/ttys[0-9]+$")',
      '(literal "/dev/null")',
      '(literal "/dev/zero")',
      '(literal "/dev/random")',
      '(literal "/dev/urandom")',
      '(literal "/dev/tty")',
      '(subpath "/usr/lib")',
      '(subpath "/System/Library")',
      '(subpath "/System/Volumes/Preboot/Cryptexes/OS/System/Library/dyld")',
      '(subpath "/private/var/db/dyld")',
      // issue 16: what both peers found necessary
      '(global-name "com.apple.system.notification_center")',
      '(global-name "com.apple.system.opendirectoryd.membership")',
      '(global-name "com.apple.bsd.dirhelper")',
      '(global-name "com.apple.trustd.agent")',
      '(global-name "com.apple.SecurityServer")',
      '(global-name "com.apple.PowerManagement.control")',
      '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
      '(allow file-read* file-test-existence (literal "/"))',
      '(allow mach-host*)',
      '(subpath "/dev/fd")',
      '(literal "/dev/stdin")',
      '(literal "/dev/dtracehelper")',
      '(literal "/private/etc/localtime")',
      '(literal "/private/etc/passwd")',
      '(literal "/private/etc/services")',
      '(subpath "/private/etc/ssl")',
      '(literal "/private/etc/zshenv")',
      '(subpath "/usr/share")',
      '(subpath "/private/var/db/timezone")',
      '(subpath "/Library/Developer/CommandLineTools")',
      '(subpath "/Applications/Xcode.app/Contents/Developer")',
      // direct network: TLS and the network configuration
      '(global-name "com.apple.ocspd")',
      '(global-name "com.apple.SystemConfiguration.configd")',
    ])
      assert.ok(text.includes(needle), `baseline lacks ${needle}`);
    for (const sysctl of [
      'sysctl.proc_cputype',
      'kern.osproductversion',
      'kern.osvariant_status',
      'kern.usrstack64',
      'hw.activecpu',
      'hw.cpufamily',
      'hw.cachelinesize_compat',
      'hw.logicalcpu_max',
    ])
      assert.ok(text.includes(`(sysctl-name "${sysctl}")`), sysctl);
    assert.ok(text.includes('(sysctl-name-prefix "net.routetable.")'));
    // A prefix of every pid or process group would list every process.
    for (const prefix of ['kern.proc.pid.', 'kern.proc.pgrp.']) assert.ok(!text.includes(`(sysctl-name-prefix "${prefix}")`), prefix);
    assert.match(text, /\(allow file-read\* file-test-existence file-map-executable\n {2}\(subpath "\/usr\/lib"\)/);
  });

  it('process information: target only where the tables allow it, and no listing of every process', () => {
    const text = renderedBaseline.map((b) => b.sbpl).join('\n');
    assert.ok(!text.includes('process-info*'), 'process-info* takes no target filter');
    assert.match(text, /\(allow process-info-pidinfo [a-z- ]+ \(target same-sandbox\)\)/);
    assert.ok(!text.includes('process-info-listpids') && !text.includes('kern.proc.all'));
    assert.ok(
      notTaken.some((n) => n.what.includes('process-info-listpids')),
      'the data says why not',
    );
  });
});

describe("macos: the tests' SBPL reader", () => {
  it('reads strings, regexes, symbols and comments', () => {
    const p = readSbpl(';; c1\n(allow a (literal "x\\"y\\\\z") (regex #"^a\\.b$")) ; c2\n(version 1)');
    assert.equal(p.forms.length, 2);
    assert.deepEqual(shape(p.forms[0]!), [
      { symbol: 'allow' },
      { symbol: 'a' },
      [{ symbol: 'literal' }, { string: 'x"y\\z' }],
      [{ symbol: 'regex' }, { regex: '^a\\.b$' }],
    ]);
    assert.deepEqual(
      p.comments.map((c) => [c.line, c.text]),
      [
        [1, ';; c1'],
        [2, '; c2'],
      ],
    );
  });

  it('refuses unbalanced, unterminated and ill-escaped input', () => {
    for (const bad of ['(allow', '(allow))', ')', '(a "x)', '(a "x\\n")', '(a #"x)', '"top"', 'sym', '(a "x\ny")'])
      assert.throws(() => readSbpl(bad), SbplSyntaxError, bad);
  });
});

describe('macos: sandboxExecArgv', () => {
  it('runs the command under sandbox-exec -f PROFILE --', () => {
    assert.deepEqual(sandboxExecArgv('/out/agent.sb', ['/bin/sh', '-c', 'echo hi']), {
      file: '/usr/bin/sandbox-exec',
      args: ['-f', '/out/agent.sb', '--', '/bin/sh', '-c', 'echo hi'],
    });
    assert.deepEqual(sandboxExecArgv('p.sb', ['-n']).args, ['-f', 'p.sb', '--', '-n'], 'a command starting with - is not an option');
  });

  it('refuses an empty command', () => {
    assert.throws(() => sandboxExecArgv('/out/agent.sb', []), /empty/);
    assert.throws(() => sandboxExecArgv('/out/agent.sb', ['']), /empty/);
    assert.throws(() => sandboxExecArgv('', ['/bin/true']), /profile/);
    assert.throws(() => sandboxExecArgv('/p.sb', ['/bin/echo', 'a\u0000b']), /NUL/);
  });
});

describe('macos: profile parameters', () => {
  it('-D NAME=VALUE come before -f, sorted; a bad name is refused', () => {
    assert.deepEqual(sandboxExecArgv('/out/agent.sb', ['/bin/true'], { TMPDIR: '/private/var/folders/x/T' }).args, [
      '-D',
      'TMPDIR=/private/var/folders/x/T',
      '-f',
      '/out/agent.sb',
      '--',
      '/bin/true',
    ]);
    assert.throws(() => sandboxExecArgv('/out/agent.sb', ['/bin/true'], { 'A=B': 'x' }), /not a profile parameter name/);
  });
});
