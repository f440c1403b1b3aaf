import { knownReadableLocations, secretLocations } from '../compiler/paths/index.js';
import type { Span } from '../compiler/span.js';
import type { Rule } from './engine.js';

export const windowsOpenReads: Rule = {
  meta: {
    id: 'windows-open-reads',
    seedRow: 'Seed 001: reads are open by default on Windows',
    severity: { windows: 'warning' },
    docs: {
      summary: 'On Windows reads are open: only the listed secrets are closed.',
      details:
        'The Windows jail is a restricted token at Integrity Level Low: it confines writes, not reads. Instead of denying everything and opening exceptions it leaves files readable and labels a list of twelve known secrets deny-read. Whatever is not on that list the agent reads: other credential files (`~/.terraformrc`, `~/.config/fly`, `~/.m2/settings.xml`, `~/.kaggle`, `~/.Rprofile`, `~/.databrickscfg`), the `.env` of other projects, other repositories, Documents and Desktop. Fires for every config of both dialects; the message names the known credential locations that exist under the home.',
      bad: '# any config, linted for windows',
      good: '# use macOS or Linux when the agent must see nothing beyond the project',
    },
  },
  check(ctx) {
    const { ir } = ctx;
    const start = { offset: 0, line: 1, column: 1 };
    const span: Span = ir.principals[0]?.span ?? ir.features.nativeFilesystemPolicy?.span ?? { start, end: start };
    let exposed: string;
    if (!ir.fs.knowsFacts) {
      exposed = `depends on the machine: credential locations such as ${knownReadableLocations.slice(0, 6).join(', ')} stay readable where they exist`;
    } else {
      const existing = ir.knownCredentials.filter((c) => c.existence !== 'absent').map((c) => c.written);
      exposed = existing.length
        ? `credential files that exist under ${ir.home} and stay readable: ${existing.join(', ')}`
        : `no known credential location outside the list exists under ${ir.home}, but other projects' .env files and repositories stay readable`;
    }
    ctx.report({
      severity: 'warning',
      platforms: ['windows'],
      message: `reads are open on Windows: the restricted token confines writes only, and only ${secretLocations.length} listed secrets are labelled deny-read; ${exposed}`,
      span,
      suggestion: 'If the agent must see nothing beyond the current project, use macOS or Linux; on Windows add a `deny` for each credential file that exists.',
    });
  },
};
