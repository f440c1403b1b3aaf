/**
 * The project file's reader (issue 40), imported by app/project-find.ts
 * only when a lint found one: its `[[ignore]]` entries silence a rule's
 * warnings and infos in the configs their path globs name, in every
 * dialect (matched by rule id and path, not by a comment the file's syntax
 * may not allow); its defaults are `platforms` and `max-warnings`.
 *
 * Silencing is the inline comments' one decision (rules/engine/
 * apply-suppressions.ts `decideSuppressions`): an error is never silenced,
 * and an ignore that silenced nothing is reported. What the project file
 * says about itself (a misspelt key, a bad date or glob, an unknown rule,
 * an expired or unused ignore) is reported in it, as any config's findings
 * are: its schema errors as `schema`, the rest as the `suppression` rule's
 * warnings. A project file with an error silences nothing and sets nothing;
 * one that cannot be read (or is another user's) fails the lint (exit 2).
 * Read with lint's bounded reader (app/input/read-input.ts).
 */
import { lstatSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Diagnostic, Platform } from '../compiler/diagnostic.js';
import { compareDiagnostics, PLATFORMS, verdictsOf } from '../compiler/diagnostic.js';
import type { Span } from '../compiler/span.js';
import { didYouMean } from '../compiler/schema/did-you-mean.js';
import { PROJECT_FILE_NAME } from '../compiler/schema/project-name.js';
import { readProjectDocument, type ProjectIgnore, type ProjectSettings } from '../compiler/schema/project.js';
import { parseToml } from '../compiler/toml/index.js';
import { decideSuppressions } from '../rules/engine/apply-suppressions.js';
import { allRules } from '../rules/index.js';
import { suppression } from '../rules/suppression.js';
import { syntaxDiagnostics } from '../rules/toml-syntax.js';
import { globRegex } from './cli/lint-inputs.js';
import type { FileReport, UnreadableFile } from './format/report.js';
import { readInput } from './input/read-input.js';

/** The largest project file read: a few hundred ignores are a few KiB. */
export const PROJECT_FILE_LIMIT = 1024 * 1024;

interface ActiveIgnore {
  readonly ignore: ProjectIgnore;
  readonly matches: RegExp;
  /** A linted config it names was checked through the rules on every platform the project checks: whether it silenced anything can be said. */
  judged: boolean;
  used: boolean;
  /** The first error it was aimed at, and where. */
  refused?: { readonly ruleId: string; readonly config: string };
}

/** One project file as loaded: where it is, what it says about itself, and the ignores in force. */
export interface ProjectFile {
  readonly path: string;
  /** Its name as shown: relative to the command's directory. */
  readonly shown: string;
  readonly dir: string;
  /** Why it could not be read (lint exits 2): nothing is silenced then. */
  readonly unreadable?: string;
  readonly text: string;
  /** Its findings about itself found when it was read (the rest come from linting with it). */
  readonly own: readonly Diagnostic[];
  /** What it says, when it has no error. */
  readonly settings?: ProjectSettings;
  readonly active: readonly ActiveIgnore[];
}

/**
 * Why a project file is not taken: owned by someone other than this user
 * or root (another user's `/tmp/.boxwright.toml` above a config kept
 * outside any repository would silence its warnings). git refuses such a
 * repository for the same reason (safe.directory).
 */
function foreignOwner(path: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  try {
    // A link's own owner too: another user's link to a file of yours is still theirs to point elsewhere.
    const owner = [lstatSync(path).uid, statSync(path).uid].find((u) => u !== uid && u !== 0) ?? uid;
    return owner === uid
      ? undefined
      : `is owned by user ${owner}, neither you (${uid}) nor root: boxwright takes no ignores or defaults from another user's file`;
  } catch {
    return undefined;
  }
}

/** The project file that applies in a directory (app/project-find.ts `projectFinder`: each directory asked once per command). */
export type ProjectFinder = (dir: string) => string | undefined;

/** What a linting command asks of the project files (one per command, each file read once). */
export interface ProjectFiles {
  /** The defaults of the project file found from the command's directory (none when it has an error). */
  defaults(): { readonly platforms?: readonly Platform[]; readonly maxWarnings?: number };
  /** The project files whose content decides what lint says of the config at `path` (`-`: standard input): its own, and the command directory's. */
  deciding(path: string): string[];
  /**
   * A config's diagnostics less what its project file's ignores silence.
   * `checked`: the platforms the check kept; `ranRules`: whether the check
   * got as far as the rules (a config that stopped at a syntax or schema
   * error says nothing of whether an ignore is still needed).
   */
  apply(path: string, diagnostics: readonly Diagnostic[], checked: readonly Platform[], ranRules: boolean): Diagnostic[];
  /** Every project file this command read, in the order read, with its findings about itself: lint's entries for them. */
  reports(checked: readonly Platform[]): (FileReport | UnreadableFile)[];
}

export interface ProjectFilesOptions {
  /** The command's directory: relative paths, names as shown, and where the defaults are found from. */
  readonly cwd: string;
  /** `YYYY-MM-DD`, UTC (utcDay). */
  readonly today: string;
  readonly find: ProjectFinder;
  /** Project files named as inputs (lint `.boxwright.toml`, or a hook's staged one): reported whether or not a config uses them. */
  readonly named: readonly string[];
}

/**
 * A project file's text read: its findings about itself that need no
 * config (syntax, schema, unknown rules, expired ignores), what it says,
 * and the ignores in force. Pure: what a language server calls on an open
 * buffer; `shown` names it in the findings, `today` is `YYYY-MM-DD` (UTC).
 */
