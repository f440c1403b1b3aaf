import type { Verdict } from '../../compiler/diagnostic.js';
import type { Grant, ListName, PrincipalKind } from '../../compiler/ir/types.js';
import { isStrictlyUnder, type HostTrustedPath } from '../../compiler/paths/index.js';
import { version } from '../../compiler/version.js';
import type { GrantAccess, PrincipalAccess } from '../../model/index.js';
import { explanation, type RuleId } from '../../rules/index.js';
import { headerLines, sha256Hex, TargetError, type CompileInput } from '../target.js';
import {
  HOST_TRUSTED_NOTE,
  implicitTexts,
  planNotes,
  RESTRICTING_SIDS_TEXT,
  reasonText,
  stepText,
  type DenyOf,
  type Grantor,
  type PlanReason,
  type StepReason,
} from './messages.js';
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
/**
 * Where an entry came from: a config list, an implicit TYBA grant, TYBA's secret list (its platforms page),
 * a workspace, or a host-trusted path inside a write grant.
 */
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
  /**
   * A Box principal's `private_tmp = true`: a directory of its own that
   * apply.ps1 makes empty before the steps (refusing one already there) and
   * undo.ps1 removes after them; the host product starts the principal with
   * TMP and TEMP naming it. The steps grant and label it like any write.
   */
  readonly privateTemp?: { readonly path: string; readonly env: { readonly TMP: string; readonly TEMP: string } };
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

/** A step before its id, with why it exists as a typed reason (worded by messages.ts when the plan is assembled). */
type Draft = Omit<PlanStep, 'id' | 'undo' | 'why'> & { readonly because: StepReason };
/** A left-out or no-effect entry, with its typed reason. */
type LeftOutDraft = Omit<LeftOut, 'reason'> & { readonly because: PlanReason };
type NoEffectDraft = Omit<NoEffect, 'reason'> & { readonly because: PlanReason };

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
  leftOut: LeftOutDraft[],
  noEffect: NoEffectDraft[],
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
      noEffect.push({ ...o, path: winPath, because: noEffectReason(ga), ruleId: explanation(why).ruleId });
      continue;
    }
    if (!g.path || !mapped) {
      leftOut.push({ ...o, posixPath: null, because: { kind: 'not-a-path', problem: g.expandProblem }, ruleId: null });
      continue;
    }
    if (!mapped.ok) {
      // no-windows-path judges authored entries only: nothing reports an implicit one.
      leftOut.push({
        ...o,
        posixPath,
        because: { kind: 'no-windows-path', unmapped: mapped.why },
        ruleId: g.implicit ? null : NO_WINDOWS_PATH,
      });
      continue;
    }
    if (cell.kind === 'refused') {
      noEffect.push({ ...o, path: winPath, because: { kind: 'refused', because: cell.because }, ruleId: explanation(cell.because).ruleId });
      continue;
    }
    if (g.access === 'deny') {
      // The model's Windows note says an absent deny target has nothing to label (deny-absent-path reads the same note).
      if (note?.kind === 'nothing-to-label') {
        leftOut.push({
          ...o,
          posixPath,
          because: { kind: 'nothing-to-label' },
          ruleId: explanation(note).ruleId,
        });
        continue;
      }
      denies.push(
        denyStep(
          o,
          posixPath,
          mapped.path,
          g.implicit ? { kind: 'implicit', implicit: g.implicit.reason } : { kind: 'config', principal: p },
        ),
      );
      continue;
    }
    if (cell.kind !== 'access' || !cell.write) {
      noEffect.push({
        ...o,
        path: winPath,
        because:
          note?.kind === 'label-of-another-principal'
            ? { kind: 'label-of-another-principal', note, principal: p }
            : { kind: 'under-deny-label' },
        ruleId: note ? explanation(note).ruleId : null,
      });
      continue;
    }
    const scope = g.scope;
    const by: Grantor = g.implicit ? { kind: 'implicit', implicit: g.implicit.reason } : { kind: 'config', list: g.list, principal: p };
    writes.push({
      ...o,
      posixPath,
      path: mapped.path.spelled,
      action: 'grant-write',
      sddl: allowAce(sid, scope),
      recursive: false,
      perFile: false,
      because: { kind: scope === 'tree' ? 'grant-write-tree' : 'grant-write-file', by, principal: p },
    });
    writes.push({
      ...o,
      posixPath,
      path: mapped.path.spelled,
      action: 'label-low',
      sddl: scope === 'tree' ? lowLabelTree : lowLabelFile,
      recursive: false,
      perFile: false,
      because: { kind: 'label-low', by },
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
      because: { kind: 'workspace' },
      ruleId: WORKSPACE_NO_CONTENT,
    });
  }
}

