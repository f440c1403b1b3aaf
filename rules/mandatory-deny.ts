import { PLATFORMS } from '../compiler/diagnostic.js';
import type { Grant, Principal } from '../compiler/ir/types.js';
import { isUnder } from '../compiler/paths/index.js';
import { refusals } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { listPaths } from './util.js';

export const mandatoryDeny = defineRule({
  meta: {
    id: 'mandatory-deny',
    seedRow: 'sandbox-runtime README, Mandatory Deny Paths (Auto-Protected Files)',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        "sandbox-runtime's mandatory denies keep shell and git start-up files, editor and agent directories " +
        'read-only inside every write grant, whatever the settings say.',
      details:
        'sandbox-runtime always denies writes to `.bashrc`, `.bash_profile`, `.zshrc`, `.zprofile`, `.profile`, ' +
        '`.gitconfig`, `.gitmodules`, `.ripgreprc`, `.mcp.json`, `.vscode/`, `.idea/`, `.claude/commands/`, ' +
        '`.claude/agents/`, `.git/hooks/` and `.git/config` (unless `allowGitConfig`) of the working directory ' +
        '(sandbox-utils.js, DANGEROUS_FILES and getDangerousDirectories; linux-sandbox-utils.js, linuxGetCwdMandatoryDenyPaths), ' +
        'and on Linux those its ripgrep scan finds up to `mandatoryDenySearchDepth` (3) levels below; macOS ' +
        'matches `**/` patterns below the working directory. They win over `allowWrite` (Seatbelt: the deny ' +
        'comes after; bubblewrap: a read-only bind over the write bind). An info at each write grant that ' +
        'holds some, naming them (explain lists them as implicit rows); a warning where a grant names one ' +
        'itself, since it then has no effect. On Linux an absent one inside a write root is held by a placeholder ' +
        'made on the host for the run (an empty file or directory that host tools see while the command ' +
        'runs); where the placeholder would go in a directory another mount already shows read-only (a `denyWrite` ' +
        'of a directory above it, an `allowRead` bound back), bubblewrap cannot make it and the sandbox ' +
        "does not start (an error: measured with 0.0.83). boxwright models the working directory's own; " +
        'the deeper ones the scan finds are not shown.',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": ["~/project/.vscode"], "denyWrite": []},\n  "network": ' +
          '{"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:49 warning macos,linux,windows'],
      },
      good: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": ["~/project/output"], "denyWrite": []},\n  "network": ' +
          '{"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    holds: {
      severity: 'info',
      platforms: PLATFORMS,
      text: (d: { paths: string }) =>
        `sandbox-runtime keeps these read-only inside this write grant, whatever the settings say: ${d.paths}`,
    },
    unmakeable: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { path: string; at: string; holder: string }) =>
        `Linux: sandbox-runtime cannot start: the write deny of ${d.path} does not exist, and its placeholder ` +
        `${d.at} would go in ${d.holder}, which another mount already shows read-only, so bubblewrap fails ` +
        `("Can't create file at ${d.at}: Read-only file system", measured with 0.0.83)`,
      suggestion: 'Create the path first, or drop the deny (the read-only bind above it already keeps it from being written).',
    },
    overridden: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { path: string }) =>
        `${d.path} is one of sandbox-runtime's mandatory denies: it stays read-only, so this grant has no effect there`,
      suggestion: 'Remove the grant (only `.git/config` can be lifted, with `allowGitConfig`).',
    },
  },
  explains: {
    'srt-placeholder-unmakeable': (f) =>
      `the placeholder for this deny would go in ${f.holder}, which the sandbox shows read-only: bubblewrap ` +
      `cannot make ${f.at}, and the sandbox does not start`,
    'srt-deny-placeholder': () =>
      'the path does not exist, so sandbox-runtime holds the deny with a placeholder it makes on the host for the run (an empty file or directory)',
  },
  anyGrant(g, ga, _pa, ctx) {
    for (const [platform, because] of refusals(ga.effective, 'srt-placeholder-unmakeable'))
      ctx.report(
        'unmakeable',
        { span: g.span, platforms: [platform] },
        { path: g.path ?? g.written, at: because.at, holder: because.holder },
      );
  },
  grant(w, _ga, pa, ctx) {
    if (w.access !== 'read-write') return;
    const mandatory = mandatoryOf(pa.principal);
    const hit = mandatory.find((m) => isUnder(w.path, m.path!));
    if (hit) {
      ctx.report('overridden', { span: w.span }, { path: hit.path! });
      return;
    }
    const inside = mandatory.filter((m) => isUnder(m.path!, w.path)).map((m) => m.path!);
    if (inside.length) ctx.report('holds', { span: w.span }, { paths: listPaths(inside, 6) });
  },
});

/** A principal's mandatory write denies (sandbox-runtime's own), once a principal. */
function mandatoryOf(p: Principal): readonly Grant[] {
  let out = mandatoryDenies.get(p);
  if (!out) mandatoryDenies.set(p, (out = p.grants.filter((g) => g.implicit && g.access === 'deny-write' && g.path)));
  return out;
}
const mandatoryDenies = new WeakMap<Principal, readonly Grant[]>();
