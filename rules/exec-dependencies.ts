import type { Principal } from '../compiler/ir/types.js';
import { grantsFor, startsWith, type GrantsToAdd, type MissingNeed } from '../model/exec-start.js';
import { defineRule } from './engine/engine.js';
import { addKey, addToList, fixOf } from './engine/fix.js';
import { authored, listPaths, shown, who } from './util.js';

/** The missing needs in words: what the program lacks, by kind, each named once. */
export function missingInWords(missing: readonly MissingNeed[]): string {
  const names = (kind: MissingNeed['need']['kind'], among = missing): string[] => [
    ...new Set(among.filter((m) => m.need.kind === kind).map((m) => m.need.name)),
  ];
  const parts: string[] = [];
  const start = missing.filter(startsWith);
  const interp = names('interpreter', start);
  if (interp.length) parts.push(`its ELF interpreter ${listPaths(interp)}`);
  const script = names('script-interpreter', start);
  if (script.length) parts.push(`its #! interpreter ${listPaths(script)}`);
  const libs = names('library', start);
  if (libs.length) parts.push(`the librar${libs.length === 1 ? 'y' : 'ies'} ${listPaths(libs, 8)}`);
  // What it runs and reads later: the programs, once each (what they need in turn is said as such, not listed again).
  const runs = [...new Set(missing.filter((m) => m.need.kind === 'runs').map((m) => m.candidate.walk.target))];
  const theirs = missing.some((m) => m.need.later && m.need.kind !== 'runs' && m.need.kind !== 'reads');
  if (runs.length)
    parts.push(
      `the program${runs.length === 1 ? '' : 's'} it runs (${listPaths(runs)}${theirs ? `, and what ${runs.length === 1 ? 'it needs' : 'they need'}` : ''})`,
    );
  const reads = names('reads');
  if (reads.length) parts.push(`the tree${reads.length === 1 ? '' : 's'} it reads (${listPaths(reads)})`);
  const last = parts.pop() ?? 'nothing';
  return parts.length ? `${parts.join(', ')} and ${last}` : last;
}

/** `X is` or `X and Y are`. */
const isOrAre = (words: string): string => `${words} ${/ and |, |ies |programs |trees /.test(words) ? 'are' : 'is'}`;

/** What keeps a program from starting (its interpreter, libraries, #! interpreter), and the rest. */
const starting = startsWith;

/** What a deny keeps from the program, if anything. */
function deniedInWords(missing: readonly MissingNeed[]): string {
  const denied = [...new Set(missing.flatMap((m) => (m.denied ? [m.denied] : [])))];
  return denied.length ? ` (a deny covers ${listPaths(denied)}: no grant brings ${denied.length === 1 ? 'it' : 'them'} back)` : '';
}

/** The grants as TOML a person can paste into the principal's table. */
export function grantsInWords(add: GrantsToAdd, table: string): string {
  const lists = (['read', 'read_file', 'exec'] as const)
    .filter((l) => add[l].length)
    .map((l) => `${l} = [${add[l].map((p) => JSON.stringify(p)).join(', ')}]`);
  return lists.length ? `Add to [${table}]: ${lists.join('; ')}` : '';
}

/** The principal's filesystem table, as a Box config names it. */
export function tableName(p: Pick<Principal, 'kind' | 'name'>): string {
  return p.kind === 'agent' ? 'agent.filesystem' : p.kind === 'tool' ? `tools.${p.name}.filesystem` : `mcp_servers.${p.name}.filesystem`;
}

