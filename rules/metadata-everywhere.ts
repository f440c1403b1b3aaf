import type { Ungranted } from '../model/facts.js';
import { defineRule } from './engine/engine.js';

/** What each platform gives where no grant names the path, for a Box or TYBA config (explain's "everything else"). */
const ungrantedText: Readonly<Record<Extract<Ungranted, { kind: 'ungranted' }>['regime'], string>> = {
  seatbelt:
    'denied by Seatbelt, except the baseline every program needs (system binaries and libraries read-only, ' +
    'the standard devices) and the metadata, not the entries, of the directories leading to granted ' +
    'paths (path resolution)',
  'seatbelt-metadata': 'content denied, metadata (existence, size, dates) visible; the baseline (system binaries and libraries) readable',
  'mount-view':
    'does not exist in the mount view (only granted paths, a fresh /proc and /dev are there); run as ' +
    "root, the workload is uid 0 without capabilities: the host's /proc/sys and other host-global /proc " +
    'files are read-only, and it cannot set setuid or setgid bits',
  'open-reads': 'readable, except the listed secrets',
};

export const metadataEverywhere = defineRule({
  meta: {
    id: 'metadata-everywhere',
    seedRow: 'TYBA\'s platforms page: "content, not metadata"',
    dialects: ['tyba'],
    docs: {
      summary: 'TYBA promises metadata of every file; on Linux ungranted paths are absent instead.',
      details:
        "TYBA's platforms page: the agent can check whether a file exists, its size and its date; only the " +
        'content is denied by default. The macOS lowering allows `file-read-metadata` everywhere. The Linux ' +
        'mount view cannot: ungranted paths do not exist, so a program that stats a path outside its grants ' +
        'sees ENOENT, not metadata.',
      bad: { toml: '[sandbox]\nread_allow = []', expect: ['1:2 info linux'] },
      good: { toml: '[sandbox]\nread_allow = []  # the same: info only', expect: ['1:2 info linux'] },
    },
  },
  messages: {
    absent: {
      severity: 'info',
      platforms: ['linux'],
      text: () =>
        'on Linux ungranted paths are absent, not metadata-visible: the agent cannot see the existence, ' +
        'size or date of files outside its grants there, as it can on macOS',
    },
  },
  explains: {
    'content-not-metadata': () =>
      'TYBA: "content, not metadata": the existence, size and dates of every path stay visible; the content is denied',
    ungranted: (f) => ungrantedText[f.regime],
  },
  check(ctx) {
    const agent = ctx.ir.principals[0];
    if (agent) ctx.report('absent', { span: agent.span });
  },
});
