/**
 * The project file, `.boxwright.toml` (issue 40): its document checked as
 * a config is (exact spans, did-you-mean for a misspelt key, through the
 * same ajv-to-span mapping as the dialects'), then read into what lint
 * applies. A document with any error is read as nothing: a broken project
 * file silences nothing and sets no default (the error itself fails the
 * lint). What it means to the configs (finding it, matching its globs,
 * silencing) is the application's: app/project-file.ts.
 */
import type { Diagnostic, Platform } from '../diagnostic.js';
import { PLATFORMS } from '../diagnostic.js';
import type { Span } from '../span.js';
import type { TomlTable, TomlValue } from '../toml/ast.js';
import { kindNames } from '../toml/kinds.js';
import { didYouMean } from './did-you-mean.js';
import { PROJECT_FILE_NAME } from './project-name.js';
import { projectSchema } from './project-schema.js';
import { validateProject } from './project-validator.js';
import { schemaDiagnostics, toData } from './validate.js';

/** One `[[ignore]]` entry, valid as written (whether its rule exists is the caller's to say). */
export interface ProjectIgnore {
  readonly rule: string;
  readonly ruleSpan: Span;
  /** The glob as written, less a leading `./`. */
  readonly path: string;
  readonly reason: string;
  /** `YYYY-MM-DD`, a TOML local date. */
  readonly expires?: string;
  readonly expiresSpan?: Span;
  /** The `[[ignore]]` header (or the inline table): where what is said about the whole entry points. */
  readonly span: Span;
}

export interface ProjectSettings {
  readonly ignores: readonly ProjectIgnore[];
  readonly platforms?: readonly Platform[];
  readonly maxWarnings?: number;
}

/** Why a path glob can name no config below the project file's directory, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob === '') return 'is empty: a glob names config files, as `sandbox/*.toml` or `**/*.json`';
  if (glob.includes('\\')) return 'holds `\\`: names are separated by `/` on every platform, and a glob has no escapes';
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob))
    return `is absolute: a glob is relative to the directory of ${PROJECT_FILE_NAME}, as \`${glob.replace(/^([A-Za-z]:)?\/+/, '') || '**'}\``;
  if (glob.endsWith('/')) return `ends with \`/\`: a glob names config files, not a directory; write \`${glob}**\``;
  const parts = glob.replace(/^(\.\/)+/, '').split('/');
  if (parts.includes('..')) return `reaches outside the directory of ${PROJECT_FILE_NAME} (\`..\`): it ignores only what is below it`;
  if (parts.includes('.') || parts.includes('')) return 'has an empty or `.` component: write each name once, separated by one `/`';
  for (let i = glob.indexOf('['); i >= 0; i = glob.indexOf('[', i + 1)) {
    if (glob.indexOf(']', i + 2) < 0) return `opens a character class with \`[\` (column ${i + 1} of the glob) that no \`]\` closes`;
  }
  return undefined;
}

const error = (file: string, span: Span, message: string): Diagnostic => ({
  ruleId: 'schema',
  severity: 'error',
  platforms: PLATFORMS,
  file,
  message,
  span,
});

/** The entries of `ignore` that are tables, with their index. */
function ignoreTables(doc: TomlTable): [number, TomlTable][] {
  const value = doc.entries.get('ignore')?.value;
  if (value?.kind !== 'array') return [];
  return value.items.flatMap((item, i): [number, TomlTable][] => (item.kind === 'table' ? [[i, item]] : []));
}

/** What the schema cannot say in words that help: a date written as a string, a blank reason, a glob that names nothing, a platform misspelt. */
function ownFindings(doc: TomlTable, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [i, table] of ignoreTables(doc)) {
    const at = `ignore[${i}]`;
    const expires = table.entries.get('expires')?.value;
    if (expires && expires.kind !== 'date-local') {
      const quoted = expires.kind === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(expires.value);
      out.push(
        error(
          file,
          expires.span,
          quoted
            ? `\`${at}.expires\` is a TOML date, written without quotes: \`expires = ${expires.value}\``
            : `\`${at}.expires\` must be a TOML local date, as \`expires = 2027-03-31\`, not ${kindNames[expires.kind]}`,
        ),
      );
    }
    const reason = table.entries.get('reason')?.value;
    if (reason?.kind === 'string' && !/\S/.test(reason.value))
      out.push(error(file, reason.span, `\`${at}.reason\` is blank: say why this finding is acceptable, for whoever reads the file next`));
    const path = table.entries.get('path')?.value;
    const problem = path?.kind === 'string' ? globProblem(path.value) : undefined;
    if (path && problem) out.push(error(file, path.span, `\`${at}.path\` ${problem}`));
  }
  const platforms = doc.entries.get('platforms')?.value;
  if (platforms?.kind === 'array') {
    for (const [i, item] of platforms.items.entries()) {
      if (item.kind !== 'string' || PLATFORMS.includes(item.value as Platform)) continue;
      const guess = didYouMean(item.value, PLATFORMS);
      out.push(
        error(
          file,
          item.span,
          `unknown platform \`${item.value}\` in \`platforms[${i}]\`` +
            (guess ? `; did you mean \`${guess}\`?` : `: choose from ${PLATFORMS.join(', ')}`),
        ),
      );
    }
  }
  return out;
}

const text = (v: TomlValue | undefined): string => (v?.kind === 'string' ? v.value : '');

/**
 * The project file's findings about itself (errors), and what it says
 * when it has none. `file`: its name as shown.
 */
export function readProjectDocument(
  doc: TomlTable,
  file: string,
): { readonly diagnostics: Diagnostic[]; readonly settings?: ProjectSettings } {
  const diagnostics = schemaDiagnostics(doc, validateProject, projectSchema, file, toData(doc, true), ownFindings(doc, file));
  if (diagnostics.length) return { diagnostics };
  const ignores = ignoreTables(doc).map(([, t]): ProjectIgnore => {
    const expires = t.entries.get('expires')?.value;
    return {
      rule: text(t.entries.get('rule')?.value),
      ruleSpan: t.entries.get('rule')!.value.span,
      path: text(t.entries.get('path')?.value).replace(/^(\.\/)+/, ''),
      reason: text(t.entries.get('reason')?.value),
      ...(expires?.kind === 'date-local' ? { expires: expires.text, expiresSpan: expires.span } : {}),
      span: t.span,
    };
  });
  const platforms = doc.entries.get('platforms')?.value;
  const max = doc.entries.get('max-warnings')?.value;
  return {
    diagnostics,
    settings: {
      ignores,
      ...(platforms?.kind === 'array' ? { platforms: PLATFORMS.filter((p) => platforms.items.some((i) => text(i) === p)) } : {}),
      ...(max?.kind === 'integer' ? { maxWarnings: Number(max.value) } : {}),
    },
  };
}
