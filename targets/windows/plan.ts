import type { Verdict } from '../../compiler/diagnostic.js';
import type { Grant, ListName, PrincipalKind } from '../../compiler/ir/types.js';
import { who } from '../../compiler/ir/names.js';
import { isStrictlyUnder, type HostTrustedPath } from '../../compiler/paths/index.js';
import { version } from '../../compiler/version.js';
import type { ClosedSecret, GrantAccess, PrincipalAccess } from '../../model/index.js';
import { explanation, type RuleId } from '../../rules/index.js';
import { headerLines, sha256Hex, TargetError, type CompileInput } from '../target.js';
import { toWindows, type WindowsPath } from './paths.js';

/** The rules the plan points reviewers to where no model fact does: a path with no Windows spelling, the workspace. */
const NO_WINDOWS_PATH: RuleId = 'no-windows-path';
const WORKSPACE_NO_CONTENT: RuleId = 'workspace-no-content';

import {
  allowAce,
  denyReadContainer,
  denyReadFile,
  lowLabelFile,
  lowLabelTree,
  readOnlyContainer,
  readOnlyFile,
  sessionSidPattern,
  sessionSidPlaceholder,
  tokenTemplate,
} from './sddl.js';

/*
 * The Windows ACL plan (acl-plan.json), described field by field in
 * acl-plan.schema.json. It lowers the one effective-access model: which
 * grants write, which paths are denied, comes from `input.access`; this file
 * only decides how Windows spells and enforces it.
 */

export type StepAction = 'grant-write' | 'label-low' | 'label-read-only' | 'deny-read';
/** Where an entry came from: a config list, an implicit TYBA grant, TYBA's secret list (its platforms page), a workspace, or a host-trusted path inside a write grant. */
export type Source = ListName | 'implicit' | 'secret' | 'workspace' | 'host-trusted';

interface Origin {
  /** A principal id (`agent`, `tool.NAME`, `mcp.NAME`), or `*` for what applies to every principal. */
  readonly principal: string;
  /** The config line of the entry; null for what the config did not write. */
  readonly configLine: number | null;
  /** Why an entry without a config line exists. */
  readonly implicit?: string;
  readonly source: Source;
  /** The path as written (config) or as boxwright made it (implicit grants, secrets). */
  readonly written: string;
}

export interface PlanStep extends Origin {
  readonly id: string;
  readonly posixPath: string | null;
  /** Windows spelling: `%USERPROFILE%\…` or `%TEMP%`. */
  readonly path: string;
  readonly action: StepAction;
  /** For the named object (and directories below it when recursive). */
  readonly sddl: string;
  /** For files below a recursive step (and the named object when it is a file). */
  readonly fileSddl?: string;
  readonly recursive: boolean;
  readonly perFile: boolean;
  readonly why: string;
  readonly undo: { readonly action: 'restore-sddl'; readonly section: 'dacl' | 'label'; readonly backup: string };
}

export interface LeftOut extends Origin {
  readonly posixPath: string | null;
  readonly reason: string;
  readonly ruleId: string | null;
}

export interface NoEffect extends Origin {
  readonly path: string | null;
  readonly reason: string;
  readonly ruleId: string | null;
}

export interface Readable {
  readonly location: string;
  readonly posixPath: string;
  readonly path: string | null;
  readonly existence: 'exists' | 'unknown';
  readonly readableBy: readonly string[];
}

export interface PlanPrincipal {
  readonly id: string;
  readonly kind: PrincipalKind;
  readonly sessionSid: string;
}

export interface AclPlan {
  readonly header: {
    readonly generator: string;
    readonly version: string;
    readonly config: string;
    readonly configSha256: string;
    readonly forced: boolean;
    readonly comment: readonly string[];
  };
  readonly platform: 'windows';
  readonly dialect: 'box' | 'tyba';
  readonly verdict: Verdict;
  /** Whether the filesystem view knew existence facts (`--fs host`, a manifest) or not (`--fs none`). */
  readonly facts: 'known' | 'unknown';
  readonly home: { readonly compiledAgainst: string; readonly windows: '%USERPROFILE%' };
  readonly token: typeof tokenTemplate & { readonly sessionSid: string; readonly restrictingSids: string };
  readonly principals: readonly PlanPrincipal[];
  readonly readModel: 'open';
  readonly steps: readonly PlanStep[];
  readonly leftOut: readonly LeftOut[];
  readonly noEffect: readonly NoEffect[];
  readonly readable: readonly Readable[];
  readonly notes: readonly string[];
}

