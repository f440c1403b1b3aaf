import { createHash } from 'node:crypto';
import { relative, resolve, sep } from 'node:path';
import type { Diagnostic, Severity } from '../../compiler/diagnostic.js';
import type { Rule } from '../../rules/engine.js';
import { ruleDoc } from './rule-doc.js';
import type { FileReport } from './report.js';

const levels: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };
const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Relative to `base` (the repository root, where the command runs), forward slashes, as GitHub code scanning expects. */
function uri(path: string, base: string): string {
  const rel = relative(base, resolve(base, path)) || path;
  return rel.split(sep).join('/');
}

function region(d: Diagnostic['span']): Record<string, number> {
  return { startLine: d.start.line, startColumn: d.start.column, endLine: d.end.line, endColumn: d.end.column };
}

/**
 * A stable fingerprint: the rule, the trimmed text of the line and the
 * message, so that a result survives lines moving above it; the
 * occurrence count separates identical lines.
 */
function fingerprint(d: Diagnostic, lineText: string, seen: Map<string, number>): string {
  const hash = createHash('sha256').update(`${d.ruleId}\0${lineText.trim()}\0${d.platforms.join(',')}\0${d.message}`).digest('hex').slice(0, 32);
  const n = (seen.get(hash) ?? 0) + 1;
  seen.set(hash, n);
  return `${hash}:${n}`;
}

/**
 * SARIF 2.1.0, as GitHub code scanning accepts it. `base` is the absolute
 * directory the artifact URIs are relative to (lint passes the current
 * directory, which code scanning takes for the repository root).
 */
export function formatSarif(files: readonly FileReport[], rules: readonly Rule[], version: string, base: string): string {
  const ruleIndex = new Map(rules.map((r, i) => [r.meta.id, i]));
  const results = files.flatMap((f) => {
    const lines = f.text.split(/\r?\n/);
    const seen = new Map<string, number>();
    return f.diagnostics.map((d) => ({
      ruleId: d.ruleId,
      ...(ruleIndex.has(d.ruleId) ? { ruleIndex: ruleIndex.get(d.ruleId) } : {}),
      level: levels[d.severity],
      message: { text: `[${d.platforms.join(', ')}] ${d.message}${d.suggestion ? `\n\nSuggestion: ${d.suggestion}` : ''}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: uri(f.path, base) }, region: region(d.span) } }],
      ...(d.related?.length
        ? { relatedLocations: d.related.map((r, i) => ({ id: i + 1, message: { text: r.message }, physicalLocation: { artifactLocation: { uri: uri(f.path, base) }, region: region(r.span) } })) }
        : {}),
      partialFingerprints: { primaryLocationLineHash: fingerprint(d, lines[d.span.start.line - 1] ?? '', seen) },
      properties: { platforms: d.platforms },
    }));
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
                properties: { tags: ['sandbox', ...Object.keys(r.meta.severity)], seedRow: r.meta.seedRow },
              };
            }),
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
