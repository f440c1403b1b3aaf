/**
 * What `boxwright run` says on Linux about a command the sandbox cannot
 * run: the files it lacks (the command itself, a link on the way to it, its
 * loader, its libraries, its #! interpreter) and the grants that would
 * bring them, in the config's dialect. The files come from the command's
 * needs (compiler/paths/exec-needs.ts) and the model's one judgement of
 * them (PrincipalAccess.linuxMissing); a hint never names a grant that
 * would not work (a link's own path, which a grant may not name, or a
 * directory whose entry resolves elsewhere), so following it cannot lead
 * back to the same refusal.
 */
import { posix } from 'node:path';
import { execNeeds, walkOnHost, type Candidate, type ExecNeeds } from '../../../compiler/paths/exec-needs.js';
import type { FsView } from '../../../compiler/paths/index.js';
import { grantsFor, startsWith, type GrantsToAdd, type MissingNeed } from '../../../model/exec-start.js';
import type { PrincipalAccess } from '../../../model/index.js';
import { grantsInWords, missingInWords, tableName } from '../../../rules/exec-dependencies.js';
import type { CompileOutcome } from '../../../app/cli/compile.js';

type Compiled = Extract<CompileOutcome, { ok: true }>;

/** The grants in the config's dialect: a Box principal's lists, or TYBA's read_allow (trees; a tree's file is the file). */
function grantsHere(outcome: Compiled, pa: PrincipalAccess, add: GrantsToAdd): string {
  if (outcome.check.ir.dialect === 'tyba') {
    const all = [...new Set([...add.read, ...add.read_file, ...add.exec])];
    return all.length ? `Add to [sandbox]: read_allow = [${all.map((p) => JSON.stringify(p)).join(', ')}]` : '';
  }
  return grantsInWords(add, tableName(pa.principal));
}

/** Where the command is on this machine, as execvp would find it: a path (from the working directory), or the first on PATH. */
function onHost(disk: FsView, command: string, env: Record<string, string>, cwd: string): Candidate[] {
  if (command.includes('/')) {
    const w = walkOnHost(disk, posix.resolve(cwd, command));
    return w.ok && w.kind === 'file' ? [{ walk: w.walk }] : [];
  }
  const out: Candidate[] = [];
  for (const dir of (env['PATH'] ?? '/bin:/usr/bin').split(':').filter((d) => d.startsWith('/'))) {
    const w = walkOnHost(disk, posix.join(dir, command));
    if (w.ok && w.kind === 'file' && disk.executable(w.walk.target) !== 'no') out.push({ walk: w.walk, via: 'path' });
  }
  return out;
}

/**
 * The hint for a command the view does not hold (127): where it is on this
 * machine, every link on the way, and the grants that bring the name and
 * the file in; or that it is not on this machine either.
 */
export function notFoundHint(
  outcome: Compiled,
  id: string,
  command: string,
  env: Record<string, string>,
  disk: FsView,
  cwd: string,
): string {
  const pa = outcome.check.model.principals.find((p) => p.principal.id === id)!;
  const candidates = onHost(disk, command, env, cwd);
  const first = candidates[0];
  if (!first) return `It is not on this machine either${command.includes('/') ? '' : ' (not on PATH)'}: name a program that exists.`;
  const need: ExecNeeds = {
    program: first.walk.target,
    needs: [{ kind: 'runs', by: 'the command', name: command, right: 'exec', candidates: [first] }],
    problems: [],
    unknown: [],
  };
  // The name and the file, and what the file needs to start once it is there: one round of grants, not one per refusal.
  const missing = [...pa.linuxMissing(need), ...pa.linuxMissing(execNeeds(disk, first.walk.target)).filter(startsWith)];
  const where = `It is at ${first.walk.spelled} on this machine${
    first.walk.links.length
      ? `, which resolves to ${first.walk.target} through the ` +
        `link${first.walk.links.length === 1 ? '' : 's'} ${first.walk.links.join(', ')}`
      : ''
  }`;
  const denied = missing.find((m) => m.denied)?.denied;
  if (denied) return `${where}; a deny covers ${denied}: no grant brings it back.`;
  const add = grantsHere(outcome, pa, grantsFor(missing));
  if (!add) return `${where}, which ${id}'s grants hold: name it by a path inside a granted tree (${first.walk.target}).`;
  const why = missing.some((m) => m.links.length) ? ' (a grant may not name a link: the directory that holds it shows it)' : '';
  return `${where}. ${add}${why}, or name it by the path it resolves to once that is granted.`;
}

/** What the command lacks to start in the sandbox, in words with the grants, or undefined (it starts, as far as the facts go). */
export function cannotStart(outcome: Compiled, id: string, program: string, disk: FsView): string | undefined {
  const pa = outcome.check.model.principals.find((p) => p.principal.id === id)!;
  const missing: MissingNeed[] = pa.linuxMissing(execNeeds(disk, program)).filter(startsWith);
  if (!missing.length) return undefined;
  const files = [...new Set(missing.map((m) => m.candidate.walk.target))];
  const add = grantsHere(outcome, pa, grantsFor(missing));
  return (
    `${program} cannot start in ${id}'s sandbox: ${missingInWords(missing)} ` +
    `${missing.length === 1 ? 'is' : 'are'} not in the view (${files.join(', ')})${add ? `. ${add}` : ''}`
  );
}
