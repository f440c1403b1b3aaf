/*
 * The Windows plan's words, in one place. plan.ts decides what each entry
 * is and says why with a typed reason (a kind and its data); the tables
 * here turn each kind into its text, and `reasonText` and `stepText` are
 * the only places the plan's `reason` and `why` fields are worded
 * (test/windows/messages.test.ts holds that).
 */
import type { Grant, Principal } from '../../compiler/ir/types.js';
import { who } from '../../compiler/ir/names.js';
import type { WindowsUnmapped } from '../../compiler/paths/index.js';
import type { ClosedSecret, Mechanism, Refusal } from '../../model/index.js';
import { explanation } from '../../rules/index.js';

type Who = Pick<Principal, 'kind' | 'name'>;

/** Why an entry is in `leftOut` or `noEffect`: the plan writes no step for it. */
export type PlanReason =
  /** A read_allow: Windows accepts and discards it; `stillDenied`: a secret label or a deny covers the path. */
  | { readonly kind: 'read-allow-inert'; readonly stillDenied: boolean }
  /** The model's Windows cell refuses the grant. */
  | { readonly kind: 'refused'; readonly because: Refusal }
  /** An exec grant: the restricted token does not restrict execution. */
  | { readonly kind: 'exec-unrestricted' }
  /** A list grant: names are already visible. */
  | { readonly kind: 'list-open' }
  /** A metadata grant: properties are already visible. */
  | { readonly kind: 'metadata-open' }
  /** A read grant of a path a deny-read label covers. */
  | { readonly kind: 'read-under-deny-label' }
  /** A read grant: reads are open. */
  | { readonly kind: 'reads-open' }
  /** The entry's path could not be expanded. */
  | { readonly kind: 'not-a-path'; readonly problem: string | undefined }
  /** The path has no Windows spelling (outside the home, or a name Windows cannot hold). */
  | { readonly kind: 'no-windows-path'; readonly unmapped: WindowsUnmapped }
  /** A deny of an absent path (the model's `nothing-to-label` note). */
  | { readonly kind: 'nothing-to-label' }
  /** A write grant at a path another principal's deny labels (the model's note). */
  | { readonly kind: 'label-of-another-principal'; readonly note: Mechanism; readonly principal: Who }
  /** A write grant at a path a deny-read label covers (a deny entry or a listed secret). */
  | { readonly kind: 'under-deny-label' }
  /** The workspace: the initial directory, no content. */
  | { readonly kind: 'workspace' };

export type PlanReasonKind = PlanReason['kind'];

/** Whom a step is for, as its `why` names it: an implicit grant's reason, or a config entry's list and principal. */
export type Grantor =
  | { readonly kind: 'implicit'; readonly implicit: string }
  | { readonly kind: 'config'; readonly list: Grant['list']; readonly principal: Who };

/** What a deny-read step labels. */
export type DenyOf =
  | { readonly kind: 'implicit'; readonly implicit: string }
  | { readonly kind: 'config'; readonly principal: Who }
  /** Where a Windows tool keeps a secret (compiler/paths/secrets.json, `windows`). */
  | { readonly kind: 'secret-spelling'; readonly spelling: NonNullable<ClosedSecret['spelling']> }
  /** An entry of TYBA's secret list. */
  | { readonly kind: 'listed-secret' };

/** Why a step exists: its `why`. */
export type StepReason =
  | { readonly kind: 'grant-write-tree'; readonly by: Grantor; readonly principal: Who }
  | { readonly kind: 'grant-write-file'; readonly by: Grantor; readonly principal: Who }
  | { readonly kind: 'label-low'; readonly by: Grantor }
  | { readonly kind: 'host-trusted-read-only'; readonly label: string }
  | { readonly kind: 'deny-read'; readonly of: DenyOf }
  /** A tree's Low label inside a host-trusted path, set file by file over its read-only labels. */
  | { readonly kind: 'inside-host-trusted'; readonly step: StepReason };

export type StepReasonKind = StepReason['kind'];

type Texts<R extends { readonly kind: string }> = { readonly [K in R['kind']]: (r: Extract<R, { kind: K }>) => string };

/** The words for a path left out (also the `no-windows-path` reasons of host-trusted paths and secrets). */
export function unmappedText(why: WindowsUnmapped): string {
  return why.kind === 'outside-home'
    ? `outside the home ${why.home}: a POSIX path with no Windows meaning (only paths under ~ map to %USERPROFILE%)`
    : `no faithful Windows spelling: ${why.problem}`;
}

