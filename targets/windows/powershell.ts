import { descriptorCSharp } from './descriptor-cs.js';
import type { AclPlan, PlanStep } from './plan.js';

/*
 * apply.ps1 and undo.ps1: a readable PowerShell rendering of the plan.
 *
 * User data (paths, principal names) reaches the code only as single-quoted
 * literals, where PowerShell expands nothing: `$`, backticks, `%` and double
 * quotes stay data. PowerShell ends a single-quoted string at any of five
 * quote characters (' and the typographic ‘ ’ ‚ ‛), so each of them is doubled.
 * `%USERPROFILE%` and `%TEMP%` are expanded on their own literal, and the rest
 * of the path is appended as a second literal that never goes through
 * expansion. Comments never hold user data verbatim: control characters are
 * refused upstream, and line separators are escaped here anyway.
 */

const singleQuotes = /['\u2018\u2019\u201a\u201b]/g;

/** A PowerShell single-quoted literal holding exactly `value`. */
export function psQuote(value: string): string {
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new Error(`a PowerShell literal cannot hold a control character: ${JSON.stringify(value)}`);
  return `'${value.replace(singleQuotes, '$&$&')}'`;
}

/** Text safe on a `#` comment line: nothing that PowerShell could take for a line end. */
export function commentSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `# …` lines, wrapped at about 78 columns. */
function comment(text: string, indent = ''): string[] {
  const words = commentSafe(text).split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && (indent + '# ' + line + ' ' + w).length > 78) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}# ${l}`);
}

/** `(Expand-BwRoot '%USERPROFILE%') + '\rest'`: the root expanded at run time, the rest kept as data. */
function pathExpression(path: string): string {
  const m = /^(%[A-Z_]+%)(.*)$/s.exec(path);
  if (!m) throw new Error(`not a Windows plan path: ${path}`);
  const root = `Expand-BwRoot ${psQuote(m[1]!)}`;
  return m[2] ? `(${root}) + ${psQuote(m[2])}` : root;
}

function stepTitle(s: PlanStep): string {
  const where =
    s.configLine === null
      ? `implicit: ${s.source === 'secret' ? "TYBA's secret list (its platforms page)" : (s.implicit ?? s.source)}`
      : `config line ${s.configLine} (\`${s.source}\`)`;
  const who = s.principal === '*' ? 'every principal' : s.principal;
  return `${s.id} · ${s.action} · ${who} · ${where}`;
}

const helpers = String.raw`# ---- helpers (the same in apply.ps1 and undo.ps1) -------------------------
Set-StrictMode -Version 3.0
$ErrorActionPreference = 'Stop'

# Security descriptors are read and written one part at a time through
# Boxwright.Descriptor (Get/SetNamedSecurityInfo): the DACL with
# DACL_SECURITY_INFORMATION, the mandatory label with
# LABEL_SECURITY_INFORMATION. The owner, the group and the rest of the SACL
# are never written (Get-Acl | Set-Acl would write the owner back too).
if (-not ('Boxwright.Descriptor' -as [type])) {
  Add-Type -TypeDefinition @'
${descriptorCSharp}'@
}

# '%USERPROFILE%' or '%TEMP%' on this machine. Only the root goes through
# expansion: the rest of a path is a separate literal, kept as data.
function Expand-BwRoot([string]$Root) {
  $value = [Environment]::ExpandEnvironmentVariables($Root)
  if (-not $value -or $value -eq $Root) { throw "cannot expand $Root on this machine" }
  $value
}

# The object, then (for a recursive step) everything below it, breadth first,
# without following links or junctions: labelling a link would label its
# target, which may lie anywhere.
function Get-BwObjects([string]$Path, [bool]$Recurse) {
  $root = Get-Item -LiteralPath $Path -Force
  $found = [System.Collections.Generic.List[object]]::new()
  $found.Add($root)
  if ($Recurse -and $root.PSIsContainer) {
    $queue = [System.Collections.Generic.Queue[object]]::new()
    $queue.Enqueue($root)
    while ($queue.Count -gt 0) {
      foreach ($child in @(Get-ChildItem -LiteralPath ($queue.Dequeue()).FullName -Force)) {
        if (($child.Attributes -band [System.IO.FileAttributes]::ReparsePoint) -ne 0) {
          Write-Warning "skipped the link $($child.FullName): its target is not labelled"
          continue
        }
        $found.Add($child)
        if ($child.PSIsContainer) { $queue.Enqueue($child) }
      }
    }
  }
  $found
}

# The part of an object's descriptor a step changes, as SDDL: its DACL
# ("D:..."), or its mandatory label ("S:(ML;...)", "" or "S:" for none).
function Get-BwSddl([string]$Path, [string]$Section) {
  if ($Section -eq 'dacl') { [Boxwright.Descriptor]::GetDacl($Path) }
  else { [Boxwright.Descriptor]::GetLabel($Path) }
}

# Puts back what Get-BwSddl returned, that part only; a label is read back
# and must match.
function Set-BwSddl([string]$Path, [string]$Section, [string]$Sddl) {
  if ($Section -eq 'dacl') { [Boxwright.Descriptor]::SetDacl($Path, $Sddl) }
  else { [Boxwright.Descriptor]::RestoreLabel($Path, $Sddl) }
}
`;

