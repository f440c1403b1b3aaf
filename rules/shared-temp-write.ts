import { isUnder } from '../compiler/paths/index.js';
import type { Fix } from '../compiler/diagnostic.js';
import type { Principal } from '../compiler/ir/types.js';
import { defineRule } from './engine/engine.js';
import { addKey, fixOf, removeFromList } from './engine/fix.js';
import data from './shared-temp.json' with { type: 'json' };
import { shown } from './util.js';

const sharedTemp: Readonly<Record<string, string>> = data.sharedTemp;
/** What a Box principal's `private_tmp = true` replaces on Linux (compiler/ir/implicit.ts). */
const TMP = '/tmp';

export const sharedTempWrite = defineRule({
  meta: {
    id: 'shared-temp-write',
    seedRow: "Design (issue 21): no run files in a shared directory — a Box write grant of the host's shared temp on Linux",
    dialects: ['box'],
    docs: {
      summary: "A write grant of /tmp or /var/tmp (or a directory above one) gives the workload the host's shared temp on Linux.",
      details:
        "On Linux `/tmp` and `/var/tmp` are the whole host's: other runs' files, tmux's server sockets (connecting " +
        "to one types into a host shell), X11's and ssh-agent's sockets, and the files other programs create " +
        'there by name, which the workload can replace or read before them (a watch with inotify sees each ' +
        'one appear). A write grant there — or of a directory above one, `/var` — bind-mounts that directory ' +
        'into the sandbox read-write. Give the workload a temp directory of its own instead: `private_tmp ' +
        '= true` in its filesystem table, which is a private tmpfs at /tmp on Linux (TMPDIR=/tmp), empty ' +
        "at start and discarded at exit, and the run's own directory on macOS and Windows (`private-temp`); " +
        "the fix replaces a write grant of /tmp with it. TYBA's sessions have it already. macOS refuses " +
        'the `/tmp` spelling and Windows has no such directory.',
      bad: { toml: '[agent.filesystem]\nread = ["/tmp"]\nwrite = ["/tmp"]', expect: ['3:10 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\nprivate_tmp = true', expect: [] },
    },
  },
  messages: {
    shared: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; temp: string; what: string }) =>
        `${d.path === d.temp ? d.path : `${d.path} holds ${d.temp}, which`} is the host's shared temp directory on Linux, writable here: ${d.what}`,
      suggestion: (d: { path: string; temp: string; what: string }) =>
        d.path === TMP
          ? "Set private_tmp = true in this principal's filesystem table instead: a temp directory of its own " +
            '(Linux a private tmpfs at /tmp, TMPDIR=/tmp), empty at start and shared with nothing.'
          : `Grant the workload only what it needs below ${d.path}, and set private_tmp = true in this principal's ` +
            `filesystem table for a temp directory of its own (Linux a private tmpfs at /tmp, TMPDIR=/tmp).`,
    },
  },
  grant(g, _ga, pa, ctx) {
    if ((g.access !== 'write' && g.access !== 'read-write') || g.scope !== 'tree' || g.path === '/') return;
    const temp = Object.keys(sharedTemp).find((t) => isUnder(t, g.path));
    if (!temp) return;
    ctx.report(
      'shared',
      { span: g.span, fix: g.path === TMP ? privateTmpFix(ctx.text, pa.principal) : undefined },
      { path: shown(g), temp, what: sharedTemp[temp]! },
    );
  },
});

/**
 * The fix of a write grant of /tmp itself: `private_tmp = true` in the
 * principal's table, and every content grant of the host's /tmp removed
 * (a read of it beside the private tmpfs is refused: `private-temp`). None
 * where the table is shaped in a way the edit helpers do not know.
 */
function privateTmpFix(text: string, p: Principal): Fix | undefined {
  const atTmp = p.grants.filter((g) => !g.implicit && g.path === TMP && g.scope === 'tree');
  return fixOf(...atTmp.map((g) => removeFromList(text, g.span)), p.privateTmp ? [] : addKey(p.written, 'private_tmp', 'true'));
}
