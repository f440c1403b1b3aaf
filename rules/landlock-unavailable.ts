import { defineRule } from './engine/engine.js';

export const landlockUnavailable = defineRule({
  meta: {
    id: 'landlock-unavailable',
    seedRow: "Box's platform table: ordinary agent read trees remain non-executable; our Linux lowering needs Landlock for it",
    dialects: ['box'],
    docs: {
      summary:
        "The machine's kernel has no Landlock, which the Linux lowering needs to keep read trees non-executable: `boxwright run` refuses there.",
      details:
        "boxwright's Linux lowering keeps the agent's read trees non-executable with a Landlock ruleset " +
        'applied inside the sandbox (`exec-not-confined`). On a kernel without Landlock (older than Linux ' +
        '5.13, or booted without `landlock` in `lsm=`) that cannot hold, and `boxwright run` refuses to ' +
        "run rather than run with read trees executable. `--landlock off` runs with bubblewrap's mounts " +
        'alone, and then the artifacts and `explain` say what that means (`rx` where the platform table ' +
        "says `r`). A machine fact, not a config's: reported only when the filesystem view knows the kernel " +
        "(`--fs host`, or a manifest's `landlockAbi`), at the first principal.",
      bad: { toml: '[agent.filesystem]\nread = ["~/project"]', landlockAbi: 0, expect: ['1:2 warning linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    absent: {
      severity: 'warning',
      platforms: ['linux'],
      text: () =>
        "this machine's kernel has no Landlock (ABI 0), which the Linux lowering needs to keep read trees " +
        'non-executable: `boxwright run` refuses to run here; `--landlock off` runs with the mounts alone, ' +
        'read trees executable',
      suggestion:
        'Run on Linux 5.13 or later with Landlock enabled (`lsm=` includes landlock; `boxwright doctor` ' +
        'shows the ABI), or accept executable read trees with `--landlock off`.',
    },
  },
  check(ctx) {
    if (ctx.ir.linux.exec !== 'landlock' || ctx.ir.linux.landlockAbi !== 0) return;
    const first = ctx.ir.principals[0];
    if (first) ctx.report('absent', { span: first.span });
  },
});
