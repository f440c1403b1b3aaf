import { isUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import data from './shared-temp.json' with { type: 'json' };
import { shown } from './util.js';

const sharedTemp: Readonly<Record<string, string>> = data.sharedTemp;

export const sharedTempWrite = defineRule({
  meta: {
    id: 'shared-temp-write',
    seedRow: "Design (issue 21): no run files in a shared directory — a Box write grant of the host's shared temp on Linux",
    dialects: ['box'],
    docs: {
      summary: "A write grant of /tmp or /var/tmp (or a directory above one) gives the workload the host's shared temp on Linux.",
      details:
        "On Linux `/tmp` and `/var/tmp` are the whole host's: other runs' files, tmux's server sockets (connecting to one types into a host shell), X11's and ssh-agent's sockets, and the files other programs create there by name, which the workload can replace or read before them (a watch with inotify sees each one appear). A write grant there — or of a directory above one, `/var` — bind-mounts that directory into the sandbox read-write. Give the workload a temp directory of its own instead: make one (`mkdir -p ~/.cache/agent-tmp`), grant it, and set TMPDIR to it for the run (TMPDIR passes the environment allowlist). TYBA's Linux sessions get a private tmpfs at /tmp (`private-temp`); macOS refuses the `/tmp` spelling and Windows has no such directory.",
      bad: { toml: '[agent.filesystem]\nread = ["/tmp"]\nwrite = ["/tmp"]', expect: ['3:10 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]', expect: [] },
    },
  },
  messages: {
    shared: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { path: string; temp: string; what: string }) =>
        `${d.path === d.temp ? d.path : `${d.path} holds ${d.temp}, which`} is the host's shared temp directory on Linux, writable here: ${d.what}`,
      suggestion:
        'Grant the workload a temp directory of its own instead (mkdir -p ~/.cache/agent-tmp; write = ["~/.cache/agent-tmp"]) and run it with TMPDIR set to it.',
    },
  },
  grant(g, _ga, _pa, ctx) {
    if ((g.access !== 'write' && g.access !== 'read-write') || g.scope !== 'tree' || g.path === '/') return;
    const temp = Object.keys(sharedTemp).find((t) => isUnder(t, g.path));
    if (temp) ctx.report('shared', { span: g.span }, { path: shown(g), temp, what: sharedTemp[temp]! });
  },
});
