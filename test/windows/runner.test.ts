import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAclPlan, windowsRunMessage } from '../../targets/windows/run/run-message.js';
import { windowsExample } from './support.js';

describe('windows runner message', () => {
  it('prints the plan, says it applies nothing, and how to apply it', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    const text = windowsRunMessage(plan);
    assert.match(text, /^boxwright run: Windows ACL plan for examples\/coding-agent\.toml/);
    for (const s of plan.steps) assert.ok(text.includes(`${s.id}  ${s.action}`), s.id);
    assert.match(text, /boxwright has NOT applied this plan and has NOT started the command/);
    assert.match(text, /apply\.ps1 -SessionSid S-1-5-21-…-1,S-1-5-21-…-2,S-1-5-21-…-3/);
    assert.match(text, /1\. agent {2}\*SESSION_SID_1\*/);
    assert.match(text, /restricted token at Integrity Level Low/);
    assert.match(text, /undo\.ps1 restores/);
    assert.match(text, /%USERPROFILE%\\\.terraformrc/);
    assert.equal(windowsRunMessage(plan), text, 'pure');
    assert.ok(text.endsWith('\n'));
  });

  it('names what is left out and what has no effect', async () => {
    const { plan } = await windowsExample('windows-path.toml');
    const text = windowsRunMessage(plan);
    assert.match(text, /left out of the plan \(1\):\n {2}line 5 {2}write \/srv\/out: outside the home/);
    assert.match(text, /no effect on Windows \(1\):/);
  });

  it("private_tmp: the principal's own temp directory, which apply.ps1 makes, with TMP and TEMP; the plan with it validates", async () => {
    const { plan } = await windowsExample('private-temp.toml');
    const text = windowsRunMessage(plan);
    assert.match(
      text,
      /1\. agent {2}\*SESSION_SID_1\* {2}\(private_tmp: apply\.ps1 makes %TEMP%\\boxwright-tmp-agent; start it with TMP and TEMP set to it\)/,
    );
    assert.match(text, /2\. tool\.formatter {2}\*SESSION_SID_2\*\n/, 'the tool keeps the default: no temp directory');
    assert.deepEqual(parseAclPlan(JSON.stringify(plan)), plan);
    const wrong = { ...plan, principals: [{ ...plan.principals[0], privateTemp: { path: 'C:\\tmp', env: { TMP: 'x', TEMP: 'x' } } }] };
    assert.throws(() => parseAclPlan(JSON.stringify(wrong)), /not an ACL plan: \/principals\/0\/privateTemp/);
  });

  it('a forced plan says so', async () => {
    const { plan } = await windowsExample('metadata-tool.toml', { force: true });
    assert.match(windowsRunMessage(plan), /WARNING: compiled with --force/);
  });

  it('a plan read back is checked against acl-plan.schema.json, never cast', async () => {
    const { plan } = await windowsExample('coding-agent.toml');
    const text = JSON.stringify(plan);
    assert.deepEqual(parseAclPlan(text), plan);
    const broken = { ...plan, steps: [{ ...plan.steps[0], action: 'grant-everything' }] };
    assert.throws(() => parseAclPlan(JSON.stringify(broken)), /not an ACL plan: \/steps\/0\/action/);
    const { principals: _gone, ...incomplete } = plan;
    assert.throws(() => parseAclPlan(JSON.stringify(incomplete)), /not an ACL plan/);
  });
});
