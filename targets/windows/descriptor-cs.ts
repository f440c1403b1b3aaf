/*
 * The C# that apply.ps1 and undo.ps1 load with Add-Type: the one place that
 * reads and writes security descriptors. Each call names the one part it
 * changes, so the rest of the descriptor is never rewritten:
 *
 * - the DACL through GetNamedSecurityInfo / SetNamedSecurityInfo with
 *   DACL_SECURITY_INFORMATION (and PROTECTED_ or UNPROTECTED_DACL_… as the
 *   SDDL's `P` flag says, so a restored DACL keeps its protection). Get-Acl |
 *   Set-Acl would write the owner and group back too, which fails with "The
 *   security identifier is not allowed to be the owner of this object" when
 *   the owner is one the caller may not set (ansible/ansible#20555).
 * - the mandatory label through LABEL_SECURITY_INFORMATION: WRITE_OWNER on
 *   the object, no privilege (the whole SACL would need SeSecurityPrivilege).
 *   An object without a label reads as "" (no SACL came back) or "S:" (an
 *   empty one); either way it has no label, and restoring "" or "S:" removes
 *   the label. RestoreLabel checks the label read back afterwards.
 *
 * Compiled by mono-mcs in the tests (test/independent/csharp.test.ts).
 * Its one line longer than this source is wide is cut where the template
 * closes and reopens (`` ` + String.raw` ``): the text keeps the same bytes.
 */
export const descriptorCSharp =
  String.raw`using System;
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
        uint info = DACL_SECURITY_INFORMATION | ((control & SE_DACL_PROTECTED) != 0 ?` +
  String.raw` PROTECTED_DACL_SECURITY_INFORMATION : UNPROTECTED_DACL_SECURITY_INFORMATION);
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
`;