type Draft = Omit<PlanStep, 'id' | 'undo'>;

const secretReason = "TYBA's secret list (its platforms page): labelled deny-read on Windows whatever the config says";

function origin(principal: string, g: Grant): Origin {
  return {
    principal,
    configLine: g.implicit ? null : g.span.start.line,
    ...(g.implicit ? { implicit: g.implicit.reason } : {}),
    source: g.list,
    written: g.written,
  };
}

/** Writes (`write`, `write_file`, implicit read-write) and denies become steps; everything else grants nothing beyond open reads. */
function lowerPrincipal(
  pa: PrincipalAccess,
  sid: string,
  home: string,
  writes: Draft[],
  denies: Draft[],
  leftOut: LeftOut[],
  noEffect: NoEffect[],
): void {
  const p = pa.principal;
  for (const ga of pa.grants) {
    const g = ga.grant;
    // Another platform's spelling of an implicit grant (/tmp, /private/tmp).
    if (g.implicit && !ga.applies.windows) continue;
    const o = origin(p.id, g);
    const mapped = g.path ? toWindows(g.path, home, !!g.implicit) : undefined;
    const winPath = mapped?.ok ? mapped.path.spelled : null;
    const posixPath = g.path?.startsWith('/') ? g.path : null;
    const note = ga.notes.windows;
    const cell = ga.effective.windows;
    if (g.access !== 'write' && g.access !== 'read-write' && g.access !== 'deny') {
      // A read-like entry has no effect beyond the open reads, spelled on Windows or not.
      const why = note && note.kind !== 'no-windows-spelling' ? note : { kind: 'reads-open' as const };
      noEffect.push({ ...o, path: winPath, reason: noEffectReason(ga), ruleId: explanation(why).ruleId });
      continue;
    }
    if (!g.path || !mapped) {
      leftOut.push({ ...o, posixPath: null, reason: `cannot be read as a path: ${g.expandProblem ?? 'no path'}`, ruleId: null });
      continue;
    }
    if (!mapped.ok) {
      // no-windows-path judges authored entries only: nothing reports an implicit one.
      leftOut.push({ ...o, posixPath, reason: mapped.reason, ruleId: g.implicit ? null : NO_WINDOWS_PATH });
      continue;
    }
    if (cell.kind === 'refused') {
      const refusal = explanation(cell.because);
      noEffect.push({ ...o, path: winPath, reason: `refused on Windows (${refusal.text})`, ruleId: refusal.ruleId });
      continue;
    }
    if (g.access === 'deny') {
      // The model's Windows note says an absent deny target has nothing to label (deny-absent-path reads the same note).
      if (note?.kind === 'nothing-to-label') {
        leftOut.push({
          ...o,
          posixPath,
          reason: 'does not exist: nothing to label, and a file created there later is readable',
          ruleId: explanation(note).ruleId,
        });
        continue;
      }
      denies.push(
        denyStep(o, posixPath, mapped.path, g.implicit ? `${g.implicit.reason}: labelled deny-read` : `the config denies it to ${who(p)}`),
      );
      continue;
    }
    if (cell.kind !== 'access' || !cell.write) {
      noEffect.push({
        ...o,
        path: winPath,
        reason:
          note?.kind === 'label-of-another-principal'
            ? `${explanation(note).text}: the label also keeps ${who(p)}'s Low token from writing it`
            : 'a deny-read label covers this path (a deny entry or a listed secret): the label also keeps the Low token from writing it',
        ruleId: note ? explanation(note).ruleId : null,
      });
      continue;
    }
    const scope = g.scope;
    const what = g.implicit ? g.implicit.reason : `\`${g.list}\` grant of ${who(p)}`;
    writes.push({
      ...o,
      posixPath,
      path: mapped.path.spelled,
      action: 'grant-write',
      sddl: allowAce(sid, scope),
      recursive: false,
      perFile: false,
      why:
        scope === 'tree'
          ? `${what}: an inheritable allow ACE for ${who(p)}'s session SID, so that its write-restricted token may create, change and delete files in this tree`
          : `${what}: an allow ACE (no inheritance, no DELETE) for ${who(p)}'s session SID, so that its write-restricted token may rewrite this one file in place; a save through a temporary file and a rename fails, as on macOS and Linux`,
    });
    writes.push({
      ...o,
      posixPath,
      path: mapped.path.spelled,
      action: 'label-low',
      sddl: scope === 'tree' ? lowLabelTree : lowLabelFile,
      recursive: false,
      perFile: false,
      why: `${what}: a Low mandatory label, since a Low token may not write above its own level (no-write-up); any other low-integrity process can then write here too where the DACL lets it (low-label-exposure)`,
    });
  }
  if (p.workspace) {
    const w = p.workspace;
    const mapped = w.path ? toWindows(w.path, home) : undefined;
    noEffect.push({
      principal: p.id,
      configLine: w.span.start.line,
      source: 'workspace',
      written: w.written,
      path: mapped?.ok ? mapped.path.spelled : null,
      reason:
        'the initial directory: grants no content; on Windows it is readable like everything else and writable only where a write grant covers it',
      ruleId: WORKSPACE_NO_CONTENT,
    });
  }
}

