import { knownReadableLocations, secretLocations } from '../compiler/paths/index.js';
import type { Span } from '../compiler/span.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf } from './engine/fix.js';

export const windowsOpenReads = defineRule({
  meta: {
    id: 'windows-open-reads',
    seedRow: "TYBA's platforms page: reads are open by default on Windows",
    docs: {
      summary: 'On Windows reads are open: only the listed secrets are closed.',
      details:
        'The Windows jail is a restricted token at Integrity Level Low: it confines writes, not reads. Instead ' +
        'of denying everything and opening exceptions it leaves files readable and labels a list of twelve ' +
        'known secrets deny-read, at their names under %USERPROFILE% and where Windows tools keep them instead ' +
        '(`%APPDATA%\\gnupg`, `%APPDATA%\\gcloud`, `%APPDATA%\\GitHub CLI`, `_netrc`, `.cargo\\credentials.toml`: ' +
        'compiler/paths/secrets.json, each with its source). Whatever is not on that list the agent reads: ' +
        'other credential files (`~/.terraformrc`, `~/.config/fly`, `~/.m2/settings.xml`, `~/.kaggle`, `~/.Rprofile`, ' +
        '`~/.databrickscfg`), the `.env` of other projects, other repositories, Documents and Desktop. Beyond ' +
        "files the plan has no step at all: a Low token still reads most of the user's registry (HKCU; Low " +
        "processes write only HKCU\\Software\\AppDataLow, Microsoft's Windows Integrity Mechanism Design), " +
        'opens for reading the named pipes and other objects whose DACL admits the user (the default no-write-up ' +
        "policy stops writes only), and shares the user's desktop and clipboard (UIPI keeps its window messages " +
        "from higher-integrity windows, not the clipboard: Chromium's sandbox adds a job object's clipboard " +
        'limits and an alternate desktop for that); explain says so in the Windows `everything else` cell. ' +
        'A warning, once per config, when known credential files exist under the home and the agent can ' +
        "read them (the fix denies each); nothing when none is left readable (explain's Windows column still " +
        'says reads are open); with `--fs none`, one info that it depends on the machine.',
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]  # the machine holds ~/.terraformrc, ~/.kaggle, …',
        expect: ['1:2 warning windows'],
      },
      good: {
        toml:
          '[agent.filesystem]\nread = ["~/project"]\n# the known credential files that exist on the machine, labelled deny-read\n' +
          'deny = ["~/.terraformrc", "~/.m2/settings.xml", "~/.kaggle", "~/.databrickscfg"]',
        expect: [],
      },
    },
  },
  messages: {
    open: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { exposed: string }) =>
        `reads are open on Windows: the restricted token confines writes only, and only ${secretLocations.length} ` +
        `listed secrets are labelled deny-read; ${d.exposed}`,
      suggestion:
        'If the agent must see nothing beyond the current project, use macOS or Linux; on Windows add a `deny` for each credential file that exists.',
    },
    unknown: {
      severity: 'info',
      platforms: ['windows'],
      machineDependent: true,
      text: (d: { fs: string }) =>
        `depends on the machine: reads are open on Windows, and credential locations such as ${knownReadableLocations.slice(0, 6).join(', ')} ` +
        `stay readable where they exist (--fs ${d.fs} knows no paths)`,
      suggestion:
        'If the agent must see nothing beyond the current project, use macOS or Linux; on Windows add a `deny` for each credential file that exists.',
    },
  },
  explains: {
    'reads-open': () => 'reads (and execution) are open on Windows',
    'credential-readable': (f) => `\`${f.location}\` is still readable`,
    'beyond-files': () =>
      "beyond files the plan has no step, and a Low token still reaches the user's registry for reading " +
      '(HKCU; it writes only HKCU\\Software\\AppDataLow), named pipes and other objects whose DACL lets ' +
      "the user in, for reading (no-write-up keeps it from writing Medium ones), and the user's desktop " +
      'and clipboard (UIPI stops its window messages to higher windows, not reading the clipboard)',
  },
  check(ctx) {
    const { ir } = ctx;
    const start = { offset: 0, line: 1, column: 1 };
    const span: Span = ir.principals[0]?.span ?? ir.features.nativeFilesystemPolicy?.span ?? { start, end: start };
    if (!ir.fs.knowsFacts) {
      ctx.report('unknown', { span }, { fs: ctx.view.description });
      return;
    }
    // What a deny of the agent's already labels is not readable.
    const agentAccess = ctx.access.principals.find((pa) => pa.principal.kind === 'agent');
    const readable = (path: string): boolean => agentAccess?.effectiveAt(path, 'windows').kind !== 'denied';
    const existing = ir.knownCredentials.filter((c) => c.existence !== 'absent' && readable(c.path)).map((c) => c.written);
    // Nothing to act on: the open reads are said by explain's Windows column (`reads-open`), not as a warning every config gets.
    if (!existing.length) return;
    // The Windows remedy as edits: a deny of each known credential file that exists, in the agent's table.
    const agent = ir.dialect === 'box' ? ir.principals.find((p) => p.kind === 'agent') : undefined;
    const agentModel = ctx.access.principals.find((pa) => pa.principal === agent);
    const toDeny = ir.knownCredentials
      .filter((c) => c.existence === 'exists' && agentModel?.effectiveAt(c.path, 'windows').kind !== 'denied')
      .map((c) => c.written);
    const fix = agent && toDeny.length ? fixOf(addToList(agent.written, agent.grants, 'deny', toDeny)) : undefined;
    ctx.report(
      'open',
      { span, fix },
      { exposed: `credential files that exist under ${ir.home} and stay readable: ${existing.join(', ')}` },
    );
  },
});
