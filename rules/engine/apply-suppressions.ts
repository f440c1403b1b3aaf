import type { Diagnostic } from '../../compiler/diagnostic.js';
import type { TomlComment } from '../../compiler/toml/ast.js';
import type { MessageDef, Rule } from './engine.js';

interface Suppression {
  readonly comment: TomlComment;
  readonly ruleIds: readonly string[];
  readonly reason: string;
  used: boolean;
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
    byLine.set(comment.span.start.line + 1, { comment, ruleIds: ids, reason, used: false });
  }
  for (const d of diagnostics) {
    const s = byLine.get(d.span.start.line);
    if (s?.ruleIds.includes(d.ruleId)) {
      if (d.severity !== 'error') {
        s.used = true;
        continue;
      }
      s.used = true;
      report(
        s.comment,
        `boxwright-ignore cannot silence the error \`${d.ruleId}\`: the platform refuses this configuration whatever the comment says`,
      );
    }
    out.push(d);
  }
  for (const s of byLine.values()) {
    if (!s.used)
      report(s.comment, `boxwright-ignore ${s.ruleIds.join(', ')} silences nothing: no such diagnostic on the next line; remove it`);
  }
  return out;
}