function noEffectReason(ga: GrantAccess): string {
  const g = ga.grant;
  if (g.list === 'read_allow')
    return ga.effective.windows.kind === 'denied'
      ? 'read_allow is inert on Windows: accepted and discarded; this path stays labelled deny-read (a listed secret or a deny), as on macOS where denials beat permissions'
      : 'read_allow is inert on Windows: accepted and discarded, since reads are already open';
  if (ga.effective.windows.kind === 'refused') return `refused on Windows (${explanation(ga.effective.windows.because).text})`;
  switch (g.access) {
    case 'exec':
      return 'execution is not restricted by the restricted token: nothing to grant';
    case 'list':
      return 'reads are open on Windows: names (and contents) are already visible, nothing to grant';
    case 'metadata':
      return 'reads are open on Windows: properties (and contents) are already visible, nothing to grant';
    default:
      return ga.effective.windows.kind === 'denied'
        ? 'a deny-read label covers this path: the read is not granted, and reads elsewhere are already open'
        : 'reads are open on Windows: everything it grants is already readable, nothing to grant';
  }
}

const depthOf = (p: string | null): number => (p === null ? 0 : p.split('/').length);

/**
 * The host-trusted labels (the model's, for the whole config: a label is
 * the file's) as steps: a Medium no-write-up label on each path and file
 * by file below it. A write grant at one lifts it (no label); one inside
 * one gets its writes after it, its Low label set file by file over the
 * read-only ones. Returns the writes outside every labelled path, and the
 * labels with the writes inside them, shallowest first.
 */
function hostTrustedSteps(input: CompileInput, writes: readonly Draft[], leftOut: LeftOut[]): { before: Draft[]; trusted: Draft[] } {
  const { carved, lifted } = input.access.windowsLabels;
  const labelled: HostTrustedPath[] = carved.filter((t) => !lifted.includes(t.path));
  const inside = (p: string | null): boolean => p !== null && labelled.some((t) => isStrictlyUnder(p, t.path));
  const drafts: Draft[] = [];
  for (const t of labelled) {
    const mapped = toWindows(t.path, input.ir.home);
    const o: Origin = { principal: '*', configLine: null, implicit: `host-trusted: ${t.label}`, source: 'host-trusted', written: t.path };
    if (!mapped.ok) {
      leftOut.push({ ...o, posixPath: t.path, reason: mapped.reason, ruleId: NO_WINDOWS_PATH });
      continue;
    }
    drafts.push({
      ...o,
      posixPath: t.path,
      path: mapped.path.spelled,
      action: 'label-read-only',
      sddl: readOnlyContainer,
      fileSddl: readOnlyFile,
      recursive: true,
      perFile: true,
      why: `a host-trusted path inside a write tree (${t.label}; host-trusted-path): a Medium no-write-up label on the object and, file by file, on everything below it, so that a Low token may read it but neither write, rename nor remove it; the label is the file's, so it holds for every principal`,
    });
  }
  for (const w of writes) {
    if (!inside(w.posixPath)) continue;
    drafts.push(
      w.action === 'label-low' && w.sddl === lowLabelTree
        ? {
            ...w,
            fileSddl: lowLabelFile,
            recursive: true,
            perFile: true,
            why: `${w.why}; inside a host-trusted path, set file by file over its read-only labels (the grant names it: host-trusted-path)`,
          }
        : w,
    );
  }
  // Shallowest first; at one depth the label before the writes (a stable sort keeps that order).
  const trusted = drafts
    .map((d, i) => ({ d, i }))
    .sort((a, b) => depthOf(a.d.posixPath) - depthOf(b.d.posixPath) || a.i - b.i)
    .map((x) => x.d);
  return { before: writes.filter((w) => !inside(w.posixPath)), trusted };
}

