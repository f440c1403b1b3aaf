/**
 * What executing a program needs on this machine, found through the one
 * filesystem view: its ELF interpreter (which the kernel maps with it and
 * checks for execute), the libraries its loader opens (DT_NEEDED, searched
 * as glibc's ld.so does: DT_RPATH, DT_RUNPATH with `$ORIGIN`, the loader's
 * cache, the system directories, transitively), a `#!` interpreter (and
 * what that one needs), and what programs.json knows a program runs or
 * reads. Each need is a list of candidates in the order the kernel, the
 * loader or the program tries them, each with every symbolic link on the
 * way: a sandbox must show the links' entries as well as the file.
 *
 * Facts, not judgements: whether a principal's sandbox holds a need is the
 * model's question (model/exec-start.ts). Nothing here runs the program.
 */
import { machineName, type ElfFacts, type ProgramFacts } from './elf.js';
import loaderData from './loaders.json' with { type: 'json' };
import programData from './programs.json' with { type: 'json' };
import type { FsView } from './view.js';

/** A path as the kernel or loader opens it, followed through the view. */
export interface HostWalk {
  /** As opened (`/lib64/ld-linux-x86-64.so.2`). */
  readonly spelled: string;
  /** Each path on the way whose entry is a symbolic link, in order: a view shows it only where it shows that entry. */
  readonly links: readonly string[];
  /** Where the walk ends, no link left in it. */
  readonly target: string;
}

/** One place a need can be met, in the order it is tried. */
export interface Candidate {
  readonly walk: HostWalk;
  /** How the loader got there: RPATH, RUNPATH, its cache (which the sandbox must show), a system directory; `path`: a name on PATH. */
  readonly via?: 'rpath' | 'runpath' | 'cache' | 'system' | 'path';
}

export type NeedKind = 'interpreter' | 'script-interpreter' | 'library' | 'runs' | 'reads';

export interface Need {
  readonly kind: NeedKind;
  /** The program (or library) that needs it. */
  readonly by: string;
  /** What it is called there: a soname, a name looked up on PATH, the path as written. */
  readonly name: string;
  /** `exec`: the kernel executes it (an interpreter, a program run); `read`: it is opened (a library, a tree of data). */
  readonly right: 'exec' | 'read';
  /** A directory the program reads below (a `reads` tree). */
  readonly tree?: true;
  /** `shown`: needed only where a sandbox shows the first candidate (programs.json). */
  readonly when?: 'shown';
  readonly candidates: readonly Candidate[];
  /** programs.json's reason, for `runs` and `reads`. */
  readonly reason?: string;
  /**
   * Needed once the program runs, not for it to start: what a program it
   * runs needs (and that program itself), a tree it reads later. Absent:
   * the program cannot start without it (its interpreter, its libraries, a
   * #! interpreter, what `env` runs for a #! line, CPython's library).
   */
  readonly later?: true;
}

export interface ExecNeeds {
  readonly program: string;
  readonly needs: readonly Need[];
  /** What keeps it from starting on this machine at all, sandbox or not: a library that is nowhere, a malformed file. */
  readonly problems: readonly string[];
  /** What the view could not say (`--fs none`, a manifest that records no program, PATH unknown): the needs are then incomplete. */
  readonly unknown: readonly string[];
  /** programs.json: the program writes temporary files in $TMPDIR (/tmp without it). */
  readonly temporaries?: string;
}

/** The kernel follows at most 40 links in a path (ELOOP). */
const MAX_LINK_HOPS = 40;
/** The kernel runs at most five interpreters deep (exec_binprm); the closure follows programs run by programs as deep. */
const MAX_DEPTH = 5;
/** More libraries than any program loads; a bound on the walk. */
const MAX_OBJECTS = 512;
const MAX_CANDIDATES = 8;

const SYSTEM_DIRS: Readonly<Record<string, readonly string[]>> = loaderData.systemDirectories;

interface ProgramEntry {
  readonly name: string;
  readonly match: string;
  readonly runs: readonly {
    readonly path?: string;
    readonly name?: string;
    readonly when?: string;
    readonly if?: Readonly<Record<string, string>>;
  }[];
  readonly reads: readonly string[];
  /** The reads are needed to start (CPython's standard library), not only later. */
  readonly readsAtStart?: boolean;
  readonly temporaries?: boolean;
  readonly runsOperand?: boolean;
  readonly reason: string;
  readonly source: string;
}

