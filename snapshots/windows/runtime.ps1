# ---- helpers (the same in apply.ps1 and undo.ps1) -------------------------
Set-StrictMode -Version 3.0
$ErrorActionPreference = 'Stop'

# Security descriptors are read and written one part at a time through
# Boxwright.Descriptor (Get/SetNamedSecurityInfo): the DACL with
# DACL_SECURITY_INFORMATION, the mandatory label with
# LABEL_SECURITY_INFORMATION. The owner, the group and the rest of the SACL
# are never written (Get-Acl | Set-Acl would write the owner back too).
if (-not ('Boxwright.Descriptor' -as [type])) {
  Add-Type -TypeDefinition @'
using System;
using System.ComponentModel;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
namespace Boxwright {
  public static class Descriptor {
    const int SE_FILE_OBJECT = 1;
    const uint DACL_SECURITY_INFORMATION = 0x4;
    const uint LABEL_SECURITY_INFORMATION = 0x10;
    const uint PROTECTED_DACL_SECURITY_INFORMATION = 0x80000000;
    const uint UNPROTECTED_DACL_SECURITY_INFORMATION = 0x20000000;
    const uint SDDL_REVISION_1 = 1;
    const ushort SE_DACL_PROTECTED = 0x1000;
    const uint ACL_REVISION = 2;
    [DllImport("advapi32.dll", CharSet = CharSet.Unicode)]
    static extern uint GetNamedSecurityInfoW(string name, int type, uint info, IntPtr owner, IntPtr group, IntPtr dacl, IntPtr sacl, out IntPtr sd);
    [DllImport("advapi32.dll", CharSet = CharSet.Unicode)]
    static extern uint SetNamedSecurityInfoW(string name, int type, uint info, IntPtr owner, IntPtr group, IntPtr dacl, IntPtr sacl);
    [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
    static extern bool ConvertStringSecurityDescriptorToSecurityDescriptorW(string sddl, uint revision, out IntPtr sd, IntPtr size);
    [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
    static extern bool ConvertSecurityDescriptorToStringSecurityDescriptorW(IntPtr sd, uint revision, uint info, out IntPtr text, IntPtr size);
    [DllImport("advapi32.dll", SetLastError = true)]
    static extern bool GetSecurityDescriptorSacl(IntPtr sd, out bool present, out IntPtr sacl, out bool defaulted);
    [DllImport("advapi32.dll", SetLastError = true)]
    static extern bool GetSecurityDescriptorDacl(IntPtr sd, out bool present, out IntPtr dacl, out bool defaulted);
    [DllImport("advapi32.dll", SetLastError = true)]
    static extern bool GetSecurityDescriptorControl(IntPtr sd, out ushort control, out uint revision);
    [DllImport("advapi32.dll", SetLastError = true)]
    static extern bool InitializeAcl(IntPtr acl, uint length, uint revision);
    [DllImport("kernel32.dll")]
    static extern IntPtr LocalFree(IntPtr mem);

    static IntPtr Read(string path, uint info) {
      IntPtr sd;
      uint rc = GetNamedSecurityInfoW(path, SE_FILE_OBJECT, info, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out sd);
      if (rc != 0) throw new Win32Exception((int)rc, path);
      return sd;
    }

    static string Text(IntPtr sd, uint info, string path) {
      IntPtr text;
      if (!ConvertSecurityDescriptorToStringSecurityDescriptorW(sd, SDDL_REVISION_1, info, out text, IntPtr.Zero))
        throw new Win32Exception(Marshal.GetLastWin32Error(), path);
      try { return Marshal.PtrToStringUni(text); } finally { LocalFree(text); }
    }

    static IntPtr Parse(string sddl) {
      IntPtr sd;
      if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, out sd, IntPtr.Zero))
        throw new Win32Exception(Marshal.GetLastWin32Error(), sddl);
      return sd;
    }

    // The object's DACL as SDDL, "D:..." with its control flags (P, AI).
    public static string GetDacl(string path) {
      IntPtr sd = Read(path, DACL_SECURITY_INFORMATION);
      try { return Text(sd, DACL_SECURITY_INFORMATION, path); } finally { LocalFree(sd); }
    }

    // Replaces the object's DACL, and nothing else, with the one "D:..." holds.
    public static void SetDacl(string path, string sddl) {
      if (!sddl.StartsWith("D:")) throw new ArgumentException("not a DACL: " + sddl);
      IntPtr sd = Parse(sddl);
      try {
        IntPtr dacl;
        bool present, defaulted;
        ushort control;
        uint revision;
        if (!GetSecurityDescriptorDacl(sd, out present, out dacl, out defaulted) || !present) throw new ArgumentException("no DACL in " + sddl);
        if (!GetSecurityDescriptorControl(sd, out control, out revision)) throw new Win32Exception(Marshal.GetLastWin32Error(), sddl);
        uint info = DACL_SECURITY_INFORMATION | ((control & SE_DACL_PROTECTED) != 0 ? PROTECTED_DACL_SECURITY_INFORMATION : UNPROTECTED_DACL_SECURITY_INFORMATION);
        uint rc = SetNamedSecurityInfoW(path, SE_FILE_OBJECT, info, IntPtr.Zero, IntPtr.Zero, dacl, IntPtr.Zero);
        if (rc != 0) throw new Win32Exception((int)rc, path);
      } finally { LocalFree(sd); }
    }

    // The object's mandatory label: "S:(ML;...)", "S:" for an empty label
    // SACL, "" when no SACL came back at all.
    public static string GetLabel(string path) {
      IntPtr sd = Read(path, LABEL_SECURITY_INFORMATION);
      try {
        IntPtr sacl;
        bool present, defaulted;
        if (!GetSecurityDescriptorSacl(sd, out present, out sacl, out defaulted)) throw new Win32Exception(Marshal.GetLastWin32Error(), path);
        if (!present || sacl == IntPtr.Zero) return "";
        string s = Text(sd, LABEL_SECURITY_INFORMATION, path);
        return s.StartsWith("S:") ? s : "S:" + s;
      } finally { LocalFree(sd); }
    }

    // Replaces the object's mandatory label; "" or "S:" removes it.
    public static void SetLabel(string path, string sddl) {
      if (sddl != "" && !sddl.StartsWith("S:")) throw new ArgumentException("not a label: " + sddl);
      IntPtr sd = Parse(sddl == "" ? "S:" : sddl);
      IntPtr empty = IntPtr.Zero;
      try {
        IntPtr sacl;
        bool present, defaulted;
        if (!GetSecurityDescriptorSacl(sd, out present, out sacl, out defaulted)) throw new Win32Exception(Marshal.GetLastWin32Error(), sddl);
        if (!present || sacl == IntPtr.Zero) {
          // An ACL with no entry: what removes the label.
          empty = Marshal.AllocHGlobal(8);
          if (!InitializeAcl(empty, 8, ACL_REVISION)) throw new Win32Exception(Marshal.GetLastWin32Error(), "InitializeAcl");
          sacl = empty;
        }
        uint rc = SetNamedSecurityInfoW(path, SE_FILE_OBJECT, LABEL_SECURITY_INFORMATION, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, sacl);
        if (rc != 0) throw new Win32Exception((int)rc, path);
      } finally {
        LocalFree(sd);
        if (empty != IntPtr.Zero) Marshal.FreeHGlobal(empty);
      }
    }

    // The label ACEs of a label SDDL, in order: "" and "S:" have none.
    public static string LabelAces(string sddl) {
      StringBuilder aces = new StringBuilder();
      foreach (Match m in Regex.Matches(sddl, @"\([^()]*\)")) aces.Append(m.Value);
      return aces.ToString();
    }

    // Puts back a label GetLabel saved, and checks that the object now
    // carries exactly the saved label ACEs (none for "" and "S:").
    public static void RestoreLabel(string path, string saved) {
      SetLabel(path, saved);
      string now = GetLabel(path);
      if (LabelAces(now) != LabelAces(saved))
        throw new InvalidOperationException(path + ": the label read back is '" + now + "', not the saved '" + saved + "'");
    }
  }
}
'@
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

# Adds one allow ACE, given as SDDL, to the object's DACL, in canonical order,
# and writes back the DACL alone. DirectorySecurity only edits the SDDL in
# memory (it also takes a file's DACL); nothing is written through it.
function Add-BwAce([string]$Path, [string]$Ace) {
  $parsed = [System.Security.AccessControl.RawSecurityDescriptor]::new('D:' + $Ace).DiscretionaryAcl[0]
  $inherit = [System.Security.AccessControl.InheritanceFlags]::None
  if (($parsed.AceFlags -band [System.Security.AccessControl.AceFlags]::ObjectInherit) -ne 0) { $inherit = $inherit -bor [System.Security.AccessControl.InheritanceFlags]::ObjectInherit }
  if (($parsed.AceFlags -band [System.Security.AccessControl.AceFlags]::ContainerInherit) -ne 0) { $inherit = $inherit -bor [System.Security.AccessControl.InheritanceFlags]::ContainerInherit }
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