function denyStep(o: Origin, posixPath: string | null, path: WindowsPath, what: string): Draft {
  return {
    ...o,
    posixPath,
    path: path.spelled,
    action: 'deny-read',
    sddl: denyReadContainer,
    fileSddl: denyReadFile,
    recursive: true,
    perFile: true,
    why: `${what}: a Medium no-read-up label on the object and, file by file, on everything below it, so that a Low token can neither read, write nor run it; files created later are covered only through inheritance (OICI)`,
  };
}

/** The plan for one compile input: a pure function, the same input gives the same plan. */
export function buildPlan(input: CompileInput): AclPlan {
  const dialect = input.access.ir.dialect;
  // sandbox-runtime's and Claude Code's settings are enforced by sandbox-runtime, not compiled (app/cli/compile.ts refuses them).
  if (dialect !== 'box' && dialect !== 'tyba')
    throw new TargetError(`a ${dialect} settings file is enforced by sandbox-runtime itself: boxwright compiles Box and TYBA configs`);
  const { ir } = input;
  const home = ir.home;
  const writes: Draft[] = [];
  const denies: Draft[] = [];
  const leftOut: LeftOut[] = [];
  const noEffect: NoEffect[] = [];
  const principals: PlanPrincipal[] = input.access.principals.map((pa, i) => ({
    id: pa.principal.id,
    kind: pa.principal.kind,
    sessionSid: sessionSidPlaceholder(i + 1),
  }));
  // The secrets are labelled for every principal: a label is a property of
  // the file, and the mechanism closes them whatever the config says. With no
  // principal nothing runs, and nothing is labelled.
  if (principals.length) {
    // The model's list of the secrets Windows closes (AccessModel.secrets), which its cells deny: the list's
    // entries, then where Windows tools keep them (compiler/paths/secrets.json, `windows`, each with its source).
    for (const c of input.access.secrets.windows) {
      const w = c.spelling;
      if (w) {
        const o: Origin = {
          principal: '*',
          configLine: null,
          implicit: `where ${w.tool} keeps ${w.of} on Windows (${w.source})`,
          source: 'secret',
          written: w.windows,
        };
        const root = /^%[A-Z]+%/.exec(w.windows)![0];
        denies.push(
          denyStep(o, c.path, { root, rest: w.windows.slice(root.length), spelled: w.windows }, `where ${w.tool} keeps ${w.of} on Windows`),
        );
        continue;
      }
      const mapped = toWindows(c.path, home);
      const o: Origin = { principal: '*', configLine: null, implicit: secretReason, source: 'secret', written: c.listed ?? c.path };
      if (mapped.ok) denies.push(denyStep(o, c.path, mapped.path, "a secret location on TYBA's list (its platforms page)"));
      else leftOut.push({ ...o, posixPath: c.path, reason: mapped.reason, ruleId: NO_WINDOWS_PATH });
    }
  }
  input.access.principals.forEach((pa, i) => lowerPrincipal(pa, principals[i]!.sessionSid, home, writes, denies, leftOut, noEffect));
  // Writes first, denies last: a deny label inside a write tree must be the
  // explicit label its objects end with. Between them, from the shallowest
  // path down, the host-trusted paths' read-only labels and the writes of
  // the grants inside one, so that each ends with the label the model says.
  // undo.ps1 walks the steps backwards.
  const { before, trusted } = hostTrustedSteps(input, writes, leftOut);
  const steps: PlanStep[] = [...before, ...trusted, ...denies].map((d, i) => {
    const id = `step-${String(i + 1).padStart(3, '0')}`;
    return {
      id,
      principal: d.principal,
      configLine: d.configLine,
      ...(d.implicit !== undefined ? { implicit: d.implicit } : {}),
      source: d.source,
      written: d.written,
      posixPath: d.posixPath,
      path: d.path,
      action: d.action,
      sddl: d.sddl,
      ...(d.fileSddl !== undefined ? { fileSddl: d.fileSddl } : {}),
      recursive: d.recursive,
      perFile: d.perFile,
      why: d.why,
      undo: { action: 'restore-sddl', section: d.action === 'grant-write' ? 'dacl' : 'label', backup: `${id}.clixml` },
    };
  });
  // The model's known credential files that principals read on Windows (AccessModel.windowsReadable).
  const readable: Readable[] = input.access.windowsReadable.map(({ credential: c, readableBy }) => {
    const mapped = toWindows(c.path, home);
    return {
      location: c.written,
      posixPath: c.path,
      path: mapped.ok ? mapped.path.spelled : null,
      existence: c.existence as Readable['existence'],
      readableBy,
    };
  });
  return {
    header: {
      generator: 'boxwright',
      version,
      config: input.configPath,
      configSha256: sha256Hex(input.configBytes),
      forced: input.forced,
      comment: headerLines(input),
    },
    platform: 'windows',
    dialect,
    verdict: input.verdict,
    facts: ir.fs.knowsFacts ? 'known' : 'unknown',
    home: { compiledAgainst: home, windows: '%USERPROFILE%' },
    token: {
      ...tokenTemplate,
      sessionSid: sessionSidPattern,
      restrictingSids:
        "the principal's own session SID (principals[].sessionSid): a write-restricted token writes only where an ACE allows that SID",
    },
    principals,
    readModel: 'open',
    steps,
    leftOut,
    noEffect,
    readable,
    notes: [
      ...notes(ir.fs.knowsFacts, readable.length, input.access.secrets.windows),
      ...(steps.some((st) => st.action === 'label-read-only') ? [HOST_TRUSTED_NOTE] : []),
    ],
  };
}