/** Why a read-like grant has no effect on Windows. */
function noEffectReason(ga: GrantAccess): PlanReason {
  const g = ga.grant;
  const cell = ga.effective.windows;
  if (g.list === 'read_allow') return { kind: 'read-allow-inert', stillDenied: cell.kind === 'denied' };
  if (cell.kind === 'refused') return { kind: 'refused', because: cell.because };
  switch (g.access) {
    case 'exec':
      return { kind: 'exec-unrestricted' };
    case 'list':
      return { kind: 'list-open' };
    case 'metadata':
      return { kind: 'metadata-open' };
    default:
      return { kind: cell.kind === 'denied' ? 'read-under-deny-label' : 'reads-open' };
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
function hostTrustedSteps(input: CompileInput, writes: readonly Draft[], leftOut: LeftOutDraft[]): { before: Draft[]; trusted: Draft[] } {
  const { carved, lifted } = input.access.windowsLabels;
  const labelled: HostTrustedPath[] = carved.filter((t) => !lifted.includes(t.path));
  const inside = (p: string | null): boolean => p !== null && labelled.some((t) => isStrictlyUnder(p, t.path));
  const drafts: Draft[] = [];
  for (const t of labelled) {
    const mapped = toWindows(t.path, input.ir.home);
    const o: Origin = {
      principal: '*',
      configLine: null,
      implicit: implicitTexts.hostTrusted(t.label),
      source: 'host-trusted',
      written: t.path,
    };
    if (!mapped.ok) {
      leftOut.push({ ...o, posixPath: t.path, because: { kind: 'no-windows-path', unmapped: mapped.why }, ruleId: NO_WINDOWS_PATH });
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
      because: { kind: 'host-trusted-read-only', label: t.label },
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
            because: { kind: 'inside-host-trusted', step: w.because },
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

function denyStep(o: Origin, posixPath: string | null, path: WindowsPath, of: DenyOf): Draft {
  return {
    ...o,
    posixPath,
    path: path.spelled,
    action: 'deny-read',
    sddl: denyReadContainer,
    fileSddl: denyReadFile,
    recursive: true,
    perFile: true,
    because: { kind: 'deny-read', of },
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
  const leftOut: LeftOutDraft[] = [];
  const noEffect: NoEffectDraft[] = [];
  const principals: PlanPrincipal[] = input.access.principals.map((pa, i) => {
    const temp = pa.grants.find((ga) => ga.grant.implicit?.privateTmp && ga.applies.windows)?.grant.path;
    return {
      id: pa.principal.id,
      kind: pa.principal.kind,
      sessionSid: sessionSidPlaceholder(i + 1),
      ...(temp ? { privateTemp: { path: temp, env: { TMP: temp, TEMP: temp } } } : {}),
    };
  });
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
          implicit: implicitTexts.secretSpelling(w),
          source: 'secret',
          written: w.windows,
        };
        const root = /^%[A-Z]+%/.exec(w.windows)![0];
        denies.push(
          denyStep(o, c.path, { root, rest: w.windows.slice(root.length), spelled: w.windows }, { kind: 'secret-spelling', spelling: w }),
        );
        continue;
      }
      const mapped = toWindows(c.path, home);
      const o: Origin = {
        principal: '*',
        configLine: null,
        implicit: implicitTexts.listedSecret,
        source: 'secret',
        written: c.listed ?? c.path,
      };
      if (mapped.ok) denies.push(denyStep(o, c.path, mapped.path, { kind: 'listed-secret' }));
      else leftOut.push({ ...o, posixPath: c.path, because: { kind: 'no-windows-path', unmapped: mapped.why }, ruleId: NO_WINDOWS_PATH });
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
      why: stepText(d.because),
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
      restrictingSids: RESTRICTING_SIDS_TEXT,
    },
    principals,
    readModel: 'open',
    steps,
    leftOut: leftOut.map((l) => ({
      ...originOf(l),
      posixPath: l.posixPath,
      reason: reasonText(l.because),
      ruleId: l.ruleId,
    })),
    noEffect: noEffect.map((n) => ({ ...originOf(n), path: n.path, reason: reasonText(n.because), ruleId: n.ruleId })),
    readable,
    notes: [
      ...planNotes(ir.fs.knowsFacts, readable.length, input.access.secrets.windows),
      ...(steps.some((st) => st.action === 'label-read-only') ? [HOST_TRUSTED_NOTE] : []),
    ],
  };
}

/** An entry's origin fields alone, in the plan's key order. */
function originOf(o: Origin): Origin {
  return {
    principal: o.principal,
    configLine: o.configLine,
    ...(o.implicit !== undefined ? { implicit: o.implicit } : {}),
    source: o.source,
    written: o.written,
  };
}
