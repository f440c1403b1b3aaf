import type { Diagnostic } from '../../compiler/diagnostic.js';
import type { TomlComment } from '../../compiler/toml/ast.js';
import type { MessageDef, Rule } from './engine.js';

interface Suppression {
  readonly comment: TomlComment;
  readonly ruleIds: readonly string[];
  readonly reason: string;
}

/** What suppressing decided: the diagnostics kept, the suppressions that matched one, and each error one was aimed at (kept). */
export interface SuppressionDecision<S> {
  readonly kept: Diagnostic[];
  readonly used: ReadonlySet<S>;
  readonly refused: readonly (readonly [S, Diagnostic])[];
}

/**
 * The one decision of every way to silence a finding (these comments, and
 * the project file's `[[ignore]]` entries, app/project-file.ts): a warning
 * or an info a suppression matches is dropped; an error is kept whatever
 * matches it, since the platform refuses the config whatever the
 * suppression says and silencing it would make the verdict lie; a
 * suppression that matched anything (an error included) was used, so that
 * one that matched nothing can be reported as stale.
 */
export function decideSuppressions<S>(
  diagnostics: readonly Diagnostic[],
  matching: (d: Diagnostic) => S | undefined,
): SuppressionDecision<S> {
  const kept: Diagnostic[] = [];
  const used = new Set<S>();
  const refused: [S, Diagnostic][] = [];
  for (const d of diagnostics) {
    const s = matching(d);
    if (s === undefined) {
      kept.push(d);
      continue;
    }
    used.add(s);
    if (d.severity !== 'error') continue;
    refused.push([s, d]);
    kept.push(d);
  }
  return { kept, used, refused };
}

const directive = /^\s*boxwright-ignore\b(.*)$/;

/**
 * `# boxwright-ignore RULE[, RULE…]: reason` on the line above an entry
 * silences those rules' warnings and infos for that entry. The reason is
 * required. An error cannot be silenced: the platform refuses the config
 * whatever the comment says, so silencing it would make the verdict lie.
 * A suppression that silences nothing is itself reported, as the
 * `suppression` rule's `invalid` message: the rule (rules/suppression.ts)
 * is given, the engine imports no rule.
 */
export function applySuppressions(
  diagnostics: Diagnostic[],
  comments: readonly TomlComment[],
  file: string,
  known: ReadonlySet<string>,
  reporter: Rule<string, { readonly invalid: MessageDef<{ message: string }> }>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byLine = new Map<number, Suppression>();
  const { severity, platforms, text } = reporter.messages.invalid;
  const report = (comment: TomlComment, message: string): void => {
    out.push({ ruleId: reporter.meta.id, severity, platforms, message: text({ message }), file, span: comment.span });
  };
  for (const comment of comments) {
    const m = directive.exec(comment.text);
    if (!m) continue;
    const rest = m[1]!;
    const colon = rest.indexOf(':');
    const ids = (colon >= 0 ? rest.slice(0, colon) : rest)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const reason = colon >= 0 ? rest.slice(colon + 1).trim() : '';
    if (!ids.length) {
      report(comment, 'boxwright-ignore names no rule: write `# boxwright-ignore RULE: reason`');
      continue;
    }
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      report(
        comment,
        `boxwright-ignore names an unknown rule: ${unknown.map((u) => `\`${u}\``).join(', ')} (\`boxwright rules\` lists them)`,
      );
      continue;
    }
    if (!reason) {
      report(
        comment,
        `boxwright-ignore ${ids.join(', ')} has no reason: write \`# boxwright-ignore ${ids.join(', ')}: why this is acceptable\``,
      );
      continue;
    }
    byLine.set(comment.span.start.line + 1, { comment, ruleIds: ids, reason });
  }
  const decided = decideSuppressions(diagnostics, (d) => {
    const s = byLine.get(d.span.start.line);
    return s?.ruleIds.includes(d.ruleId) ? s : undefined;
  });
  for (const [s, d] of decided.refused)
    report(
      s.comment,
      `boxwright-ignore cannot silence the error \`${d.ruleId}\`: the platform refuses this configuration whatever the comment says`,
    );
  out.push(...decided.kept);
  for (const s of byLine.values()) {
    if (!decided.used.has(s))
      report(s.comment, `boxwright-ignore ${s.ruleIds.join(', ')} silences nothing: no such diagnostic on the next line; remove it`);
  }
  return out;
}
