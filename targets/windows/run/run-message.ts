import type { AclPlan } from '../plan.js';
import { validateAclPlan } from '../plan-validator.js';

/** An acl-plan.json read back, checked against its schema: a plan that does not fit is an error, never half-printed. */
export function parseAclPlan(text: string): AclPlan {
  const data: unknown = JSON.parse(text);
  if (!validateAclPlan(data)) {
    const e = validateAclPlan.errors?.[0];
    throw new Error(`not an ACL plan: ${e?.instancePath || '/'} ${e?.message ?? ''}`.trim());
  }
  return data as AclPlan;
}

/**
 * What `boxwright run CONFIG -- CMD…` prints on Windows, where it applies
 * nothing and starts nothing.
 *
 * On Linux and macOS the runner launches the command inside the compiled
 * sandbox. On Windows the sandbox is a restricted token that the host
 * product creates when it launches each principal, over descriptors that
 * must be changed (and later restored) with the user's rights: boxwright
 * does not do either itself. So it prints the plan it would apply, then
 * says plainly that it has not applied it and how to: compile the plan,
 * run apply.ps1 with one session SID per principal, let the host product
 * launch each principal under its restricted token, run undo.ps1 after.
 * The command given after `--` is not started. A pure function of the plan.
 */
export function windowsRunMessage(plan: AclPlan): string {
  const out: string[] = [];
  const config = plan.header.config;
  out.push(`boxwright run: Windows ACL plan for ${config} (sha256 ${plan.header.configSha256})`);
  if (plan.header.forced)
    out.push('WARNING: compiled with --force although Windows REFUSES this config; the plan does not enforce what it asks.');
  out.push('');
  const t = plan.token;
  out.push(
    `token: ${t.type}, Integrity Level ${t.integrityLevel} (${t.integrityLevelSid}), ${t.flags.join(', ')}; one synthetic session SID per principal:`,
  );
  if (!plan.principals.length) out.push('  (no principal: nothing would run)');
  plan.principals.forEach((p, i) =>
    out.push(
      `  ${i + 1}. ${p.id}  ${p.sessionSid}${
        p.privateTemp ? `  (private_tmp: apply.ps1 makes ${p.privateTemp.path}; start it with TMP and TEMP set to it)` : ''
      }`,
    ),
  );
  out.push('');
  out.push(`steps (${plan.steps.length}), in order:`);
  for (const s of plan.steps) {
    const where = s.configLine === null ? 'implicit' : `line ${s.configLine}`;
    const who = s.principal === '*' ? 'every principal' : s.principal;
    out.push(
      `  ${s.id}  ${s.action.padEnd(11)}  ${s.path}  ` +
        `${s.sddl}${s.fileSddl ? ` (files: ${s.fileSddl})` : ''}${s.recursive ? ', recursively, file by file' : ''}  [${who}, ${where}]`,
    );
  }
  if (plan.leftOut.length) {
    out.push('', `left out of the plan (${plan.leftOut.length}):`);
    for (const l of plan.leftOut)
      out.push(`  ${l.configLine === null ? 'implicit' : `line ${l.configLine}`}  ${l.source} ${l.posixPath ?? l.written}: ${l.reason}`);
  }
  if (plan.noEffect.length) {
    out.push('', `no effect on Windows (${plan.noEffect.length}):`);
    for (const n of plan.noEffect)
      out.push(`  ${n.configLine === null ? 'implicit' : `line ${n.configLine}`}  ${n.source} ${n.written}: ${n.reason}`);
  }
  out.push('', 'reads stay open: everything not labelled deny-read is readable by the sandbox.');
  if (plan.readable.length) {
    out.push('credential files that stay readable:');
    for (const r of plan.readable) out.push(`  ${r.path ?? r.posixPath}${r.existence === 'unknown' ? ' (if it exists)' : ''}`);
  }
  const n = plan.principals.length;
  const sids = n ? Array.from({ length: n }, (_, i) => `S-1-5-21-…-${i + 1}`).join(',') : '';
  out.push(
    '',
    'boxwright has NOT applied this plan and has NOT started the command: on Windows it does not change',
    'security descriptors or create restricted tokens itself. To run the command under this plan:',
    `  1. boxwright compile ${config} --target windows --out DIR     (acl-plan.json, apply.ps1, undo.ps1)`,
    n
      ? `  2. powershell -ExecutionPolicy Bypass -File DIR\\apply.ps1 -SessionSid ${sids}`
      : '  2. nothing to apply: the config declares no principal',
    ...(n ? ['     one fresh synthetic SID per principal, in the order above; -WhatIf previews every change'] : []),
    '  3. the host product launches each principal under a restricted token at Integrity Level Low',
    '     (DISABLE_MAX_PRIVILEGE, LUA_TOKEN, WRITE_RESTRICTED) with its session SID as restricting SID',
    '  4. afterwards, DIR\\undo.ps1 restores every descriptor apply.ps1 changed',
  );
  return out.join('\n') + '\n';
}
