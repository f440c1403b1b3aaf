/**
 * Every output format of every command, in one table: the command-line
 * options (`--format` choices, app/cli/main.ts) and the commands' rendering
 * both read it, so adding a format is one entry here (and its module).
 *
 * Each entry loads its renderer when asked: start-up loads no format, and a
 * command loads only the one it prints. The first entry of each command is
 * its default.
 */
import type { ConfigDiff } from '../views/diff.js';
import type { ExplainMatrix } from '../views/matrix.js';
import type { DoctorReport } from './doctor.js';
import type { RulesOutput } from './rule-doc.js';
import type { Platform } from '../../compiler/diagnostic.js';
import type { LintEntry } from './report.js';

/** A renderer: the command's result, as the text it prints (or that text in pieces, `O`). */
export type Render<I, O = string> = (input: I) => O;

/** One command's formats: each name with a loader of its renderer. */
export type Formats<I, O = string> = Readonly<Record<string, () => Promise<Render<I, O>>>>;

/** What lint renders: the files named (checked or unreadable), the platforms checked, and where SARIF's URIs are relative to. */
export interface LintOutput {
  readonly files: readonly LintEntry[];
  /** The platforms checked (`--platform`); the others get no verdict in any format. */
  readonly platforms: readonly Platform[];
  /** Absolute: where the command runs (relative file names are relative to it). */
  readonly base: string;
  /** Absolute: the top of the git work tree the command runs in (SARIF's %SRCROOT%), or `base` outside one. */
  readonly root: string;
  /** `-v`: the text format lists every "depends on the machine" info instead of one line per file. */
  readonly verbose?: boolean;
}

const lint = {
  text: async () => {
    const { formatText } = await import('./text.js');
    return (o) => formatText(o.files, o.platforms, { verbose: !!o.verbose });
  },
  json: async () => {
    const { formatJson } = await import('./json.js');
    return (o) => formatJson(o.files, o.platforms);
  },
  sarif: async () => {
    const [{ formatSarif }, { allRules }, { version }] = await Promise.all([
      import('./sarif.js'),
      import('../../rules/engine/registry.js'),
      import('../../compiler/version.js'),
    ]);
    return (o) => formatSarif(o.files, allRules, version, { cwd: o.base, root: o.root }, o.platforms);
  },
  github: async () => {
    const { formatGithub } = await import('./github.js');
    return (o) => formatGithub(o.files, o.platforms);
  },
  markdown: async () => {
    const { formatMarkdown } = await import('./markdown.js');
    return (o) => formatMarkdown(o.files, o.platforms);
  },
} satisfies Formats<LintOutput>;

/** The lint formats that carry each diagnostic's fix and its applicability (issue 40): lint judges fixes only for these. */
const withFixes: ReadonlySet<string> = new Set(['json', 'sarif']);

export function formatCarriesFixes(name: string | undefined): boolean {
  return name !== undefined && withFixes.has(name);
}

const explain: Formats<ExplainMatrix, string | Iterable<string>> = {
  text: async () => (await import('./explain.js')).explainText,
  markdown: async () => (await import('./explain.js')).explainMarkdown,
  // In pieces: a large config's JSON is longer than one string can be (explainJsonPieces).
  json: async () => (await import('./explain.js')).explainJsonPieces,
};

/** A renderer's text whole (a string, or its pieces joined). */
export const whole = (out: string | Iterable<string>): string => (typeof out === 'string' ? out : [...out].join(''));

const diff = {
  text: async () => (await import('./diff.js')).diffText,
  markdown: async () => (await import('./diff.js')).diffMarkdown,
  json: async () => (await import('./diff.js')).diffJson,
} satisfies Formats<readonly ConfigDiff[]>;

const doctor = {
  text: async () => (await import('./doctor.js')).doctorText,
  json: async () => (await import('./doctor.js')).doctorJson,
} satisfies Formats<DoctorReport>;

const rules = {
  text: async () => (await import('./rule-doc.js')).rulesText,
  markdown: async () => (await import('./rule-doc.js')).rulesMarkdown,
} satisfies Formats<RulesOutput>;

export const formats = { lint, explain, diff, doctor, rules };

export type FormattedCommand = keyof typeof formats;

/** A command's format names, its default first. */
export function formatNames(command: FormattedCommand): string[] {
  return Object.keys(formats[command]);
}

/**
 * The renderer of format `name`, or the command's default (first) one
 * when the name is absent or not the command's (the option's `choices`
 * refuse those on the command line).
 */
export async function renderer<I, O = string>(table: Formats<I, O>, name: string | undefined): Promise<Render<I, O>> {
  const load = (name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined) ?? Object.values(table)[0]!;
  return load();
}