const PROGRAMS: readonly (ProgramEntry & { readonly re: RegExp })[] = (programData.programs as readonly ProgramEntry[]).map((p) => ({
  ...p,
  re: new RegExp(p.match),
}));

type Walked =
  | { readonly ok: true; readonly walk: HostWalk; readonly kind: 'file' | 'dir' | 'other' }
  | { readonly ok: false; readonly why: 'absent' | 'unknown' | 'loop' };

/** Follows `path` through the view as the kernel would, keeping every link it passes. */
export function walkOnHost(view: FsView, path: string): Walked {
  const pending = path.split('/').filter((p) => p !== '' && p !== '.');
  const links: string[] = [];
  let current = '';
  let kind: 'file' | 'dir' | 'other' = 'dir';
  let hops = 0;
  while (pending.length) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      current = current.slice(0, current.lastIndexOf('/'));
      kind = 'dir';
      continue;
    }
    const next = `${current}/${part}`;
    const found = view.lookup(next);
    if (found.kind === 'unknown') return { ok: false, why: 'unknown' };
    if (found.kind === 'absent') return { ok: false, why: 'absent' };
    if (found.kind === 'symlink') {
      if (++hops > MAX_LINK_HOPS) return { ok: false, why: 'loop' };
      links.push(next);
      pending.unshift(...found.target.split('/').filter((p) => p !== ''));
      if (found.target.startsWith('/')) current = '';
      continue;
    }
    if (pending.length && found.kind !== 'dir') return { ok: false, why: 'absent' };
    current = next;
    kind = found.kind;
  }
  return { ok: true, walk: { spelled: path, links, target: current || '/' }, kind };
}

const dirname = (p: string): string => {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
};
const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const join = (dir: string, name: string): string => (dir.endsWith('/') ? dir + name : `${dir}/${name}`);

/**
 * What executing `program` (a path with no link in it) needs. Pure over
 * the view; every question it asks goes through it.
 */
export function execNeeds(view: FsView, program: string): ExecNeeds {
  const c = new Closure(view);
  c.program(program, 0, false);
  return { program, needs: c.needs, problems: c.problems, unknown: c.unknown, ...(c.temporaries ? { temporaries: c.temporaries } : {}) };
}

class Closure {
  readonly needs: Need[] = [];
  readonly problems: string[] = [];
  readonly unknown: string[] = [];
  temporaries: string | undefined;
  private readonly visited = new Set<string>();
  private objects = 0;

  constructor(private readonly view: FsView) {}

  /** A program the kernel executes: its format's needs, then what programs.json knows of it. */
  program(path: string, depth: number, later: boolean): void {
    if (this.visited.has(path)) return;
    this.visited.add(path);
    if (depth > MAX_DEPTH)
      return void this.problems.push(`${path}: programs run more than ${MAX_DEPTH} deep (the kernel's limit for interpreters)`);
    const facts = this.view.program(path);
    switch (facts.kind) {
      case 'unknown':
        this.unknown.push(`what ${path} needs to start`);
        break;
      case 'malformed':
        this.problems.push(`${path} cannot start: ${facts.problem}`);
        break;
      case 'other':
        break;
      case 'script':
        this.script(path, facts, depth, later);
        break;
      case 'elf':
        this.elf(path, facts, later);
        break;
    }
    this.known(path, depth, later);
  }

  private push(need: Need, later: boolean): void {
    this.needs.push(later ? { ...need, later: true } : need);
  }

  private script(path: string, facts: Extract<ProgramFacts, { kind: 'script' }>, depth: number, later: boolean): void {
    const spelled = facts.interpreter;
    if (!spelled.startsWith('/'))
      return void this.problems.push(
        `${path} names a relative #! interpreter (${spelled}), which the kernel looks up from the current directory`,
      );
    const w = walkOnHost(this.view, spelled);
    if (!w.ok) return void this.missing(w.why, `${path}'s #! interpreter ${spelled}`);
    this.push({ kind: 'script-interpreter', by: path, name: spelled, right: 'exec', candidates: [{ walk: w.walk }] }, later);
    this.program(w.walk.target, depth + 1, later);
    // `#!/usr/bin/env node`: env runs its operand (programs.json).
    const entry = PROGRAMS.find((p) => p.runsOperand && p.re.test(basename(w.walk.target)));
    const operand = entry && facts.argument !== undefined ? envOperand(facts.argument) : undefined;
    // What env starts for a #! line is what the script needs to start at all.
    if (entry && operand) this.runs(w.walk.target, operand, undefined, entry.reason, depth + 1, later);
  }

