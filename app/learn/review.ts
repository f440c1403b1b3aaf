/**
 * learn's review and `--check`, as views of one decision: what the traced
 * run needed (needs.ts) and what the config gives (the model).
 *
 * Lint's `exec-dependencies` judges two things of an exec grant: whether
 * the program can start (its loader, libraries, `#!` interpreter) — the
 * judgement `boxwright run` itself makes before it runs a command
 * (PrincipalAccess.linuxMissing, run-hints.ts: the needs a program starts
 * with) — and what it may need later, from what programs.json knows it can
 * run or read (make's /bin/sh for a recipe with the shell's syntax, gcc's
 * whole /usr/include). For a learned config the second is known: the run
 * did what it did, the config gives each of its needs (or learn reports
 * it), and `--check` replays it. A later need no access of the run reached
 * beyond what the config gives is a prediction for other runs, not a defect
 * of this config: the review says so as a note, where lint alone warns
 * that the program "fails when it gets to them", which `--check` then
 * contradicts (issue 34, finding 11: "make cannot reach /bin/sh" after a
 * `--check` that passed, the Makefile's recipe having no shell syntax).
 * A need the program starts with, and a later need of an access the run
 * made that the config does not give, stay warnings: `run` and `--check`
 * fail there too.
 */
import { isUnder } from '../../compiler/paths/index.js';
import { verdictsOf, type Diagnostic, type Platform, type Verdict } from '../../compiler/diagnostic.js';
import { startsWith, type MissingNeed } from '../../model/exec-start.js';
import { missingInWords } from '../../rules/exec-dependencies.js';
import type { CheckedPolicy } from '../check.js';
import type { Need } from './needs.js';
import type { Access, WorkloadTrace } from './trace.js';

export interface Reviewed {
  /** The check as learn reviews it: the model's facts of later needs beyond the run left out (explain's matrix reads them). */
  readonly check: CheckedPolicy;
  readonly diagnostics: readonly Diagnostic[];
  readonly verdicts: Readonly<Record<Platform, Verdict>>;
  /** Later needs of the programs that this run did not have: one line per program. */
  readonly beyondRun: readonly string[];
}

/** Whether the config gives, on Linux, what the run needed at `n`'s path. */
function given(check: CheckedPolicy, principal: string, n: Need): boolean {
  // A directory's properties need no grant (policy.ts): it is in the view when anything below it is.
  if (n.kind === 'stat' && n.is === 'dir') return true;
  const pa = check.model.principals.find((p) => p.principal.id === principal);
  if (!pa) return false;
  const cell = pa.effectiveAt(n.path, 'linux');
  if (cell.kind !== 'access') return false;
  if (n.kind === 'exec') return cell.exec;
  if (n.kind === 'write-dir' || n.kind === 'write-file') return cell.write;
  return cell.read || n.kind === 'link';
}

/** A missing later need the run reached: one of its needs at or under what it names is not given. */
function reachedByRun(m: MissingNeed, needs: readonly Need[], ungiven: (n: Need) => boolean): boolean {
  const target = m.candidate.walk.target;
  return needs.some((n) => (isUnder(n.path, target) || m.candidate.walk.links.includes(n.path)) && ungiven(n));
}

export function reviewDiagnostics(check: CheckedPolicy, principal: string, needs: readonly Need[]): Reviewed {
  const pa = check.model.principals.find((p) => p.principal.id === principal);
  const beyondRun: string[] = [];
  const dropped = new Set<string>();
  const ungiven = (n: Need): boolean => !given(check, principal, n);
  for (const ga of pa?.grants ?? []) {
    const fact = (ga.disclosures.linux ?? []).find((m) => m.kind === 'exec-needs-missing');
    if (fact?.kind !== 'exec-needs-missing' || fact.starts) continue;
    const later = fact.missing.filter((m) => !startsWith(m));
    if (later.some((m) => reachedByRun(m, needs, ungiven))) continue;
    dropped.add(spanKey(ga.grant.span.start));
    beyondRun.push(
      `${fact.program} may also need ${missingInWords(later)} (what boxwright knows it can run or read); ` +
        'this run needed no more of them than the config gives: learn again into this file (it merges) from a run that does',
    );
  }
  if (!dropped.size) return { check, diagnostics: check.diagnostics, verdicts: check.verdicts, beyondRun };
  const diagnostics = check.diagnostics.filter(
    (d) => !(d.ruleId === 'exec-dependencies' && d.severity === 'warning' && dropped.has(spanKey(d.span.start))),
  );
  // The model's objects are plain (model.ts): a copy without the fact keeps every other answer.
  const model = {
    ...check.model,
    principals: check.model.principals.map((p) =>
      p !== pa
        ? p
        : {
            ...p,
            grants: p.grants.map((ga) =>
              dropped.has(spanKey(ga.grant.span.start))
                ? {
                    ...ga,
                    disclosures: { ...ga.disclosures, linux: (ga.disclosures.linux ?? []).filter((m) => m.kind !== 'exec-needs-missing') },
                  }
                : ga,
            ),
          },
    ),
  };
  const verdicts = verdictsOf(diagnostics);
  return { check: { ...check, model, diagnostics, verdicts }, diagnostics, verdicts, beyondRun };
}

const spanKey = (p: { line: number; column: number }): string => `${p.line}:${p.column}`;

/**
 * The check run's accesses that failed where the learning run's same call at the same path succeeded, and
 * that the learning run never saw fail the same way: a `stat` of a file the build makes is ENOENT before it
 * and found after in both runs, a readlink of a file that is no link is EINVAL in both (the same path's
 * newfstatat succeeding is no promise about its readlink).
 */
export function stillFailing(learned: WorkloadTrace, checked: WorkloadTrace, needs: readonly Need[]): Access[] {
  // A directory looked at for its properties only is granted nothing of its own (policy.ts): where nothing below it is
  // granted it is not in the view, a choice of the policy (gcc's probe of /usr/local/include), not a failure of the config.
  const dirStats = new Set(needs.filter((n) => n.kind === 'stat' && n.is === 'dir').map((n) => n.first.named));
  const key = (a: Access): string => `${a.syscall}\0${a.op}\0${a.path}`;
  const ok = new Set(learned.accesses.filter((a) => a.ok).map(key));
  const failedAlike = new Set(learned.accesses.filter((a) => !a.ok).map((a) => `${key(a)}\0${a.errno}`));
  const seen = new Set<string>();
  const out: Access[] = [];
  for (const a of checked.accesses) {
    const k = key(a);
    if (
      a.ok ||
      a.op === 'connect' ||
      (a.op === 'stat' && dirStats.has(a.path)) ||
      !ok.has(k) ||
      failedAlike.has(`${k}\0${a.errno}`) ||
      seen.has(k)
    )
      continue;
    seen.add(k);
    out.push(a);
  }
  return out;
}
