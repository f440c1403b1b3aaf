// Every operation and filter name of every emitted profile (every example,
// refused ones compiled with --force) against the macOS operation and filter
// tables, targets/macos/sbpl-names.json; and the check itself on profiles
// that must fail it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baselineRules, baselineSources, directNetworkRules, notTaken, renderRule } from '../../targets/macos/baseline.js';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { nameTable, newest, profileNameProblems } from './names.js';
import { artifactsOf } from './support.js';

describe('macos: names against the operation and filter tables', () => {
  it('every operation and filter of every example profile exists and fits', async () => {
    let profiles = 0;
    for (const name of exampleNames) {
      let outcome = await compileExample(name, 'macos');
      if (!outcome.ok) outcome = await compileExample(name, 'macos', { force: true }).catch(() => outcome);
      if (!outcome.ok) continue; // a control character: nothing is ever written
      for (const a of artifactsOf(outcome)) {
        profiles++;
        assert.deepEqual(profileNameProblems(a.content), [], `${name}/${a.name}`);
      }
    }
    assert.ok(profiles >= 30, `${profiles} profiles checked`);
  });

  it('every baseline and direct-network rule on its own', () => {
    for (const r of [...baselineRules, ...directNetworkRules]) assert.deepEqual(profileNameProblems(renderRule(r)), [], r.reason);
  });

  it('rejects what is not in the tables (the check can fail)', () => {
    const bad: [string, RegExp][] = [
      ['(allow process-info* (target same-sandbox))', /target is not a filter of process-info\*/],
      ['(allow file-reed* (subpath "/usr"))', /file-reed\* is not an operation/],
      ['(allow sysctl-read (global-name "com.apple.logd"))', /global-name is not a filter of sysctl-read/],
      ['(allow signal (target same-sandboxes))', /same-sandboxes is not a named argument of target/],
      ['(allow file-read* (subpaths "/usr"))', /subpaths is not a filter/],
      ['(allow system-mac-syscall (mac-policy-name "vnguard"))', /system-mac-syscall is not an operation/],
      ['(allow file-read* (subpath (getenv-of "HOME")))', /unknown function/],
      ['(version 2)', /only \(version 1\)/],
    ];
    for (const [text, why] of bad) {
      const problems = profileNameProblems(text);
      assert.ok(
        problems.some((p) => why.test(p)),
        `${text}: ${problems.join('; ') || 'accepted'}`,
      );
    }
    // …while what the peers should have written passes.
    assert.deepEqual(
      profileNameProblems(
        '(allow process-info-pidinfo (target same-sandbox))\n(allow process-exec (literal "/bin/sh"))\n(allow network-outbound (remote ip "localhost:8080"))',
      ),
      [],
    );
  });

  it('the table holds the versions of each name, newest last', () => {
    assert.deepEqual(nameTable.versions, ['10.12', '10.13', '10.14', '10.15']);
    assert.equal(newest, '10.15');
    assert.deepEqual(nameTable.operations['file-test-existence']!.versions, ['10.13', '10.14', '10.15']);
    assert.ok(!('target' in nameTable.operations['process-info*']!.filters), 'process-info* takes no target filter');
    assert.ok('target' in nameTable.operations['process-info-pidinfo']!.filters);
  });
});

describe('macos: baseline provenance', () => {
  it('every entry has a reason and sources; every source id is described', () => {
    for (const r of [...baselineRules, ...directNetworkRules]) {
      assert.ok(r.reason.length > 10, r.reason);
      assert.ok(r.sources.length > 0 && r.sources.every((s) => s in baselineSources), r.reason);
    }
    for (const n of notTaken) {
      assert.ok(n.what && n.why && n.sources.length > 0 && n.sources.every((s) => s in baselineSources), n.what);
    }
  });

  it('an entry no peer grants says so', () => {
    for (const r of [...baselineRules, ...directNetworkRules])
      if (r.sources.includes('boxwright')) assert.deepEqual(r.sources, ['boxwright'], r.reason);
  });
});