  private elf(path: string, main: ElfFacts, later: boolean): void {
    if (main.interpreter === undefined) return; // static: nothing else is mapped
    const w = walkOnHost(this.view, main.interpreter);
    if (!w.ok) this.missing(w.why, `${path}'s ELF interpreter ${main.interpreter}`);
    else this.push({ kind: 'interpreter', by: path, name: main.interpreter, right: 'exec', candidates: [{ walk: w.walk }] }, later);
    const loader = basename(main.interpreter);
    // Breadth first, as the loader maps them; one object per soname.
    const loaded = new Set<string>([loader]);
    const queue: { readonly opened: string; readonly facts: ElfFacts; readonly origin: string }[] = [
      { opened: path, facts: main, origin: dirname(path) },
    ];
    while (queue.length) {
      const o = queue.shift()!;
      for (const soname of o.facts.needed) {
        if (loaded.has(soname)) continue;
        loaded.add(soname);
        if (++this.objects > MAX_OBJECTS) return void this.problems.push(`${path} loads more than ${MAX_OBJECTS} libraries`);
        const candidates = this.libraryCandidates(soname, o, { facts: main, origin: dirname(path) });
        if (candidates === 'unknown') {
          this.unknown.push(`where the loader finds ${soname}`);
          continue;
        }
        if (!candidates.length) {
          this.problems.push(
            `${path} cannot start on this machine either: ${soname}${o.opened === path ? '' : ` (needed by ${o.opened})`} is in none of the loader's places`,
          );
          continue;
        }
        this.push({ kind: 'library', by: o.opened, name: soname, right: 'read', candidates }, later);
        const first = candidates[0]!.walk;
        const lib = this.view.program(first.target);
        if (lib.kind === 'elf') queue.push({ opened: first.spelled, facts: lib, origin: dirname(first.spelled) });
        else if (lib.kind === 'unknown') this.unknown.push(`what ${first.target} needs`);
      }
    }
  }

  /**
   * Where the loader looks for `soname` for object `o`, in its order
   * (ld.so(8)): o's DT_RPATH and then the program's, unless o has a
   * DT_RUNPATH; o's DT_RUNPATH; the cache and the system directories,
   * unless o is DF_1_NODEFLIB. LD_LIBRARY_PATH is left out: the sandbox's
   * environment does not pass it. A file of another ELF class or machine
   * is passed over, as the loader does.
   */
  private libraryCandidates(
    soname: string,
    o: { readonly facts: ElfFacts; readonly origin: string },
    main: { readonly facts: ElfFacts; readonly origin: string },
  ): Candidate[] | 'unknown' {
    const out: Candidate[] = [];
    const fits = (target: string): boolean => {
      const f = this.view.program(target);
      return f.kind === 'unknown' || (f.kind === 'elf' && f.elfClass === main.facts.elfClass && f.machine === main.facts.machine);
    };
    const tryPath = (spelled: string, via: NonNullable<Candidate['via']>): void => {
      if (out.length >= MAX_CANDIDATES || out.some((c) => c.walk.spelled === spelled && c.via !== 'cache')) return;
      const w = walkOnHost(this.view, spelled);
      if (w.ok && w.kind === 'file' && fits(w.walk.target)) out.push({ walk: w.walk, via });
    };
    if (soname.includes('/')) {
      if (soname.startsWith('/')) tryPath(soname, 'path');
      return out;
    }
    const dirs = (list: readonly string[], origin: string): string[] => list.flatMap((d) => expandOrigin(d, origin));
    if (!o.facts.runpath.length) {
      for (const d of dirs(o.facts.rpath, o.origin)) tryPath(join(d, soname), 'rpath');
      if (o.facts !== main.facts && !main.facts.runpath.length)
        for (const d of dirs(main.facts.rpath, main.origin)) tryPath(join(d, soname), 'rpath');
    }
    for (const d of dirs(o.facts.runpath, o.origin)) tryPath(join(d, soname), 'runpath');
    if (!o.facts.noDefaultLib) {
      const cached = this.view.cachedLibrary(soname);
      if (cached !== 'unknown' && cached !== 'none') tryPath(cached, 'cache');
      const system = SYSTEM_DIRS[machineName(main.facts.machine)] ?? [];
      for (const d of system) tryPath(join(d, soname), 'system');
      // Found nowhere the view knows, with a cache it cannot read: where the cache would send the loader is unknown.
      if (!out.length && cached === 'unknown') return 'unknown';
    }
    // A cache entry that a system directory's search finds as well needs no cache in the sandbox: the system one stands for it.
    return out.filter((c) => c.via !== 'cache' || !out.some((s) => s.via === 'system' && s.walk.spelled === c.walk.spelled));
  }