const refusedText = (because: Refusal): string => `refused on Windows (${explanation(because).text})`;

export const planReasonTexts = {
  'read-allow-inert': (r) =>
    r.stillDenied
      ? 'read_allow is inert on Windows: accepted and discarded; this path stays labelled deny-read (a listed secret ' +
        'or a deny), as on macOS where denials beat permissions'
      : 'read_allow is inert on Windows: accepted and discarded, since reads are already open',
  refused: (r) => refusedText(r.because),
  'exec-unrestricted': () => 'execution is not restricted by the restricted token: nothing to grant',
  'list-open': () => 'reads are open on Windows: names (and contents) are already visible, nothing to grant',
  'metadata-open': () => 'reads are open on Windows: properties (and contents) are already visible, nothing to grant',
  'read-under-deny-label': () => 'a deny-read label covers this path: the read is not granted, and reads elsewhere are already open',
  'reads-open': () => 'reads are open on Windows: everything it grants is already readable, nothing to grant',
  'not-a-path': (r) => `cannot be read as a path: ${r.problem ?? 'no path'}`,
  'no-windows-path': (r) => unmappedText(r.unmapped),
  'nothing-to-label': () => 'does not exist: nothing to label, and a file created there later is readable',
  'label-of-another-principal': (r) => `${explanation(r.note).text}: the label also keeps ${who(r.principal)}'s Low token from writing it`,
  'under-deny-label': () =>
    'a deny-read label covers this path (a deny entry or a listed secret): the label also keeps the Low token from writing it',
  workspace: () =>
    'the initial directory: grants no content; on Windows it is readable like everything else and writable only where a write grant covers it',
} as const satisfies Texts<PlanReason>;

const grantorText = (by: Grantor): string => (by.kind === 'implicit' ? by.implicit : `\`${by.list}\` grant of ${who(by.principal)}`);

const denyOfText = (of: DenyOf): string => {
  switch (of.kind) {
    case 'implicit':
      return `${of.implicit}: labelled deny-read`;
    case 'config':
      return `the config denies it to ${who(of.principal)}`;
    case 'secret-spelling':
      return `where ${of.spelling.tool} keeps ${of.spelling.of} on Windows`;
    case 'listed-secret':
      return "a secret location on TYBA's list (its platforms page)";
  }
};

export const stepReasonTexts = {
  'grant-write-tree': (r) =>
    `${grantorText(r.by)}: an inheritable allow ACE for ${who(r.principal)}'s session SID, so that its ` +
    `write-restricted token may create, change and delete files in this tree`,
  'grant-write-file': (r) =>
    `${grantorText(r.by)}: an allow ACE (no inheritance, no DELETE) for ${who(r.principal)}'s session ` +
    `SID, so that its write-restricted token may rewrite this one file in place; a save through a ` +
    `temporary file and a rename fails, as on macOS and Linux`,
  'label-low': (r) =>
    `${grantorText(r.by)}: a Low mandatory label, since a Low token may not write above its own level ` +
    `(no-write-up); any other low-integrity process can then write here too where the DACL lets it (low-label-exposure)`,
  'host-trusted-read-only': (r) =>
    `a host-trusted path inside a write tree (${r.label}; host-trusted-path): a Medium no-write-up ` +
    `label on the object and, file by file, on everything below it, so that a Low token may read it but ` +
    `neither write, rename nor remove it; the label is the file's, so it holds for every principal`,
  'deny-read': (r) =>
    `${denyOfText(r.of)}: a Medium no-read-up label on the object and, file by file, on everything ` +
    `below it, so that a Low token can neither read, write nor run it; files created later are covered ` +
    `only through inheritance (OICI)`,
  'inside-host-trusted': (r) =>
    `${stepText(r.step)}; inside a host-trusted path, set file by file over its read-only labels (the grant names it: host-trusted-path)`,
} as const satisfies Texts<StepReason>;

/** The text of a `leftOut` or `noEffect` entry's reason: the one place it is worded. */
export function reasonText(r: PlanReason): string {
  return (planReasonTexts[r.kind] as (r: PlanReason) => string)(r);
}

/** The text of a step's `why`: the one place it is worded. */
export function stepText(r: StepReason): string {
  return (stepReasonTexts[r.kind] as (r: StepReason) => string)(r);
}

/** The `implicit` of entries boxwright adds: a host-trusted label, a Windows tool's secret, a listed secret. */
export const implicitTexts = {
  hostTrusted: (label: string): string => `host-trusted: ${label}`,
  secretSpelling: (s: NonNullable<ClosedSecret['spelling']>): string => `where ${s.tool} keeps ${s.of} on Windows (${s.source})`,
  listedSecret: "TYBA's secret list (its platforms page): labelled deny-read on Windows whatever the config says",
} as const;

