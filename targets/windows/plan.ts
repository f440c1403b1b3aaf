/*
 * The Windows ACL plan (acl-plan.json), described field by field in
 * acl-plan.schema.json. It lowers the one effective-access model: which
 * grants write, which paths are denied, comes from `input.access`; this file
 * only decides how Windows spells and enforces it. Its shape is plan-shape.ts;
 * each principal's grants are lowered to drafts in plan-lower.ts.
 */
import { isStrictlyUnder, type HostTrustedPath } from '../../compiler/paths/index.js';
import { version } from '../../compiler/version.js';
import { headerLines, sha256Hex, TargetError, type CompileInput } from '../target.js';
import { HOST_TRUSTED_NOTE, implicitTexts, planNotes, RESTRICTING_SIDS_TEXT, reasonText, stepText } from './messages.js';
import { toWindows } from './paths.js';
import { denyStep, lowerPrincipal, NO_WINDOWS_PATH, type Draft, type LeftOutDraft, type NoEffectDraft } from './plan-lower.js';
import type { AclPlan, Origin, PlanPrincipal, PlanStep, Readable } from './plan-shape.js';
import {
  lowLabelFile,
  lowLabelTree,
  readOnlyContainer,
  readOnlyFile,
  sessionSidPattern,
  sessionSidPlaceholder,
  tokenTemplate,
} from './sddl.js';

export type { AclPlan, LeftOut, NoEffect, PlanPrincipal, PlanStep, Readable, Source, StepAction } from './plan-shape.js';

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