// Two of its lines are longer than this source is wide: each is cut where the template closes and
// reopens (`` ` + String.raw` ``), so the script keeps the same bytes.
const applyHelpers =
  String.raw`
# Adds one allow ACE, given as SDDL, to the object's DACL, in canonical order,
# and writes back the DACL alone. DirectorySecurity only edits the SDDL in
# memory (it also takes a file's DACL); nothing is written through it.
function Add-BwAce([string]$Path, [string]$Ace) {
  $parsed = [System.Security.AccessControl.RawSecurityDescriptor]::new('D:' + $Ace).DiscretionaryAcl[0]
  $inherit = [System.Security.AccessControl.InheritanceFlags]::None
  if (($parsed.AceFlags -band [System.Security.AccessControl.AceFlags]::ObjectInherit) -ne 0) {` +
  String.raw` $inherit = $inherit -bor [System.Security.AccessControl.InheritanceFlags]::ObjectInherit }
  if (($parsed.AceFlags -band [System.Security.AccessControl.AceFlags]::ContainerInherit) -ne 0) {` +
  String.raw` $inherit = $inherit -bor [System.Security.AccessControl.InheritanceFlags]::ContainerInherit }
  $rule = [System.Security.AccessControl.FileSystemAccessRule]::new(
    $parsed.SecurityIdentifier,
    [System.Security.AccessControl.FileSystemRights]$parsed.AccessMask,
    [System.Security.AccessControl.InheritanceFlags]$inherit,
    [System.Security.AccessControl.PropagationFlags]::None,
    [System.Security.AccessControl.AccessControlType]::Allow)
  $dacl = [System.Security.AccessControl.DirectorySecurity]::new()
  $dacl.SetSecurityDescriptorSddlForm([Boxwright.Descriptor]::GetDacl($Path), [System.Security.AccessControl.AccessControlSections]::Access)
  $dacl.AddAccessRule($rule)
  [Boxwright.Descriptor]::SetDacl($Path, $dacl.GetSecurityDescriptorSddlForm([System.Security.AccessControl.AccessControlSections]::Access))
}

# Fills the session SID placeholders of an SDDL string.
function Resolve-BwSid([string]$Sddl) {
  for ($i = 0; $i -lt $sids.Count; $i++) { $Sddl = $Sddl.Replace('*SESSION_SID_' + ($i + 1) + '*', $sids[$i]) }
  if ($Sddl.Contains('*SESSION_SID_')) { throw "a session SID placeholder is left in $Sddl" }
  $Sddl
}

# One step: save the previous descriptor of every object it touches, then
# change them. grant-write adds an ACE to the DACL; the label actions replace
# the mandatory label (directories get -Sddl, files -FileSddl when given).
function Invoke-BwStep {
  [CmdletBinding(SupportsShouldProcess)]
  param([string]$Id, [string]$Action, [string]$Path, [string]$Sddl, [string]$FileSddl = '', [switch]$PerFile)
  if (-not (Test-Path -LiteralPath $Path)) {
    Write-Warning "$($Id): $Path does not exist; nothing to change"
    return
  }
  $section = if ($Action -eq 'grant-write') { 'dacl' } else { 'label' }
  $objects = @(Get-BwObjects $Path $PerFile.IsPresent)
  if (-not $PSCmdlet.ShouldProcess($Path, "$($Id) $($Action): $Sddl on $($objects.Count) object(s)")) { return }
  $saved = @(foreach ($o in $objects) { [pscustomobject]@{ Path = $o.FullName; Sddl = (Get-BwSddl $o.FullName $section) } })
  $saved | Export-Clixml -LiteralPath (Join-Path $BackupDir "$Id.clixml")
  foreach ($o in $objects) {
    if ($Action -eq 'grant-write') { Add-BwAce $o.FullName $Sddl }
    elseif ($FileSddl -and -not $o.PSIsContainer) { [Boxwright.Descriptor]::SetLabel($o.FullName, $FileSddl) }
    else { [Boxwright.Descriptor]::SetLabel($o.FullName, $Sddl) }
  }
  Write-Verbose "$($Id): $Action applied to $($objects.Count) object(s) under $Path"
}
`;

