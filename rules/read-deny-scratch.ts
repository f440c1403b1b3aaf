import { defineRule } from './engine/engine.js';

export const readDenyScratch = defineRule({
  meta: {
    id: 'read-deny-scratch',
    seedRow: 'sandbox-runtime README, Path Syntax (Linux): a read-denied directory is an EMPTY WRITABLE directory in the sandbox',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'Linux: a read-denied directory is an empty writable tmpfs in the sandbox; what is written there is gone when the command ends.',
      details:
        'On Linux sandbox-runtime hides a `denyRead` directory under a tmpfs (linux-sandbox-utils.js, pushReadDenyDirMounts): ' +
        'inside the sandbox it is an empty directory the command may write, and what it writes there is ' +
        'lost when the command exits (README: "inside the sandbox it is an EMPTY WRITABLE directory, so ' +
        'a command that used to write through a read-denied build/ still writes, into the tmpfs"). The host\'s ' +
        'content is unreachable. On macOS the directory is there, unreadable, and a write into it fails ' +
        'unless an `allowWrite` covers it. A disclosure: `explain` shows the cell as `scratch`. Under `--fs ' +
        'none` whether the path is a directory (a tmpfs), a file (masked) or absent (nothing mounted) depends ' +
        'on the machine: an info that says so, collapsed in the text format.',
      bad: {
        toml: '{\n  "filesystem": {"denyRead": ["~/.aws"], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:31 info linux'],
      },
      good: {
        toml:
          '{\n  "filesystem": {"denyRead": ["~/.aws/credentials"], "allowWrite": [], "denyWrite": []},\n  ' +
          '"network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    scratch: {
      severity: 'info',
      platforms: ['linux'],
      text: (d: { path: string }) =>
        `Linux: ${d.path} is an empty writable directory in the sandbox (a tmpfs): the host's content is ` +
        `hidden, and what the command writes there is discarded when it ends`,
    },
    unknown: {
      severity: 'info',
      platforms: ['linux'],
      machineDependent: true,
      text: (d: { path: string; fs: string }) =>
        `depends on the machine: on Linux, if ${d.path} is a directory, it is an empty writable directory ` +
        `in the sandbox (a tmpfs) whose writes are discarded (--fs ${d.fs} knows no paths)`,
    },
  },
  explains: {
    'srt-read-deny-scratch': () => "an empty writable tmpfs of the sandbox's own: writes land there and are discarded",
  },
  grant(g, ga, _pa, ctx) {
    if (g.access !== 'deny-read' || ga.effective.linux.kind !== 'scratch') return;
    // A view that knows no paths: the cell is the model's reading of an unknown path (a directory); a file gets a mask, an absent path nothing.
    if (g.facts.existence === 'unknown') ctx.report('unknown', { span: g.span }, { path: g.path, fs: ctx.view.description });
    else ctx.report('scratch', { span: g.span }, { path: g.path });
  },
});
