/**
 * The Windows ACL plan's drafts (plan.ts numbers and words them): one
 * principal's grants lowered to write and deny steps, and what has no step
 * (left out: no Windows spelling; no effect: reads are open).
 */
import type { Grant } from '../../compiler/ir/types.js';
import type { GrantAccess, PrincipalAccess } from '../../model/index.js';
import { explanation, type RuleId } from '../../rules/index.js';
import type { DenyOf, Grantor, PlanReason, StepReason } from './messages.js';
import { toWindows, type WindowsPath } from './paths.js';
import type { LeftOut, NoEffect, Origin, PlanStep } from './plan-shape.js';
import { allowAce, denyReadContainer, denyReadFile, lowLabelFile, lowLabelTree } from './sddl.js';

/** The rules the plan points reviewers to where no model fact does: a path with no Windows spelling, the workspace. */
export const NO_WINDOWS_PATH: RuleId = 'no-windows-path';
const WORKSPACE_NO_CONTENT: RuleId = 'workspace-no-content';

/** A step before its id, with why it exists as a typed reason (worded by messages.ts when the plan is assembled). */
export type Draft = Omit<PlanStep, 'id' | 'undo' | 'why'> & { readonly because: StepReason };
/** A left-out or no-effect entry, with its typed reason. */
export type LeftOutDraft = Omit<LeftOut, 'reason'> & { readonly because: PlanReason };
export type NoEffectDraft = Omit<NoEffect, 'reason'> & { readonly because: PlanReason };

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
export function lowerPrincipal(
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

export function denyStep(o: Origin, posixPath: string | null, path: WindowsPath, of: DenyOf): Draft {
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