const undoHelpers = String.raw`
# Puts back the descriptors apply.ps1 saved for one step, then removes the
# backup. A step apply.ps1 did not reach has no backup and is skipped.
function Restore-BwStep {
  [CmdletBinding(SupportsShouldProcess)]
  param([string]$Id, [string]$Section, [string]$Path)
  $file = Join-Path $BackupDir "$Id.clixml"
  if (-not (Test-Path -LiteralPath $file)) {
    Write-Verbose "$($Id): no backup, the step was not applied"
    return
  }
  $saved = @(Import-Clixml -LiteralPath $file)
  if ($saved.Count -gt 0 -and $saved[0].Path -ne $Path) { throw "$($Id): the backup is for $($saved[0].Path), not $($Path): is $BackupDir from another plan?" }
  if (-not $PSCmdlet.ShouldProcess($Path, "$($Id): restore the saved $Section of $($saved.Count) object(s)")) { return }
  foreach ($entry in $saved) {
    if (Test-Path -LiteralPath $entry.Path) { Set-BwSddl $entry.Path $Section $entry.Sddl }
    else { Write-Warning "$($Id): $($entry.Path) no longer exists" }
  }
  Remove-Item -LiteralPath $file
}
`;

/**
 * The runtime both scripts carry, the same for every plan: the shared
 * helpers, then apply.ps1's or undo.ps1's own. Each script holds it
 * verbatim (it runs alone, with nothing beside it); the goldens and the
 * PowerShell grammar test hold it once (test/windows/support.ts).
 */
export const POWERSHELL_RUNTIME = { shared: helpers, apply: applyHelpers, undo: undoHelpers } as const;

/** The runtime text one script carries: the shared helpers and its own. */
export function runtimeOf(script: 'apply' | 'undo'): string {
  return POWERSHELL_RUNTIME.shared + POWERSHELL_RUNTIME[script];
}

function header(plan: AclPlan, what: string[]): string[] {
  const lines: string[] = [];
  for (const l of plan.header.comment) lines.push(`# ${commentSafe(l)}`);
  lines.push('#');
  for (const l of what) lines.push(l === '' ? '#' : comment(l).join('\n'));
  return lines;
}

function principalTable(plan: AclPlan): string[] {
  return plan.principals.map((p, i) => commentSafe(`#   ${i + 1}. ${p.id}  (${p.sessionSid})`));
}

