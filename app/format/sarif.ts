import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Platform, Severity } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { Rule } from '../../rules/engine/engine.js';
import { fixOut, lineIndex, type FixOut, type LineColumn } from './fix-edits.js';
import { ruleDoc } from './rule-doc.js';
import { securitySeverity } from './security-severity.js';
import { checkedFiles, isUnreadable, type LintEntry } from './report.js';

const levels: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };
const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Where the files are: `cwd` resolves the paths as given, `root` is what %SRCROOT% stands for (the git work tree's top, or cwd outside one). */
export interface SarifBase {
  readonly cwd: string;
  readonly root: string;
}

/** The base id every URI inside the source root is relative to: GitHub code scanning's convention. */
export const SRCROOT = '%SRCROOT%';

interface ArtifactLocation {
  readonly uri: string;
  readonly uriBaseId?: string;
}

/** Each path segment percent-encoded (RFC 3986): a space, `#`, `%` or `?` in a file name stays part of the name. */
function encodeSegments(segments: readonly string[]): string {
  return segments.map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/');
}

/**
 * A file's location: relative to the source root with `uriBaseId`
 * %SRCROOT% when it is inside it (forward slashes, percent-encoded), else
 * an absolute `file:` URI. Standard input has no file: it is `stdin`
 * relative to the root.
 */
export function artifactLocation(path: string, base: SarifBase): ArtifactLocation {
  if (path === '<stdin>') return { uri: 'stdin', uriBaseId: SRCROOT };
  const absolute = resolve(base.cwd, path);
  const rel = relative(base.root, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return { uri: pathToFileURL(absolute).href };
  return { uri: encodeSegments(rel.split(sep)), uriBaseId: SRCROOT };
}

function region(d: Diagnostic['span']): Record<string, number> {
  return { startLine: d.start.line, startColumn: d.start.column, endLine: d.end.line, endColumn: d.end.column };
}

/**
 * A fix as SARIF 2.1.0's `fix` (§3.55): one artifact change of the linted
 * file, one replacement per edit (`deletedRegion`, empty for an insertion;
 * `insertedContent`, absent for a deletion). Its applicability, decided by
 * the engine (app/fix-applicability.ts), is in its description and its
 * property bag.
 */
function sarifFix(fix: FixOut, suggestion: string | undefined, location: ArtifactLocation): Record<string, unknown> {
  const region = (s: LineColumn, e: LineColumn) => ({ startLine: s.line, startColumn: s.column, endLine: e.line, endColumn: e.column });
  const what = fix.applicability === 'safe' ? 'safe fix (access stays the same or narrows)' : 'unsafe fix (it may widen access)';
  return {
    description: { text: suggestion ? `${what}: ${suggestion}` : what },
    artifactChanges: [
      {
        artifactLocation: location,
        replacements: fix.edits.map((e) => ({
          deletedRegion: region(e.start, e.end),
          ...(e.newText ? { insertedContent: { text: e.newText } } : {}),
        })),
      },
    ],
    properties: { applicability: fix.applicability },
  };
}

/**
 * A stable fingerprint: the rule, the trimmed text of the line and the
 * message, so that a result survives lines moving above it; the
 * occurrence count separates identical lines.
 */
function fingerprint(d: Diagnostic, lineText: string, seen: Map<string, number>): string {
  const hash = createHash('sha256')
    .update(`${d.ruleId}\0${lineText.trim()}\0${d.platforms.join(',')}\0${d.message}`)
    .digest('hex')
    .slice(0, 32);
  const n = (seen.get(hash) ?? 0) + 1;
  seen.set(hash, n);
  return `${hash}:${n}`;
}

/**
 * SARIF 2.1.0, as GitHub code scanning accepts it: every URI relative to
 * the source root (`base.root`, the git work tree lint runs in) through
 * `uriBaseId` %SRCROOT%, which `originalUriBaseIds` defines. The results
 * are the checked platforms' (`--platform`); a file that could not be read
 * is a tool execution notification, and the run is then not successful.
 */
export function formatSarif(
  files: readonly LintEntry[],
  rules: readonly Rule[],
  version: string,
  base: SarifBase,
  platforms: readonly Platform[] = PLATFORMS,
): string {
  const ruleIndex = new Map(rules.map((r, i) => [r.meta.id, i]));
  const uri = (path: string): ArtifactLocation => artifactLocation(path, base);
  const unreadable = files.filter(isUnreadable);
  const results = checkedFiles(files).flatMap((f) => {
    const lines = f.text.split(/\r?\n/);
    const seen = new Map<string, number>();
    const at = lineIndex(f.text);
    return f.diagnostics.map((d) => {
      const fix = fixOut(d, at);
      return {
        ruleId: d.ruleId,
        ...(ruleIndex.has(d.ruleId) ? { ruleIndex: ruleIndex.get(d.ruleId) } : {}),
        level: levels[d.severity],
        message: { text: `[${d.platforms.join(', ')}] ${d.message}${d.suggestion ? `\n\nSuggestion: ${d.suggestion}` : ''}` },
        locations: [{ physicalLocation: { artifactLocation: uri(f.path), region: region(d.span) } }],
        ...(d.related?.length
          ? {
              relatedLocations: d.related.map((r, i) => ({
                id: i + 1,
                message: { text: r.message },
                physicalLocation: { artifactLocation: uri(f.path), region: region(r.span) },
              })),
            }
          : {}),
        partialFingerprints: { primaryLocationLineHash: fingerprint(d, lines[d.span.start.line - 1] ?? '', seen) },
        ...(fix ? { fixes: [sarifFix(fix, d.suggestion, uri(f.path))] } : {}),
        properties: { platforms: d.platforms },
      };
    });
  });
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'boxwright',
            version,
            semanticVersion: version,
            informationUri: 'https://github.com/boxwright/boxwright',
            rules: rules.map((r) => {
              const worst = (Object.values(r.meta.severity) as Severity[]).sort((a, b) => rank[a] - rank[b])[0] ?? 'warning';
              // SARIF1001 (the SARIF multitool): a name that equals the id, ignoring case, must be left out.
              const name = r.meta.id.replace(/(^|-)([a-z0-9])/g, (_m, _d: string, c: string) => c.toUpperCase());
              return {
                id: r.meta.id,
                ...(name.toLowerCase() === r.meta.id.toLowerCase() ? {} : { name }),
                shortDescription: { text: r.meta.docs.summary },
                fullDescription: { text: r.meta.docs.details },
                help: { text: ruleDoc(r, 'text'), markdown: ruleDoc(r, 'markdown') },
                defaultConfiguration: { level: levels[worst] },
                // GitHub code scanning ranks a result as a security finding by the `security` tag and this number (security-severity.ts).
                properties: {
                  tags: ['security', 'sandbox', ...Object.keys(r.meta.severity)],
                  'security-severity': securitySeverity(r.meta.id, worst),
                  source: r.meta.seedRow,
                },
              };
            }),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(base.root.endsWith(sep) ? base.root : base.root + sep).href } },
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            ...(unreadable.length
              ? {
                  toolExecutionNotifications: unreadable.map((f) => ({
                    level: 'error',
                    message: { text: `cannot read ${f.path}: ${f.error}` },
                    locations: [{ physicalLocation: { artifactLocation: uri(f.path) } }],
                  })),
                }
              : {}),
          },
        ],
        properties: { platforms: PLATFORMS.filter((p) => platforms.includes(p)) },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
