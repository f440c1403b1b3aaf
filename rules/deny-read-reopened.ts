import { isUnder } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { authored, relatedGrant } from './util.js';

export const denyReadReopened = defineRule({
  meta: {
    id: 'deny-read-reopened',
    seedRow: 'sandbox-runtime README, Path Syntax (Linux): an allowRead or allowWrite path is bound back over a denied directory',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'A write root at or inside a read-denied directory: Linux binds it back from the host, readable; macOS keeps it unreadable (write-only).',
      details:
        'On Linux sandbox-runtime covers a `denyRead` directory with a tmpfs and then binds every `allowRead` ' +
        'and `allowWrite` path at or under it back from the host (linux-sandbox-utils.js, pushReadDenyDirMounts; ' +
        'README: "An allowRead or allowWrite path is bound back over a denied directory"). An `allowRead` ' +
        'there is the carve-out it is meant to be; an `allowWrite` there re-opens reading too, so the denied ' +
        "content is readable on Linux, while Seatbelt's `(deny file-read*)` keeps it unreadable on macOS, " +
        'where the path is write-only. Measured with sandbox-runtime 0.0.83 under bubblewrap (test/linux/srt-differential.test.ts). ' +
        "An `allowRead` at or above the write root is no such case: sandbox-runtime's macOS profile emits " +
        'the `allowRead` allows after the `denyRead` denies (macos-sandbox-utils.js, generateReadRules), ' +
        "so the root is readable on both platforms and nothing is reported. The rule reads the model's cells " +
        'at the write root, the ones `explain` shows: it never says write-only where explain says `rwx`.',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": ["~/project"], "allowWrite": ["~/project/output"], "denyWrite": []},\n' +
          '  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:60 warning linux', '2:60 info macos'],
      },
      good: {
        toml:
          '{\n  "filesystem": {"denyRead": ["~/project/.env"], "allowWrite": ["~/project/output"], "denyWrite": []},\n' +
          '  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    linux: {
      severity: 'warning',
      platforms: ['linux'],
      text: (d: { write: string; deny: string }) =>
        `Linux: the write root ${d.write} is bound back from the host inside the read-denied ${d.deny}, so it is readable there (macOS keeps it unreadable)`,
      suggestion: 'Move the write root out of the read-denied directory, or accept that Linux reads it.',
    },
    macos: {
      severity: 'info',
      platforms: ['macos'],
      text: (d: { write: string; deny: string }) =>
        `macOS: ${d.write} is inside the read-denied ${d.deny}: the command can write it but not read it back (write-only)`,
    },
  },
  explains: {
    'srt-write-restores-read': () => 'a write root at or under this denied path is bound back from the host, readable',
    'srt-write-only': () => 'written but not read: the read deny holds inside the write root',
  },
  // A view of the model's cells at the write root (issue 36): what explain shows there is what this says. An `allowRead`
  // at or above the write root re-opens reading on macOS too (sandbox-runtime emits its allows after its denies), and
  // then neither platform's words hold: no finding.
  grant(w, ga, pa, ctx) {
    if (w.access !== 'read-write') return;
    const mac = ga.effective.macos;
    const linux = ga.effective.linux;
    if (mac.kind !== 'access' || !mac.write || mac.read) return;
    // The read deny that holds there: the deepest one at or above the write root.
    const d = authored(pa.principal)
      .filter((g) => g.access === 'deny-read' && g.path && g.facts.existence !== 'absent' && isUnder(w.path, g.path))
      .sort((a, b) => b.path!.length - a.path!.length)[0];
    if (!d) return;
    const data = { write: w.path, deny: d.path! };
    if (linux.kind === 'access' && linux.read && linux.write)
      ctx.report('linux', { span: w.span, related: [relatedGrant(d, 'the read deny it re-opens')] }, data);
    ctx.report('macos', { span: w.span, related: [relatedGrant(d, 'the read deny')] }, data);
  },
});