/** apply.ps1: every step of the plan, in order, each saving what it changes. */
export function renderApply(plan: AclPlan): string {
  const n = plan.principals.length;
  const out: string[] = [
    ...header(plan, [
      'apply.ps1 applies the Windows ACL plan of this config (acl-plan.json beside it). It changes ' +
        'security descriptors only and launches nothing: the host product then starts each principal under a ' +
        'restricted token (Integrity Level Low; DISABLE_MAX_PRIVILEGE, LUA_TOKEN, WRITE_RESTRICTED) whose ' +
        "restricting SID is that principal's session SID.",
      '',
      n
        ? `-SessionSid: one synthetic SID (S-1-5-21-…) per principal, each its own, in this order (a comma-separated list also works from powershell -File):`
        : 'This config declares no principal: there is nothing to run and nothing to change.',
    ]),
    ...principalTable(plan),
    '#',
    ...comment(
      'Before each change the previous descriptor (DACL or label) of every object it touches is saved under ' +
        '-BackupDir; undo.ps1 restores them. -WhatIf shows each change without making it. apply.ps1 refuses to run ' +
        'over backups that undo.ps1 has not restored.',
    ),
    '#',
    ...plan.notes.flatMap((note, i) => [...(i ? ['#'] : []), ...comment(note)]),
    '#',
    `# Usage: .\\apply.ps1 -SessionSid ${n ? Array.from({ length: n }, (_, i) => `S-1-5-21-…-${i + 1}`).join(',') : '@()'} [-BackupDir DIR] [-WhatIf]`,
    '',
    '[CmdletBinding(SupportsShouldProcess)]',
    'param(',
    n ? '  [Parameter(Mandatory)][string[]]$SessionSid,' : '  [string[]]$SessionSid = @(),',
    "  [string]$BackupDir = (Join-Path $PSScriptRoot 'acl-backup')",
    ')',
    '',
    runtimeOf('apply'),
    '# ---- session SIDs ---------------------------------------------------------',
    `$principals = @(${plan.principals.map((p) => psQuote(p.id)).join(', ')})`,
    "$sids = @($SessionSid | ForEach-Object { $_ -split ',' } | ForEach-Object { $_.Trim() } | Where-Object { $_ })",
    'if ($sids.Count -ne $principals.Count) { throw "-SessionSid needs $($principals.Count) SID(s), one per ' +
      "principal in this order: $($principals -join ', ')\" }",
    'foreach ($sid in $sids) { if ($sid -notmatch \'^S-1-[0-9]+(-[0-9]+)+$\') { throw "not a SID: $sid" } }',
    "if (@($sids | Sort-Object -Unique).Count -ne $sids.Count) { throw 'each principal needs its own session SID' }",
    '',
    '# ---- backups --------------------------------------------------------------',
    'if (-not $WhatIfPreference) {',
    '  if (Test-Path -LiteralPath $BackupDir) {',
    "    if (@(Get-ChildItem -LiteralPath $BackupDir -Filter '*.clixml').Count -gt 0) { throw \"$BackupDir holds " +
      'backups of an earlier apply: run undo.ps1 first" }',
    '  } else { [System.IO.Directory]::CreateDirectory($BackupDir) | Out-Null }',
    '}',
    '',
    ...privateTempsMade(plan),
    `# ---- steps (${plan.steps.length}) ${'-'.repeat(Math.max(0, 62 - String(plan.steps.length).length))}`,
    'try {',
  ];
  for (const s of plan.steps) {
    out.push('', ...comment(stepTitle(s), '  '), ...comment(s.why, '  '));
    out.push(`  $path = ${pathExpression(s.path)}`);
    const sddl = s.action === 'grant-write' ? `(Resolve-BwSid ${psQuote(s.sddl)})` : psQuote(s.sddl);
    const extra = (s.fileSddl ? ` -FileSddl ${psQuote(s.fileSddl)}` : '') + (s.perFile ? ' -PerFile' : '');
    out.push(`  Invoke-BwStep -Id ${psQuote(s.id)} -Action ${psQuote(s.action)} -Path $path -Sddl ${sddl}${extra}`);
  }
  if (!plan.steps.length) out.push('  # No step: nothing on Windows to change for this config.');
  out.push(
    '} catch {',
    '  Write-Warning "apply.ps1 stopped: undo.ps1 restores what it changed (backups in $BackupDir)"',
    '  throw',
    '}',
    '',
    "Write-Verbose 'apply.ps1: done'",
  );
  return out.join('\n') + '\n';
}