  /** programs.json: what this program runs and reads. */
  private known(path: string, depth: number, later: boolean): void {
    for (const entry of PROGRAMS) {
      const m = entry.re.exec(basename(path));
      if (!m) continue;
      const vars: Record<string, string> = { ...(m.groups ?? {}), prefix: dirname(dirname(path)) };
      const fill = (s: string): string => s.replace(/\{([a-z]+)\}/g, (all, k: string) => vars[k] ?? all);
      for (const r of entry.runs) {
        if (r.if && Object.entries(r.if).some(([k, v]) => vars[k] !== v)) continue;
        // A program it runs is needed once it runs, not to start.
        if (r.path) this.runs(path, fill(r.path), r.when === 'shown' ? 'shown' : undefined, entry.reason, depth + 1, true);
        else if (r.name) this.runs(path, r.name, undefined, entry.reason, depth + 1, true);
      }
      for (const read of entry.reads) {
        const w = walkOnHost(this.view, fill(read));
        if (w.ok)
          this.push(
            {
              kind: 'reads',
              by: path,
              name: fill(read),
              right: 'read',
              ...(w.kind === 'dir' ? { tree: true as const } : {}),
              candidates: [{ walk: w.walk }],
              reason: entry.reason,
            },
            later || !entry.readsAtStart,
          );
      }
      if (entry.temporaries) this.temporaries = entry.reason;
    }
  }

  /** A program `by` runs: a path, or a name looked up on PATH. One that is not on the machine is no need. */
  private runs(by: string, what: string, when: 'shown' | undefined, reason: string, depth: number, later: boolean): void {
    let candidates: Candidate[] = [];
    if (what.includes('/')) {
      const w = walkOnHost(this.view, what);
      if (w.ok && w.kind === 'file') candidates = [{ walk: w.walk }];
    } else {
      const path = this.view.commandPath();
      if (path === 'unknown') return void this.unknown.push(`where ${what} is on PATH`);
      for (const d of path) {
        if (candidates.length >= MAX_CANDIDATES) break;
        const w = walkOnHost(this.view, join(d, what));
        if (w.ok && w.kind === 'file' && this.view.executable(w.walk.target) !== 'no') candidates.push({ walk: w.walk, via: 'path' });
      }
    }
    if (!candidates.length) return;
    this.push({ kind: 'runs', by, name: what, right: 'exec', ...(when ? { when } : {}), candidates, reason }, later);
    if (when !== 'shown') this.program(candidates[0]!.walk.target, depth, later);
  }

  private missing(why: 'absent' | 'unknown' | 'loop', what: string): void {
    if (why === 'unknown') this.unknown.push(what);
    else
      this.problems.push(
        `${what} ${why === 'loop' ? 'resolves through too many symbolic links' : 'is not on this machine'}: it cannot start here either`,
      );
  }
}

/** A DT_RPATH or DT_RUNPATH entry with `$ORIGIN` expanded; none for `$LIB` and `$PLATFORM`, which depend on the loader's build and the CPU. */
function expandOrigin(dir: string, origin: string): string[] {
  if (/\$(\{)?(LIB|PLATFORM)\b/.test(dir)) return [];
  const expanded = dir.replace(/\$(\{ORIGIN\}|ORIGIN\b)/g, origin);
  return expanded.startsWith('/') ? [expanded] : [];
}

/** The command `env ARG` runs: its first operand after options and NAME=VALUE assignments (`-S` splits the argument, as a #! line needs). */
export function envOperand(argument: string): string | undefined {
  const words = argument.split(/[ \t]+/).filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-S' || w === '--split-string') continue;
    if (w.startsWith('-S')) {
      const rest = w.slice(2);
      if (rest && !rest.startsWith('-') && !rest.includes('=')) return rest;
      continue;
    }
    if (w === '-u' || w === '--unset' || w === '-C' || w === '--chdir') {
      i++;
      continue;
    }
    if (w === '--') return words[i + 1];
    if (w.startsWith('-')) continue;
    if (/^[^=/]+=/.test(w)) continue;
    return w;
  }
  return undefined;
}
