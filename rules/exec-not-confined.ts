import { defineRule } from './engine/engine.js';
import { authored, relatedGrants, who } from './util.js';

export const execNotConfined = defineRule({
  meta: {
    id: 'exec-not-confined',
    seedRow: "Box's platform table: ordinary agent read trees remain non-executable (Loader directory reads); our Linux lowering",
    dialects: ['box'],
    docs: {
      summary: "What confines execution of the agent's (and local MCP servers') read trees on Linux, and what does not.",
      details:
        "Box's platform table says ordinary agent read trees remain non-executable. bubblewrap has no per-mount " +
        "`noexec`, so boxwright's Linux lowering adds a Landlock step inside the sandbox (a Box config's " +
        'default): execute is granted only on `exec` grants, granted loader directories and the dynamic ' +
        'loaders, and a program copied into a read or write tree does not start (EACCES). Landlock checks ' +
        "execute on execve and on the program's interpreter, not on mmap: a program can still be run through " +
        'the dynamic loader (`/lib64/ld-linux-x86-64.so.2 PROGRAM`), which the rule says as info. With `--landlock ' +
        'off` (or on a kernel without Landlock, where `boxwright run` refuses otherwise) whatever the agent ' +
        'can read it can also execute, and the rule says that instead. Reported once per principal (the ' +
        'agent, each local MCP server; tools have `tool-exec-widening`), at its first read grant.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: ['2:9 info linux'] },
      good: { toml: '# nothing to change in the config: this is a property of the lowering', expect: [] },
    },
  },
  messages: {
    executable: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { who: string; count: number }) =>
        `${d.who}'s read grants are executable on Linux: bubblewrap cannot mount read trees non-executable, ` +
        `and Landlock is off (${d.count} grant${d.count === 1 ? '' : 's'})`,
    },
    loader: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { who: string; count: number }) =>
        `${d.who}'s read grants are not executable on Linux (Landlock), but a program in them can still ` +
        `be run through the dynamic loader, which Landlock does not check (${d.count} grant${d.count === 1 ? '' : 's'})`,
    },
  },
  explains: {
    'mounts-executable': () => 'bubblewrap cannot mount read trees non-executable (Landlock is off)',
    'exec-grant-readable': () => 'the executable is bound read-only: it can be read as well as run',
    'loader-maps': () =>
      'not executable (Landlock checks execve), but the dynamic loader can still run a program from it (ld.so PROGRAM maps it)',
  },
  principal(pa, ctx) {
    const p = pa.principal;
    if (p.kind === 'tool') return; // tool-exec-widening says it for tools
    const readable = authored(p).filter((g) => g.path && (g.access === 'read' || g.access === 'read-write'));
    const first = readable[0];
    if (!first) return;
    const confined = pa.linuxExec === 'landlock';
    ctx.report(
      confined ? 'loader' : 'executable',
      {
        span: first.span,
        related: relatedGrants(readable.slice(1), confined ? 'also loadable through the dynamic loader' : 'also executable on Linux'),
      },
      { who: who(p), count: readable.length },
    );
  },
});
