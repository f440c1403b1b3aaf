// The rule catalog: every rule, in documentation order. The engine iterates
// this list and knows no rule by name.
import type { Rule } from './engine.js';
import { agentNetworkTable } from './agent-network-table.js';
import { denyAbsentPath } from './deny-absent-path.js';
import { denyFileSubstitution } from './deny-file-substitution.js';
import { directNetwork } from './direct-network.js';
import { execMemory } from './exec-memory.js';
import { execNotConfined } from './exec-not-confined.js';
import { ipv6Socket } from './ipv6-socket.js';
import { listWithoutContent } from './list-without-content.js';
import { loaderDirExec } from './loader-dir-exec.js';
import { lowLabelExposure } from './low-label-exposure.js';
import { metadataEverywhere } from './metadata-everywhere.js';
import { metadataInTool } from './metadata-in-tool.js';
import { metadataTree } from './metadata-tree.js';
import { missingPath } from './missing-path.js';
import { nativeFsPolicy } from './native-fs-policy.js';
import { noWindowsPath } from './no-windows-path.js';
import { noncanonicalPath } from './noncanonical-path.js';
import { privateTemp } from './private-temp.js';
import { processInfo } from './process-info.js';
import { protectedPath } from './protected-path.js';
import { readAllowInert } from './read-allow-inert.js';
import { schema } from './schema.js';
import { secretNotGrantable } from './secret-not-grantable.js';
import { suppression } from './suppression.js';
import { symlinkEntry } from './symlink-entry.js';
import { tomlSyntax } from './toml-syntax.js';
import { toolExecWidening } from './tool-exec-widening.js';
import { unrepresentablePath } from './unrepresentable-path.js';
import { windowsOpenReads } from './windows-open-reads.js';
import { workspaceNoContent } from './workspace-no-content.js';
import { writeOnly } from './write-only.js';

export const allRules: readonly Rule[] = [
  tomlSyntax,
  schema,
  writeOnly,
  listWithoutContent,
  denyAbsentPath,
  denyFileSubstitution,
  metadataTree,
  metadataInTool,
  toolExecWidening,
  loaderDirExec,
  workspaceNoContent,
  symlinkEntry,
  noncanonicalPath,
  missingPath,
  protectedPath,
  directNetwork,
  agentNetworkTable,
  ipv6Socket,
  processInfo,
  execMemory,
  execNotConfined,
  nativeFsPolicy,
  windowsOpenReads,
  readAllowInert,
  secretNotGrantable,
  metadataEverywhere,
  privateTemp,
  lowLabelExposure,
  noWindowsPath,
  unrepresentablePath,
  suppression,
];
