import type { Grant, Principal } from '../compiler/ir/types.js';
import { isUnder } from '../compiler/paths/index.js';
import { platformsReporting } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { authored, relatedGrants, shown, who } from './util.js';

/** A grant as a footnote names it: its list and value, and its line (an implicit one, its path). */
const named = (g: Grant): string => (g.implicit ? `\`${g.written}\` (implicit)` : `\`${g.list} ${g.written}\` (line ${g.span.start.line})`);

const writes = (g: Grant): boolean => g.access === 'write' || g.access === 'read-write';
/** Whether grant `a`'s scope and `b`'s meet at `a`'s path: `a` is on or under `b`. */
const within = (a: Grant, b: Grant): boolean =>
  !!a.path && !!b.path && (a.path === b.path || (b.scope === 'tree' && isUnder(a.path, b.path)));

export const writeExecOverlap = defineRule({
  meta: {
    id: 'write-exec-overlap',
    seedRow:
      "Box's platform table: ordinary agent read trees remain non-executable, the agent retains explicit " +
      'execution grants (Helper execution, Loader directory reads); our Linux lowering (Landlock)',
    dialects: ['box'],
    docs: {
      summary: 'An exec grant on or under a write grant, or a write grant under an exec tree: the workload can run what it writes there.',
      details:
        'What keeps an agent (or a local MCP server) from running a program it wrote or downloaded is that ' +
        'its write trees are not executable: Seatbelt allows `process-exec` only on exec grants, and on ' +
        'Linux Landlock grants execute only on them. An `exec` grant inside a write tree (`write = ["~/p/out"]`, ' +
        '`exec = ["~/p/out"]`, often added so that a build\'s own output can run) gives that back: the workload ' +
        'writes a file there, or replaces the granted program, and executes it. The Linux mount is the write ' +
        "tree's, read-write (the executable is not bound read-only), and Landlock's execute right covers " +
        'every file created below the grant. Warned on macOS and on Linux under Landlock; without Landlock ' +
        "(`--landlock off`) every write tree is executable anyway (`exec-not-confined`), and a tool's content " +
        'trees are executable by design (`tool-exec-widening`).',
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\nexec = ["~/project/output"]',
        expect: ['4:9 warning macos,linux'],
      },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\nexec = ["/usr/bin/git"]', expect: [] },
    },
  },
  messages: {
    overlap: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { who: string; path: string; how: string }) =>
        `${d.who} can run what it writes at ${d.path}: ${d.how}, so a program it wrote there (or a granted one it replaced) executes`,
      suggestion:
        'Keep what the workload may write apart from what it may run: build into a write tree, and run the ' +
        'result through a program an exec grant names outside it (or a tool, whose content trees are executable ' +
        'by design); grant exec on a write tree only for a workload you would let run anything it downloads.',
    },
  },
  explains: {
    'exec-writable': () => 'writable and executable: the workload can run what it writes here, or replace the program it runs',
    // The rights of grants over one path add up (an exec grant's and a write grant's among them): which grants, at the cell.
    combined: (f) => `combined with ${f.grants.slice(0, 3).map(named).join(', ')}: the grants on this path add up`,
  },
  grant(g, ga, pa, ctx) {
    const p = pa.principal;
    if (p.kind === 'tool') return; // tool-exec-widening: its content trees run by design
    const mine = authored(p);
    const execs = execsOf(p);
    // A write grant with an exec grant on or under it: said once, at the exec grant.
    if (g.access !== 'exec' && execs.some((o) => within(o, g))) return;
    const platforms = platformsReporting(ga.notes, 'exec-writable');
    if (!platforms.length) return;
    // The other side of the overlap, for the words and the related locations.
    const others = g.access === 'exec' ? mine.filter((o) => writes(o) && within(g, o)) : execs.filter((o) => within(g, o));
    const how =
      g.access === 'exec'
        ? others.length
          ? `this exec grant is on or under \`${others[0]!.list} = "${others[0]!.written}"\` (line ${others[0]!.span.start.line})`
          : 'this exec grant is writable too'
        : others.length
          ? `this write grant is under \`exec = "${others[0]!.written}"\` (line ${others[0]!.span.start.line})`
          : 'this write grant is executable too';
    ctx.report(
      'overlap',
      {
        span: g.span,
        platforms,
        related: relatedGrants(others, g.access === 'exec' ? 'the write grant it is on or under' : 'the exec tree it is under'),
      },
      { who: who(p), path: shown(g), how },
    );
  },
});

/**
 * A principal's authored exec grants, once a principal: each grant is
 * compared with these, not with every grant (a scan of all of them for
 * each was quadratic: 4 s of a 40,000-grant lint).
 */
function execsOf(p: Principal): readonly Grant[] {
  let out = execs.get(p);
  if (!out) execs.set(p, (out = authored(p).filter((o) => o.access === 'exec')));
  return out;
}
const execs = new WeakMap<Principal, readonly Grant[]>();
