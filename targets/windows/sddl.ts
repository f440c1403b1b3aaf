/**
 * The SDDL the Windows plan writes, in one place, with the reasons.
 *
 * Allow ACEs are ADDED to an object's DACL (the string is one ACE, no `D:`
 * prefix); mandatory labels REPLACE the object's label (the string is a
 * label-only SACL, `S:` prefix).
 */

/**
 * The placeholder of a principal's synthetic session SID. Each principal
 * runs in its own sandbox, so each has its own SID (a tool must not inherit
 * the agent's write trees): `*SESSION_SID_1*` is the first principal of the
 * plan's `principals`, `*SESSION_SID_2*` the second, and so on. The plan stays
 * deterministic; apply.ps1 fills the placeholders from `-SessionSid` (one
 * `S-1-5-21-…` per principal, in that order) and refuses to run with any left.
 */
export function sessionSidPlaceholder(n: number): string {
  return `*SESSION_SID_${n}*`;
}
export const sessionSidPattern = '*SESSION_SID_<n>*';

/**
 * A write tree: FILE_GENERIC_READ | FILE_GENERIC_WRITE | FILE_GENERIC_EXECUTE |
 * DELETE = 0x1301bf, icacls's "Modify" (M). Files below it can be created,
 * rewritten, renamed and deleted through inheritance (OI: files, CI:
 * directories); no WRITE_DAC or WRITE_OWNER, so the workload cannot widen
 * its own ACL.
 */
export const treeWriteMask = '0x1301bf';
/**
 * A single file (`write_file`): FILE_GENERIC_READ | FILE_GENERIC_WRITE =
 * 0x12019f, no inheritance flags (a file has no children), and no DELETE,
 * by decision: the file can be rewritten, truncated and appended in place,
 * not deleted or renamed. A save through a temporary file and a rename
 * (editors' safe save, `sed -i`, atomic writers) needs more than DELETE on
 * the file: it creates the temporary file in the parent directory, which a
 * write_file grant does not make writable (nor Low). DELETE alone would only
 * let the sandbox delete the file and never create it again. The same save
 * fails on macOS (no file-write-create beside the literal) and on Linux (a
 * rename onto a bind-mounted file is refused), so write_file means the same
 * on all three: in place. Tools that save by rename need `write` on the
 * directory.
 */
export const fileWriteMask = '0x12019f';

export function allowAce(sid: string, scope: 'tree' | 'file'): string {
  return scope === 'tree' ? `(A;OICI;${treeWriteMask};;;${sid})` : `(A;;${fileWriteMask};;;${sid})`;
}

/**
 * Low label, no-write-up: a Low token may not write objects above Low
 * whatever the DACL says, so a write tree must itself be Low. OICI: files
 * and directories created later inherit it.
 */
export const lowLabelTree = 'S:(ML;OICI;NW;;;LW)';
export const lowLabelFile = 'S:(ML;;NW;;;LW)';

/**
 * Deny-read: a Medium label with no-read-up, no-write-up and no-execute-up.
 * The workload's token is Low; an object labelled above the token's level
 * with NR cannot be read by it, NW keeps it from being written, NX from
 * being run (without it a Low token may still open the file for execute:
 * found by the tests' access check). Medium, not High: Medium is
 * the level every unlabelled object already has and the user's own programs
 * run at, so the user still reads and writes the file; only processes below
 * Medium (the sandbox, any other Low process) are shut out. Directories get
 * OICI so that files created there later inherit the label; files get the
 * same label without inheritance flags.
 */
export const denyReadContainer = 'S:(ML;OICI;NRNWNX;;;ME)';
export const denyReadFile = 'S:(ML;;NRNWNX;;;ME)';

/**
 * Read-only (a host-trusted path inside a write tree): a Medium label with
 * no-write-up only. The Low token may read it, as everything, and not write
 * it, whatever the write tree's allow ACE says; Medium is what the user's
 * own programs run at, so the user still writes it. Set after the write
 * tree's Low label, file by file like a deny-read label.
 */
export const readOnlyContainer = 'S:(ML;OICI;NW;;;ME)';
export const readOnlyFile = 'S:(ML;;NW;;;ME)';

/** The restricted token every principal runs under (the host product creates it). */
export const tokenTemplate = {
  type: 'restricted',
  integrityLevel: 'Low',
  integrityLevelSid: 'S-1-16-4096',
  flags: ['DISABLE_MAX_PRIVILEGE', 'LUA_TOKEN', 'WRITE_RESTRICTED'],
} as const;