const withTemp = (plan: AclPlan): { id: string; path: string }[] =>
  plan.principals.flatMap((p) => (p.privateTemp ? [{ id: p.id, path: p.privateTemp.path }] : []));

/**
 * apply.ps1, before the steps: each private temp directory made empty. One
 * already there is refused, never reused: an earlier apply's that undo.ps1
 * has not removed, or someone else's, whose files the principal would
 * then share.
 */
function privateTempsMade(plan: AclPlan): string[] {
  const temps = withTemp(plan);
  if (!temps.length) return [];
  const out = ['# ---- private temp directories (private_tmp = true) -----------------------'];
  for (const t of temps) {
    out.push(
      ...comment(
        `${t.id}: a temp directory of its own, empty; start ${t.id} with TMP and TEMP set to it (acl-plan.json, principals[].privateTemp)`,
      ),
    );
    out.push(`$path = ${pathExpression(t.path)}`);
    out.push(
      'if (Test-Path -LiteralPath $path) { throw "$path already exists: an earlier apply that undo.ps1 has not ' +
        'undone, or not boxwright\'s; refusing to share it" }',
      "if ($PSCmdlet.ShouldProcess($path, 'make the private temp directory')) { New-Item -ItemType Directory -Path $path | Out-Null }",
    );
  }
  return [...out, ''];
}

/**
 * undo.ps1, after the steps: each private temp directory removed, with what
 * the run left in it. Through .NET's Directory.Delete, which removes a link
 * or junction the workload made there without entering it (Remove-Item
 * -Recurse in Windows PowerShell 5.1 follows junctions into their targets).
 */
function privateTempsRemoved(plan: AclPlan): string[] {
  const temps = withTemp(plan);
  if (!temps.length) return [];
  const out = ['', '# ---- private temp directories (private_tmp = true) -----------------------'];
  for (const t of temps) {
    out.push(...comment(`${t.id}: its temp directory and what the run left there`));
    out.push(`$path = ${pathExpression(t.path)}`);
    out.push(
      "if ((Test-Path -LiteralPath $path) -and $PSCmdlet.ShouldProcess($path, 'remove the private temp " +
        "directory')) { [System.IO.Directory]::Delete($path, $true) }",
    );
  }
  return out;
}

/** undo.ps1: the steps backwards, each putting back what apply.ps1 saved. */
export function renderUndo(plan: AclPlan): string {
  const out: string[] = [
    ...header(plan, [
      'undo.ps1 restores what apply.ps1 changed: for each step, in reverse order, the descriptors (DACL or label) it ' +
        'saved under -BackupDir before changing them. A step apply.ps1 did not reach has no backup and is skipped; ' +
        'each restored backup is removed, so apply.ps1 can run again. -WhatIf shows each restore without making it.',
    ]),
    '#',
    '# Usage: .\\undo.ps1 [-BackupDir DIR] [-WhatIf]',
    '',
    '[CmdletBinding(SupportsShouldProcess)]',
    'param(',
    "  [string]$BackupDir = (Join-Path $PSScriptRoot 'acl-backup')",
    ')',
    '',
    runtimeOf('undo'),
    `# ---- steps, last first (${plan.steps.length}) ${'-'.repeat(Math.max(0, 50 - String(plan.steps.length).length))}`,
  ];
  for (const s of [...plan.steps].reverse()) {
    out.push(
      '',
      ...comment(
        `undo ${stepTitle(s)}: restore the saved ${s.undo.section === 'dacl' ? 'DACL' : 'mandatory label'}${s.perFile ? ' of each object' : ''}`,
      ),
    );
    out.push(`$path = ${pathExpression(s.path)}`);
    out.push(`Restore-BwStep -Id ${psQuote(s.id)} -Section ${psQuote(s.undo.section)} -Path $path`);
  }
  if (!plan.steps.length) out.push('', '# No step: nothing to restore.');
  out.push(...privateTempsRemoved(plan));
  out.push('', "Write-Verbose 'undo.ps1: done'");
  return out.join('\n') + '\n';
}
