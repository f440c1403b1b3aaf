/**
 * SARIF's `properties.security-severity` of each rule (issue 40): the
 * number GitHub code scanning ranks security findings by (0.1–3.9 low,
 * 4.0–6.9 medium, 7.0–8.9 high, 9.0 and above critical). It is sized by
 * what a finding of the rule exposes, from two things: the rule's worst
 * severity (its meta) and the kind of exposure below, written here for
 * every rule by name (test/rules/formats.test.ts refuses a rule left out).
 *
 * |                  | error | warning | info |
 * | host-execution   | 9.0   | 6.9     | 3.9  |
 * | exposure         | 8.0   | 5.5     | 2.5  |
 * | other            | 7.0   | 4.0     | 1.0  |
 *
 * - host-execution: something runs as the user outside the sandbox, or
 *   the sandbox is off or can be left (a hook, an unsandboxed retry, a
 *   writable file the host executes or trusts after the run).
 * - exposure: a principal reads, writes or reaches more than the config
 *   seems to say: a secret, another principal's paths, the host's shared
 *   temp, a socket, the network past the gateway, a deny that hides
 *   nothing.
 * - other: the platform refuses the config or it means something other
 *   than written (syntax, schema, a path that does not exist, a feature a
 *   platform lacks): no exposure by itself, but not the sandbox reviewed.
 */
import type { Severity } from '../../compiler/diagnostic.js';

export type ExposureKind = 'host-execution' | 'exposure' | 'other';

const scale: Record<ExposureKind, Record<Severity, string>> = {
  'host-execution': { error: '9.0', warning: '6.9', info: '3.9' },
  exposure: { error: '8.0', warning: '5.5', info: '2.5' },
  other: { error: '7.0', warning: '4.0', info: '1.0' },
};

const hostExecution = [
  'trusted-file-writable',
  'host-trusted-path',
  'host-command',
  'sandbox-off',
  'sandbox-bypass',
  'socket-escape',
  'mandatory-deny',
  'codex-full-access',
  'cursor-sandbox',
  'vscode-sandbox',
];

const exposure = [
  'secret-not-grantable',
  'protected-path',
  'codex-writable-root',
  'deny-open-to-others',
  'windows-open-reads',
  'low-label-exposure',
  'socket-in-read-grant',
  'shared-temp-write',
  'direct-network',
  'codex-network',
  'deny-read-reopened',
  'absent-path',
  'glob-pattern',
];

const other = [
  'toml-syntax',
  'json-syntax',
  'schema',
  'write-only',
  'list-without-content',
  'file-entry-on-directory',
  'deny-absent-path',
  'deny-file-substitution',
  'deny-ancestors-pinned',
  'metadata-tree',
  'metadata-in-tool',
  'tool-exec-widening',
  'loader-dir-exec',
  'workspace-no-content',
  'workspace-unavailable',
  'symlink-entry',
  'noncanonical-path',
  'missing-path',
  'agent-network-table',
  'ipv6-socket',
  'process-info',
  'exec-memory',
  'exec-not-confined',
  'exec-dependencies',
  'write-exec-overlap',
  'landlock-unavailable',
  'native-fs-policy',
  'read-allow-inert',
  'metadata-everywhere',
  'private-temp',
  'deny-label-shared',
  'no-windows-path',
  'unrepresentable-path',
  'suppression',
  'unknown-setting',
  'duplicate-key',
  'violations-ignored',
  'read-deny-scratch',
  'platform-ignored',
  'managed-only',
  'codex-profile-missing',
  'codex-nested-none',
];

const kinds = new Map<string, ExposureKind>([
  ...hostExecution.map((id) => [id, 'host-execution'] as const),
  ...exposure.map((id) => [id, 'exposure'] as const),
  ...other.map((id) => [id, 'other'] as const),
]);

/** The rule's kind of exposure; undefined for a rule this table does not name (a test refuses that). */
export function exposureKind(ruleId: string): ExposureKind | undefined {
  return kinds.get(ruleId);
}

/** The rule's security-severity, a numeric string; a rule not named here counts as host-execution (fail closed: ranked high, never hidden). */
export function securitySeverity(ruleId: string, worst: Severity): string {
  return scale[kinds.get(ruleId) ?? 'host-execution'][worst];
}