export const execDependencies = defineRule({
  meta: {
    id: 'exec-dependencies',
    seedRow:
      "Box's platform table, row: Loader directory reads (alternative: grant exact executable files with their discovered transitive dependencies)",
    dialects: ['box'],
    docs: {
      summary:
        "A program an exec grant names cannot start, or cannot run what it runs, in the principal's Linux " +
        'sandbox: its loader, libraries or helpers are not in the view.',
      details:
        "An `exec` grant binds the one file; the kernel also needs the program's ELF interpreter (PT_INTERP, " +
        'which it checks for execute), the loader then opens its libraries (DT_NEEDED, searched through ' +
        "DT_RPATH, DT_RUNPATH with `$ORIGIN`, the loader's cache and the system directories, transitively), " +
        'a `#!` script needs its interpreter, and some programs run others or read a tree (compiler/paths/programs.json: ' +
        "gcc's cc1, as and ld; git's exec path; make's /bin/sh; CPython's standard library; the program " +
        '`env` runs). boxwright reads the files itself, through the filesystem view (never `ldd`, which ' +
        'runs them): `--fs host` reads them, a manifest records them (`{"elf": …}`, `{"script": …}`, ' +
        '`ldCache`, `path`), `--fs none` knows none (one info). Every link on the way counts: a grant may ' +
        'not name a link, so the directory that holds one must be read. The suggestion is the exact grants ' +
        'to add — read trees for the directories of links, one-file reads for the libraries, exec for what ' +
        "the kernel executes — as a fix. Reported on Linux (macOS's baseline and Windows' open reads give " +
        'the system libraries); what the program opens later (a plugin, a `dlopen`) is not known before ' +
        'it runs (`boxwright run` reports the programs Landlock refused it).',
      bad: { toml: '[agent.filesystem]\nexec = ["/usr/bin/git"]', expect: ['2:9 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]\nexec = ["/usr/bin/git"]', expect: [] },
    },
  },
  messages: {
    starts: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { program: string; who: string; missing: string; later: string; denied: string }) =>
        `${d.program} cannot start in ${d.who}'s sandbox on Linux: ${isOrAre(d.missing)} not in the view` +
        `${d.later ? `; nor, for later, ${d.later}` : ''}${d.denied}`,
      suggestion: (d: { grants: string }) => d.grants || 'Name what it needs by the paths it resolves to, outside every deny.',
    },
    runs: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { program: string; who: string; missing: string; denied: string; why: string }) =>
        `${d.program} starts in ${d.who}'s sandbox on Linux, but ${isOrAre(d.missing)} not in the view or ` +
        `not executable there, so it fails when it gets to them${d.denied}: ${d.why}`,
      suggestion: (d: { grants: string }) => d.grants || 'Name what it needs by the paths it resolves to, outside every deny.',
    },
    broken: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { problem: string }) => `${d.problem}`,
      suggestion: 'Install what it needs, or name another program.',
    },
    temporaries: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { program: string; who: string }) =>
        `${d.program} writes temporary files in $TMPDIR (/tmp without it), and ${d.who} cannot write /tmp ` +
        `on Linux: it fails unless TMPDIR names a directory under one of its write grants (boxwright run ` +
        `passes TMPDIR through)`,
      suggestion:
        "Set private_tmp = true in this principal's filesystem table: a temp directory of its own (Linux a private tmpfs at /tmp, TMPDIR=/tmp).",
    },
    unknown: {
      severity: 'info',
      platforms: ['linux'],
      machineDependent: true,
      text: (d: { path: string; fs: string }) =>
        `depends on the machine: what executing ${d.path} needs (its loader, libraries, #! interpreter) must be in the view (--fs ${d.fs} knows no programs)`,
    },
  },
  explains: {
    'exec-needs-missing': (f) =>
      f.starts
        ? `x, but it cannot start: ${isOrAre(missingInWords(f.missing.filter(starting)))} not in the view`
        : `x, but ${isOrAre(missingInWords(f.missing))} not in the view or not executable there: it fails when it gets to them`,
  },
  grant(g, ga, pa, ctx) {
    if (g.access !== 'exec') return;
    const p = pa.principal;
    if (!ctx.view.knowsFacts) {
      // Said once a lint, at the first exec grant: without machine facts no program's needs are known.
      if (!unknownSaid.has(ctx) && g.facts.existence !== 'absent')
        ctx.report('unknown', { span: g.span }, { path: shown(g), fs: ctx.view.description });
      unknownSaid.add(ctx);
      return;
    }
    const needs = g.needs;
    if (!needs) return;
    for (const problem of needs.problems) ctx.report('broken', { span: g.span }, { problem });
    const fact = (ga.disclosures.linux ?? []).find((m) => m.kind === 'exec-needs-missing');
    if (fact?.kind === 'exec-needs-missing') {
      const add = grantsFor(fact.missing);
      const fix = fixOf(
        ...(['read', 'read_file', 'exec'] as const).filter((l) => add[l].length).map((l) => addToList(p.written, authored(p), l, add[l])),
      );
      const data = { program: shown(g), who: who(p), denied: deniedInWords(fact.missing), grants: grantsInWords(add, tableName(p)) };
      const later = fact.missing.filter((m) => !starting(m));
      if (fact.starts)
        ctx.report(
          'starts',
          { span: g.span, ...(fix ? { fix } : {}) },
          { ...data, missing: missingInWords(fact.missing.filter(starting)), later: later.length ? missingInWords(later) : '' },
        );
      else
        ctx.report(
          'runs',
          { span: g.span, ...(fix ? { fix } : {}) },
          {
            ...data,
            missing: missingInWords(fact.missing),
            why: [...new Set(fact.missing.flatMap((m) => (m.need.reason ? [m.need.reason] : [])))].join('; '),
          },
        );
    }
    if (needs.temporaries) {
      const tmp = pa.effectiveAt('/tmp', 'linux');
      if (!(tmp.kind === 'access' && tmp.write))
        ctx.report(
          'temporaries',
          { span: g.span, fix: fixOf(addKey(p.written, 'private_tmp', 'true')) },
          { program: shown(g), who: who(p) },
        );
    }
  },
});

/** The lints (a rule context each) that have said `unknown` already. */
const unknownSaid = new WeakSet<object>();