/** The token's `restrictingSids`. */
export const RESTRICTING_SIDS_TEXT =
  "the principal's own session SID (principals[].sessionSid): a write-restricted token writes only where an ACE allows that SID";

/** Said where the plan labels a host-trusted path: what the labels hold, and where Windows cannot. */
export const HOST_TRUSTED_NOTE =
  'Host-trusted paths inside a write tree (.git, shell start-up files, PATH directories in the home, editor and ' +
  'agent task configs, the config itself: host-trusted-path) get a Medium no-write-up label, file by file, so ' +
  'that a Low token reads them but cannot write, rename or remove them. One that does not exist when apply.ps1 ' +
  'runs has nothing to label and can be created; a rename of a directory above one carries it along, labelled, ' +
  'and a new one can then be created under the old name: Windows has no way to pin the directories above it.';

/** The plan's general notes: how many secrets it labels, and whether the filesystem view knew the credential files. */
export function planNotes(knowsFacts: boolean, readable: number, secrets: readonly ClosedSecret[]): string[] {
  const listed = secrets.filter((c) => !c.spelling).length;
  const spellings = secrets.flatMap((c) => (c.spelling ? [c.spelling.windows] : []));
  return [
    'Reads are open on Windows: the restricted token at Integrity Level Low confines writes, not reads. ' +
      `Only the ${listed} secret locations TYBA's platforms page lists (and the ${spellings.length} other places ` +
      `Windows tools keep them: ${spellings.join(', ')}), TYBA's data directory and the config's existing deny entries ` +
      `are labelled deny-read; every other file the user can read, the sandbox reads too: ${
        readable
          ? 'the credential files under `readable`, '
          : knowsFacts
            ? ''
            : 'credential files wherever they exist (the filesystem view knows no paths), '
      }the .env of any other project, any other repository, Documents, Desktop. If the agent must see nothing beyond the project, use macOS or Linux.`,
    'Labels are properties of files, not of a principal: a deny-read label shuts the path to every principal (and ' +
      'every other Low-integrity process), not only to the one whose entry asked for it; a Low label on a write tree ' +
      'lets any low-integrity process write there where the DACL allows it.',
    'Deny-read labels are applied file by file to what exists when apply.ps1 runs. Files created later inside a ' +
      'labelled directory are covered only through inheritance (OICI); a file moved in from elsewhere on the same ' +
      'volume keeps its own descriptor and is not covered. Links and junctions inside a labelled tree are skipped, ' +
      'not followed: their targets are not labelled.',
    'Paths already writable by Everyone stay writable: the plan adds allow ACEs and labels, never deny ACEs.',
    "Beyond files the plan has no step: a Low token still reads most of the user's registry (HKCU; it " +
      'writes only HKCU\\Software\\AppDataLow), opens for reading the named pipes and other objects whose ' +
      "DACL admits the user (no-write-up stops writes only), and shares the user's desktop and clipboard " +
      '(UIPI stops window messages to higher-integrity windows, not clipboard reads). Keep credentials out ' +
      'of the registry and the clipboard, or run the agent in its own Windows session.',
    'A write_file grant is a rewrite in place (0x12019f: read and write, no DELETE): the file can be ' +
      'truncated, rewritten and appended, not deleted or renamed. Editors and tools that save through a ' +
      'temporary file and a rename (safe save, sed -i) fail on it, as they do on macOS and Linux, because ' +
      'the temporary file goes into the parent directory; grant `write` on the directory for them.',
    'Known weaknesses reported by peers: case variants (`.GiT`, `.SSH`) and alternate data streams ' +
      "(`file:stream`) slip past name-based rules. This plan labels objects, not names: a file's alternate " +
      'data streams share its descriptor, and deny labels are applied after every write step, so a write ' +
      'grant spelt in another case cannot reopen a labelled secret. But NTFS names are case-insensitive ' +
      'while boxwright compares paths as written, so explain and diff may show two spellings of one directory as different paths.',
    'apply.ps1 saves the previous descriptor (DACL or label) of every object a step changes before changing it; ' +
      'undo.ps1 restores them in reverse step order, so overlapping steps unwind correctly. Changes made to those ' +
      'descriptors between apply and undo are overwritten. Recursive work over a huge tree (a large %TEMP%) is slow.',
  ];
}
