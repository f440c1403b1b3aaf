// The rule catalog: every rule, in documentation order. The engine iterates
// this list and knows no rule by name; the ids and the facts each rule
// explains are read off it.
import type { Fact, FactKind } from '../../model/index.js';
import type { Explains, Rule } from './engine.js';
import { agentNetworkTable } from '../agent-network-table.js';
import { denyAbsentPath } from '../deny-absent-path.js';
import { denyAncestorsPinned } from '../deny-ancestors-pinned.js';
import { denyFileSubstitution } from '../deny-file-substitution.js';
import { denyOpenToOthers } from '../deny-open-to-others.js';
import { denyLabelShared } from '../deny-label-shared.js';
import { directNetwork } from '../direct-network.js';
import { execDependencies } from '../exec-dependencies.js';
import { execMemory } from '../exec-memory.js';
import { execNotConfined } from '../exec-not-confined.js';
import { fileEntryOnDirectory } from '../file-entry-on-directory.js';
import { hostTrustedPath } from '../host-trusted-path.js';
import { ipv6Socket } from '../ipv6-socket.js';
import { listWithoutContent } from '../list-without-content.js';
import { loaderDirExec } from '../loader-dir-exec.js';
import { lowLabelExposure } from '../low-label-exposure.js';
import { metadataEverywhere } from '../metadata-everywhere.js';
import { metadataInTool } from '../metadata-in-tool.js';
import { metadataTree } from '../metadata-tree.js';
import { missingPath } from '../missing-path.js';
import { nativeFsPolicy } from '../native-fs-policy.js';
import { noWindowsPath } from '../no-windows-path.js';
import { noncanonicalPath } from '../noncanonical-path.js';
import { privateTemp } from '../private-temp.js';
import { landlockUnavailable } from '../landlock-unavailable.js';
import { processInfo } from '../process-info.js';
import { protectedPath } from '../protected-path.js';
import { readAllowInert } from '../read-allow-inert.js';
import { schema } from '../schema.js';
import { secretNotGrantable } from '../secret-not-grantable.js';
import { sharedTempWrite } from '../shared-temp-write.js';
import { socketInReadGrant } from '../socket-in-read-grant.js';
import { suppression } from '../suppression.js';
import { symlinkEntry } from '../symlink-entry.js';
import { tomlSyntax } from '../toml-syntax.js';
import { jsonSyntax } from '../json-syntax.js';
import { unknownSetting } from '../unknown-setting.js';
import { codexFullAccess } from '../codex-full-access.js';
import { codexNetwork } from '../codex-network.js';
import { codexProfileMissing } from '../codex-profile-missing.js';
import { codexWritableRoot } from '../codex-writable-root.js';
import { codexNestedNone } from '../codex-nested-none.js';
import { cursorSandbox } from '../cursor-sandbox.js';
import { vscodeSandbox } from '../vscode-sandbox.js';
import { duplicateKey } from '../duplicate-key.js';
import { globPattern } from '../glob-pattern.js';
import { absentPath } from '../absent-path.js';
import { readDenyScratch } from '../read-deny-scratch.js';
import { denyReadReopened } from '../deny-read-reopened.js';
import { mandatoryDeny } from '../mandatory-deny.js';
import { sandboxOff } from '../sandbox-off.js';
import { sandboxBypass } from '../sandbox-bypass.js';
import { socketEscape } from '../socket-escape.js';
import { hostCommand } from '../host-command.js';
import { violationsIgnored } from '../violations-ignored.js';
import { platformIgnored } from '../platform-ignored.js';
import { managedOnlySetting } from '../managed-only.js';
import { toolExecWidening } from '../tool-exec-widening.js';
import { trustedFileWritable } from '../trusted-file-writable.js';
import { unrepresentablePath } from '../unrepresentable-path.js';
import { windowsOpenReads } from '../windows-open-reads.js';
import { workspaceNoContent } from '../workspace-no-content.js';
import { workspaceUnavailable } from '../workspace-unavailable.js';
import { writeExecOverlap } from '../write-exec-overlap.js';
import { writeOnly } from '../write-only.js';

export const allRules = [
  tomlSyntax,
  schema,
  writeOnly,
  listWithoutContent,
  fileEntryOnDirectory,
  denyAbsentPath,
  denyFileSubstitution,
  denyAncestorsPinned,
  denyOpenToOthers,
  metadataTree,
  metadataInTool,
  toolExecWidening,
  loaderDirExec,
  workspaceNoContent,
  workspaceUnavailable,
  symlinkEntry,
  noncanonicalPath,
  missingPath,
  protectedPath,
  trustedFileWritable,
  hostTrustedPath,
  socketInReadGrant,
  directNetwork,
  agentNetworkTable,
  ipv6Socket,
  processInfo,
  execMemory,
  execNotConfined,
  execDependencies,
  writeExecOverlap,
  landlockUnavailable,
  nativeFsPolicy,
  windowsOpenReads,
  readAllowInert,
  secretNotGrantable,
  metadataEverywhere,
  privateTemp,
  sharedTempWrite,
  lowLabelExposure,
  denyLabelShared,
  noWindowsPath,
  unrepresentablePath,
  suppression,
  // sandbox-runtime and Claude Code settings (docs/dialects/)
  jsonSyntax,
  unknownSetting,
  duplicateKey,
  sandboxOff,
  sandboxBypass,
  socketEscape,
  hostCommand,
  violationsIgnored,
  globPattern,
  absentPath,
  readDenyScratch,
  denyReadReopened,
  mandatoryDeny,
  platformIgnored,
  managedOnlySetting,
  // Codex's config.toml (docs/dialects/codex.md)
  codexFullAccess,
  codexNetwork,
  codexProfileMissing,
  codexWritableRoot,
  codexNestedNone,
  // Cursor's sandbox.json and VS Code's agent sandbox settings (linted by app/check-peers.ts)
  cursorSandbox,
  vscodeSandbox,
] as const satisfies readonly Rule[];

/** A registered rule's id. */
export type RuleId = (typeof allRules)[number]['meta']['id'];

const ids: ReadonlySet<string> = new Set(allRules.map((r) => r.meta.id));

export function isRuleId(id: string): id is RuleId {
  return ids.has(id);
}

/** The rule of a registered id. */
export function ruleById(id: RuleId): Rule {
  return (allRules as readonly Rule[]).find((r) => r.meta.id === id)!;
}

const explainers = new Map<FactKind, { readonly ruleId: RuleId; readonly text: (fact: never) => string }>();
for (const rule of allRules as readonly Rule<RuleId>[]) {
  for (const [kind, text] of Object.entries(rule.explains ?? {}) as [FactKind, NonNullable<Explains[FactKind]>][]) {
    if (explainers.has(kind)) throw new Error(`rules ${explainers.get(kind)!.ruleId} and ${rule.meta.id} both explain ${kind}`);
    explainers.set(kind, { ruleId: rule.meta.id, text: text as (fact: never) => string });
  }
}

/** The rule that explains a model fact, and its words for it (explain's footnotes, the artifacts' notes). */
export function explanation(fact: Fact): { readonly ruleId: RuleId; readonly text: string } {
  const e = explainers.get(fact.kind);
  if (!e) throw new Error(`no rule explains the model fact ${fact.kind}`);
  return { ruleId: e.ruleId, text: e.text(fact as never) };
}

/** The fact kinds some rule explains (the test holds them equal to model/facts.ts's list). */
export function explainedKinds(): readonly FactKind[] {
  return [...explainers.keys()];
}