export function readProjectFile(
  input: Uint8Array | string,
  shown: string,
  today: string,
  known: readonly string[] = allRules.map((r) => r.meta.id),
): Pick<ProjectFile, 'text' | 'own' | 'settings' | 'active'> {
  const parsed = parseToml(input);
  const read = parsed.document ? readProjectDocument(parsed.document, shown) : undefined;
  const own: Diagnostic[] = read ? [...read.diagnostics] : syntaxDiagnostics(parsed.errors, shown);
  const active: ActiveIgnore[] = [];
  for (const ignore of read?.settings?.ignores ?? []) {
    if (!known.includes(ignore.rule)) {
      const guess = didYouMean(ignore.rule, known);
      own.push(
        warn(
          shown,
          ignore.ruleSpan,
          `an ignore names an unknown rule \`${ignore.rule}\`${guess ? `; did you mean \`${guess}\`?` : ''} ` +
            `(\`boxwright rules\` lists them): it silences nothing`,
        ),
      );
    } else if (ignore.expires !== undefined && ignore.expires <= today) {
      own.push(
        warn(
          shown,
          ignore.expiresSpan!,
          `the ignore of \`${ignore.rule}\` in \`${ignore.path}\` expired on ${ignore.expires} ` +
            `(${JSON.stringify(ignore.reason)}): it silences nothing now; look at the finding again, then remove ` +
            `the ignore or give it a later date`,
        ),
      );
    } else active.push({ ignore, matches: globRegex(ignore.path), judged: false, used: false });
  }
  return { text: parsed.text, own, ...(read?.settings ? { settings: read.settings } : {}), active };
}

/** A `suppression` warning in a project file. */
function warn(file: string, span: Span, message: string): Diagnostic {
  const { severity, platforms, text } = suppression.messages.invalid;
  return { ruleId: suppression.meta.id, severity, platforms, message: text({ message }), file, span };
}

export function projectFiles({ cwd, today, find, named }: ProjectFilesOptions): ProjectFiles {
  const known: readonly string[] = allRules.map((r) => r.meta.id);
  const loaded = new Map<string, ProjectFile>();
  const at = (path: string): string => resolve(cwd, path);

  const load = (path: string): ProjectFile => {
    const done = loaded.get(path);
    if (done) return done;
    const shown = relative(cwd, path) || PROJECT_FILE_NAME;
    const dir = dirname(path);
    const input = readInput(path, PROJECT_FILE_LIMIT);
    const reason = 'error' in input ? input.reason : foreignOwner(path);
    let file: ProjectFile;
    if (reason !== undefined || !('bytes' in input)) file = { path, shown, dir, unreadable: reason ?? '', text: '', own: [], active: [] };
    else file = { path, shown, dir, ...readProjectFile(input.bytes, shown, today, known) };
    loaded.set(path, file);
    return file;
  };

  const inDir = (dir: string): ProjectFile | undefined => {
    const path = find(dir);
    return path === undefined ? undefined : load(path);
  };
  // In the order reported: the command directory's (the defaults), then those named.
  inDir(cwd);
  for (const path of named) load(at(path));

  return {
    defaults() {
      const s = inDir(cwd)?.settings;
      return {
        ...(s?.platforms ? { platforms: s.platforms } : {}),
        ...(s?.maxWarnings !== undefined ? { maxWarnings: s.maxWarnings } : {}),
      };
    },
    deciding(path) {
      const own = path === '-' ? undefined : inDir(dirname(at(path)))?.path;
      const command = inDir(cwd)?.path;
      return [...new Set([own, command].filter((p): p is string => p !== undefined))];
    },
    apply(path, diagnostics, checked, ranRules) {
      const project = path === '-' ? undefined : inDir(dirname(at(path)));
      if (!project?.active.length) return [...diagnostics];
      const name = relative(project.dir, at(path)).split(sep).join('/');
      const here = project.active.filter((a) => a.matches.test(name));
      const everyPlatform = (project.settings?.platforms ?? PLATFORMS).every((p) => checked.includes(p));
      for (const a of here) a.judged ||= ranRules && everyPlatform;
      const decided = decideSuppressions(diagnostics, (d) => here.find((a) => a.ignore.rule === d.ruleId));
      for (const a of decided.used) a.used = true;
      for (const [a, d] of decided.refused) a.refused ??= { ruleId: d.ruleId, config: path };
      return decided.kept;
    },
    reports(checked) {
      return [...loaded.values()].map((p): FileReport | UnreadableFile => {
        if (p.unreadable !== undefined) return { path: p.shown, error: p.unreadable };
        const found: Diagnostic[] = [...p.own];
        for (const a of p.active) {
          const { rule, path } = a.ignore;
          if (a.refused)
            found.push(
              warn(
                p.shown,
                a.ignore.ruleSpan,
                `\`${rule}\` is an error in ${a.refused.config}, and an error cannot be ignored: the platform ` +
                  `refuses that configuration whatever this file says`,
              ),
            );
          else if (a.judged && !a.used)
            found.push(
              warn(p.shown, a.ignore.span, `the ignore of \`${rule}\` in \`${path}\` silences nothing in the configs it names; remove it`),
            );
        }
        const diagnostics = found
          .map((d) => ({ ...d, platforms: d.platforms.filter((x) => checked.includes(x)) }))
          .filter((d) => d.platforms.length > 0)
          .sort(compareDiagnostics);
        return { path: p.shown, text: p.text, verdicts: verdictsOf(diagnostics), diagnostics };
      });
    },
  };
}