/** Said where the plan labels a host-trusted path: what the labels hold, and where Windows cannot. */
const HOST_TRUSTED_NOTE =
  'Host-trusted paths inside a write tree (.git, shell start-up files, PATH directories in the home, editor and agent task configs, the config itself: host-trusted-path) get a Medium no-write-up label, file by file, so that a Low token reads them but cannot write, rename or remove them. One that does not exist when apply.ps1 runs has nothing to label and can be created; a rename of a directory above one carries it along, labelled, and a new one can then be created under the old name: Windows has no way to pin the directories above it.';

function notes(knowsFacts: boolean, readable: number, secrets: readonly ClosedSecret[]): string[] {
  const listed = secrets.filter((c) => !c.spelling).length;
  const spellings = secrets.flatMap((c) => (c.spelling ? [c.spelling.windows] : []));
  return [
    `Reads are open on Windows: the restricted token at Integrity Level Low confines writes, not reads. Only the ${listed} secret locations TYBA's platforms page lists (and the ${spellings.length} other places Windows tools keep them: ${spellings.join(', ')}), TYBA's data directory and the config's existing deny entries are labelled deny-read; every other file the user can read, the sandbox reads too: ${
      readable
        ? 'the credential files under `readable`, '
        : knowsFacts
          ? ''
          : 'credential files wherever they exist (the filesystem view knows no paths), '
    }the .env of any other project, any other repository, Documents, Desktop. If the agent must see nothing beyond the project, use macOS or Linux.`,
    'Labels are properties of files, not of a principal: a deny-read label shuts the path to every principal (and every other Low-integrity process), not only to the one whose entry asked for it; a Low label on a write tree lets any low-integrity process write there where the DACL allows it.',
    'Deny-read labels are applied file by file to what exists when apply.ps1 runs. Files created later inside a labelled directory are covered only through inheritance (OICI); a file moved in from elsewhere on the same volume keeps its own descriptor and is not covered. Links and junctions inside a labelled tree are skipped, not followed: their targets are not labelled.',
    'Paths already writable by Everyone stay writable: the plan adds allow ACEs and labels, never deny ACEs.',
    "Beyond files the plan has no step: a Low token still reads most of the user's registry (HKCU; it writes only HKCU\\Software\\AppDataLow), opens for reading the named pipes and other objects whose DACL admits the user (no-write-up stops writes only), and shares the user's desktop and clipboard (UIPI stops window messages to higher-integrity windows, not clipboard reads). Keep credentials out of the registry and the clipboard, or run the agent in its own Windows session.",
    'A write_file grant is a rewrite in place (0x12019f: read and write, no DELETE): the file can be truncated, rewritten and appended, not deleted or renamed. Editors and tools that save through a temporary file and a rename (safe save, sed -i) fail on it, as they do on macOS and Linux, because the temporary file goes into the parent directory; grant `write` on the directory for them.',
    "Known weaknesses reported by peers: case variants (`.GiT`, `.SSH`) and alternate data streams (`file:stream`) slip past name-based rules. This plan labels objects, not names: a file's alternate data streams share its descriptor, and deny labels are applied after every write step, so a write grant spelt in another case cannot reopen a labelled secret. But NTFS names are case-insensitive while boxwright compares paths as written, so explain and diff may show two spellings of one directory as different paths.",
    'apply.ps1 saves the previous descriptor (DACL or label) of every object a step changes before changing it; undo.ps1 restores them in reverse step order, so overlapping steps unwind correctly. Changes made to those descriptors between apply and undo are overwritten. Recursive work over a huge tree (a large %TEMP%) is slow.',
  ];
}
