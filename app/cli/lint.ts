import type { LintEntry } from '../format/report.js';
import { counted, totals } from '../format/report.js';
import { formatCarriesFixes, formats, renderer } from '../format/registry.js';
import type { CheckResult } from '../check.js';
import { configReader, countFrom, platformsFrom, UsageError, type ConfigArgs } from './options.js';
import { lintInputs } from './lint-inputs.js';
import type { Fixer } from './lint-fix.js';
import { at, colourOf, readArg, type CliIo } from './io.js';
import { useColour } from '../format/colour.js';
import { isSandboxConfig } from './select.js';
import { peerMessage } from '../check.js';
import { sandboxConfigKind } from '../../compiler/schema/dialect.js';
import { canonical, trustedFile } from '../trusted-files.js';
import { projectFilesFor } from '../project-find.js';
import { isProjectFilePath } from '../../compiler/schema/project-name.js';
import { verdictsOf } from '../../compiler/diagnostic.js';
import { workTreeRoot } from './work-tree.js';

export interface LintArgs extends ConfigArgs {
  files?: string[];
  format?: string;
  platform?: string | string[];
  'max-warnings'?: string;
  'only-configs'?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  fix?: boolean;
  'unsafe-fixes'?: boolean;
  diff?: boolean;
}

/** The engine's judge of fixes (app/fix-applicability.ts), loaded only for a format that shows fixes. */
async function fixJudge(): Promise<(r: CheckResult, recheck: (text: string) => CheckResult) => CheckResult['diagnostics']> {
  const { judgeFixes } = await import('../fix-applicability.js');
  return (r, recheck) => (r.diagnostics.some((d) => d.fix) ? judgeFixes(r, recheck) : r.diagnostics);
}

