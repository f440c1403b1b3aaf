// The policy as data: seccomp.json's form, parsing it back, and the mistakes
// resolvePolicy refuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  boxwrightPolicy,
  checkPolicy,
  compileSeccomp,
  policyToJson,
  resolvePolicy,
  SeccompPolicyError,
  syscallNumber,
  type Rule,
  type SeccompPolicy,
} from '../../targets/linux/seccomp/index.js';
import { parsePolicy } from '../support/seccomp/parse-policy.js';

const base = (rules: Rule[], extra: Partial<SeccompPolicy> = {}): SeccompPolicy => ({
  version: 1,
  defaultAction: 'allow',
  arches: ['x86_64', 'aarch64'],
  foreignAbi: { action: { errno: 'ENOSYS' }, reason: 'test' },
  rules,
  ...extra,
});

const refuses = (policy: SeccompPolicy, re: RegExp): void =>
  assert.throws(
    () => checkPolicy(policy),
    (e: unknown) => e instanceof SeccompPolicyError && e.problems.some((p) => re.test(p)),
    String(re),
  );

describe('seccomp.json', () => {
  const json = compileSeccomp().policyJson;

  it('is 2-space indented JSON with a trailing newline and a fixed key order', () => {
    assert.ok(json.endsWith('}\n') && !json.endsWith('\n\n'));
    assert.match(json, /^\{\n {2}"version": 1,\n {2}"defaultAction": "allow",\n {2}"arches": \[/);
    const parsed = JSON.parse(json) as { rules: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(parsed), ['version', 'defaultAction', 'arches', 'foreignAbi', 'rules']);
    for (const r of parsed.rules) {
      const keys = Object.keys(r);
      assert.deepEqual(keys, ['id', 'reason', 'syscalls', ...(r.arches ? ['arches'] : []), ...(r.when ? ['when'] : []), 'action']);
    }
  });

  it('does not depend on the order the policy object was built in', () => {
    const p = boxwrightPolicy();
    const shuffled = JSON.parse(
      JSON.stringify({ rules: p.rules, foreignAbi: p.foreignAbi, arches: p.arches, defaultAction: p.defaultAction, version: p.version }),
    ) as SeccompPolicy;
    assert.equal(policyToJson(shuffled), json);
  });

  it('parses back into the same policy', () => {
    assert.deepEqual(parsePolicy(JSON.parse(json)), boxwrightPolicy());
  });

  it('holds the seed’s rules with their constants by name', () => {
    const parsed = JSON.parse(json) as { rules: { id: string; syscalls: string[]; when?: unknown; action: unknown }[] };
    const rule = (id: string) => parsed.rules.find((r) => r.id === id);
    assert.deepEqual(rule('socket-families')?.when, { arg: 0, width: 32, op: 'not-in', values: ['AF_UNIX', 'AF_INET'] });
    assert.deepEqual(rule('socket-families')?.action, { errno: 'EAFNOSUPPORT' });
    assert.deepEqual(rule('mmap-write-exec')?.when, {
      arg: 2,
      width: 32,
      op: 'masked-eq',
      mask: 'PROT_WRITE|PROT_EXEC',
      value: 'PROT_WRITE|PROT_EXEC',
    });
    assert.deepEqual(rule('pkey-mprotect')?.syscalls, ['pkey_mprotect']);
    assert.equal(rule('pkey-mprotect')?.when, undefined);
  });

  it('every rule has a one-line reason and every arg test is 32 bits wide', () => {
    for (const r of boxwrightPolicy().rules) {
      assert.ok(r.reason.length > 10 && !r.reason.includes('\n'), r.id);
      if (r.when) assert.equal(r.when.width, 32);
      assert.notEqual(r.action, undefined);
    }
  });
});

describe('policy validation', () => {
  const ok: Rule = { id: 'ok', reason: 'fine', syscalls: ['socket'], action: { errno: 'EPERM' } };

  it('accepts boxwright’s policy on both arches', () => checkPolicy(boxwrightPolicy()));

  it('refuses unknown names', () => {
    refuses(base([{ ...ok, syscalls: ['sokcet'] }]), /x86_64 has no syscall sokcet/);
    refuses(base([{ ...ok, syscalls: ['fork'] }]), /aarch64 has no syscall fork/);
    refuses(base([{ ...ok, action: { errno: 'EWHATEVER' } }]), /unknown errno EWHATEVER/);
    refuses(base([{ ...ok, when: { arg: 0, width: 32, op: 'eq', value: 'AF_INET|AF_NOPE' } }]), /unknown constant "AF_NOPE"/);
  });

  it('refuses unreachable rules and duplicates', () => {
    refuses(base([ok, { ...ok, id: 'later', when: { arg: 0, width: 32, op: 'eq', value: 2 } }]), /unreachable for socket, rule ok/);
    refuses(base([ok, { ...ok, syscalls: ['bind'] }]), /duplicate id/);
    refuses(base([{ ...ok, syscalls: ['socket', 'socket'] }]), /names socket twice/);
    refuses(base([{ ...ok, syscalls: [] }]), /names no syscall/);
  });

  it('refuses tests that cannot work', () => {
    refuses(base([{ ...ok, when: { arg: 0, width: 64 as 32, op: 'eq', value: 1 } }]), /width 64 is not 32/);
    refuses(base([{ ...ok, when: { arg: 6 as 0, width: 32, op: 'eq', value: 1 } }]), /arg 6 is not 0..5/);
    refuses(base([{ ...ok, when: { arg: 0, width: 32, op: 'masked-any', mask: 0 } }]), /mask 0/);
    refuses(base([{ ...ok, when: { arg: 0, width: 32, op: 'masked-eq', mask: 2, value: 3 } }]), /outside the mask/);
    refuses(base([{ ...ok, when: { arg: 0, width: 32, op: 'not-in', values: [] } }]), /needs values/);
    refuses(base([{ ...ok, when: { arg: 0, width: 32, op: 'not-in', values: [1, 'AF_UNIX'] } }]), /repeats/);
    refuses(base([{ ...ok, when: { arg: 0, width: 32, op: 'eq', value: 2 ** 32 } }]), /not a 32-bit/);
  });

  it('refuses a policy that would stop bwrap from exec’ing the workload', () => {
    refuses(base([{ ...ok, syscalls: ['execve'] }]), /must not refuse execve/);
    refuses(base([], { defaultAction: { errno: 'EPERM' } }), /execve needs an unconditional allow rule/);
    checkPolicy(base([{ ...ok, syscalls: ['execve'], action: 'allow' }], { defaultAction: { errno: 'EPERM' } }));
  });

  it('refuses bad ids and reasons', () => {
    refuses(base([{ ...ok, id: 'Not Kebab' }]), /kebab-case/);
    refuses(base([{ ...ok, reason: 'two\nlines' }]), /one non-empty line/);
  });

  it('resolves names to each arch’s numbers', () => {
    for (const arch of ['x86_64', 'aarch64'] as const) {
      const r = resolvePolicy(boxwrightPolicy(), arch);
      assert.ok(r.bySyscall.has(syscallNumber(arch, 'socket')!));
      const keys = [...r.bySyscall.keys()];
      assert.deepEqual(
        keys,
        [...keys].sort((a, b) => a - b),
      );
    }
    assert.equal(syscallNumber('x86_64', 'process_vm_readv'), 310);
    assert.equal(syscallNumber('aarch64', 'process_vm_writev'), 271);
    assert.equal(syscallNumber('x86_64', 'mount_setattr'), 442);
    assert.equal(syscallNumber('aarch64', 'fsopen'), 430);
  });
});

describe('parsePolicy', () => {
  it('reports every shape error at once', () => {
    assert.throws(
      () => parsePolicy({ version: 2, arches: ['mips'], rules: [{ id: 1, syscalls: 'read', action: {} }] }),
      (e: unknown) =>
        e instanceof SeccompPolicyError &&
        ['version', 'unknown arch "mips"', 'rules[0].id', 'rules[0].syscalls', 'rules[0].action.errno', 'foreignAbi'].every((w) =>
          e.problems.some((p) => p.includes(w)),
        ),
    );
  });
});