/** Exit 0 clean (info only), 1 errors or too many warnings, 2 usage or unreadable input. */
export async function lintCommand(args: LintArgs, io: CliIo): Promise<number> {
  const maxFlag = countFrom('max-warnings', args['max-warnings']);
  const reader = configReader(args, undefined, undefined, undefined, io);
  const platformsFlag = args.platform === undefined ? undefined : platformsFrom(args.platform);
  if (!args.files?.length && io.stdinIsTTY) throw new UsageError('name the config files to lint, or - to read one from standard input');
  // In the order given: an unreadable input where it was named, each config where it was found.
  const entries: (LintEntry | { readonly config: number })[] = [];
  const configs: { readonly path: string; readonly bytes: Uint8Array }[] = [];
  const namedProjects: string[] = [];
  for (const named of lintInputs(args.files?.length ? args.files : ['-'], io.cwd)) {
    if ('error' in named) {
      entries.push({ path: named.path, error: named.error });
      continue;
    }
    const { path } = named;
    const input = readArg(io, path);
    if ('error' in input) {
      entries.push({ path: path === '-' ? '<stdin>' : path, error: input.reason });
      continue;
    }
    // The project file is linted as what it is, never as a config of any dialect.
    if (path !== '-' && isProjectFilePath(path)) {
      namedProjects.push(path);
      continue;
    }
    // pre-commit's hook passes every staged .toml and .json, and a directory or a glob finds them all: those that are no sandbox config are
    // passed over, a peer's own file (Codex, Cursor, VS Code, Seatbelt) with a note (issue 36). One named is refused after its check.
    if (args['only-configs'] || named.found) {
      const kind = args.dialect ? { config: isSandboxConfig(input.bytes, path) } : sandboxConfigKind(input.bytes, path);
      if ('peer' in kind) io.stderr.write(`boxwright: passed over ${path}: ${kind.peer.what}, which boxwright has no dialect for yet\n`);
      if ('peer' in kind || !kind.config) continue;
    }
    entries.push({ config: configs.length });
    configs.push({ path, bytes: input.bytes });
  }
  // The project files (.boxwright.toml, issue 40): ignores per config; defaults from the command directory's, a flag on the command line first.
  const projects = await projectFilesFor(io.cwd, io.now?.() ?? new Date(), [...configs.map((c) => c.path)], namedProjects);
  const defaults = projects.defaults();
  const platforms = platformsFlag ?? [...(defaults.platforms ?? platformsFrom(undefined))];
  const max = maxFlag ?? defaults.maxWarnings;
  // Several configs of one repository: each is judged for who of its principals could write another (issue 35, attack 6).
  const files = configs.filter((c) => c.path !== '-').map((c) => trustedFile(at(io, c.path), 'other-config'));
  // --fix, --unsafe-fixes, --diff (issue 40): app/cli/lint-fix.ts, loaded only then; its findings come with their fixes judged.
  const fixer =
    args.fix || args['unsafe-fixes'] || args.diff
      ? await (await import('./lint-fix.js')).fixerFor(
          args,
          io,
          configs.map((c) => c.path),
        )
      : undefined;
  // JSON and SARIF carry each fix with its applicability (issue 40): judged only then, and only for diagnostics that have a fix.
  const judge = !fixer && formatCarriesFixes(args.format) ? await fixJudge() : undefined;
  const checked = configs.map(({ path, bytes }): LintEntry => {
    const self = path === '-' ? undefined : canonical(at(io, path));
    // A principal that may write a project file deciding this lint could silence what is said of it (trusted-file-writable).
    const others = [...files.filter((f) => f.path !== self), ...projects.deciding(path).map((p) => trustedFile(p, 'project'))];
    // The project file's ignores apply before anything reads the findings: --fix never applies the fix of an ignored one.
    const ignoring = (r: CheckResult): CheckResult => {
      const kept = projects.apply(path, r.diagnostics, platforms, r.ir !== undefined);
      return kept.length === r.diagnostics.length ? r : { ...r, diagnostics: kept, verdicts: verdictsOf(kept) };
    };
    const recheck = (text: string) => ignoring(reader.checkRead(Buffer.from(text, 'utf8'), path, platforms, others));
    const read = reader.checkRead(bytes, path, platforms, others);
    if (read.peer) return { path: path === '-' ? '<stdin>' : path, error: peerMessage(read.peer.what) };
    const result = fixer ? fixer.fix(path, bytes, ignoring(read), recheck) : ignoring(read);
    return {
      path: result.file,
      text: result.text,
      ...(result.dialect ? { dialect: result.dialect } : {}),
      verdicts: result.verdicts,
      diagnostics: judge ? judge(result, recheck) : result.diagnostics,
    };
  });
  const reports = [...entries.map((e) => ('config' in e ? checked[e.config]! : e)), ...projects.reports(platforms)];
  if (fixer?.diffOnly) return diffOutcome(fixer, reports, io);
  const render = await renderer(formats.lint, args.format);
  const cwd = io.cwd;
  useColour(colourOf(io));
  // --quiet shows errors only (ESLint's): the verdicts, the exit status and --max-warnings still count everything.
  const shown = args.quiet
    ? reports.map((r) => ('diagnostics' in r ? { ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') } : r))
    : reports;
  io.stdout.write(render({ files: shown, platforms, base: cwd, root: workTreeRoot(cwd) ?? cwd, verbose: !!args.verbose }));
  const t = totals(reports);
  for (const r of reports) if ('error' in r) io.stderr.write(`boxwright: cannot read ${r.path}: ${r.error}\n`);
  if (fixer) io.stderr.write(fixer.summary());
  if (t.unreadable || fixer?.failed) return 2;
  if (t.errors > 0) return 1;
  if (max !== undefined && t.warnings > max) {
    io.stderr.write(`boxwright: ${counted(t.warnings, 'warning')} ${t.warnings === 1 ? 'exceeds' : 'exceed'} --max-warnings ${max}\n`);
    return 1;
  }
  return 0;
}

/** `--diff`: the diffs, what would be fixed; exit 1 when a file would change (ruff's), 2 when one cannot be read or fixed. */
function diffOutcome(fixer: Fixer, reports: readonly LintEntry[], io: CliIo): number {
  io.stdout.write(fixer.diffs());
  for (const r of reports) if ('error' in r) io.stderr.write(`boxwright: cannot read ${r.path}: ${r.error}\n`);
  io.stderr.write(fixer.summary());
  if (totals(reports).unreadable || fixer.failed) return 2;
  return fixer.wouldChange ? 1 : 0;
}
