import kleur from 'kleur';
import type { Diagnostic } from '../../compiler/diagnostic.js';
import { groupChanges, isEmptyDelta, type AccessDelta } from '../views/delta.js';
import type { ConfigDiff } from '../views/diff.js';

function diagLine(d: Diagnostic): string {
  return `${d.severity} ${d.ruleId} [${d.platforms.join(',')}] line ${d.span.start.line}: ${d.message}`;
}

/** What `--fail-on widen` does with an unsettled comparison, and how to settle it. */
function unsettledAdvice(d: AccessDelta): string {
  return d.requestsDiffer
    ? '--fail-on widen fails on this change: compare with the facts of a machine that accepts both revisions (--fs MANIFEST.json, or --fs host there)'
    : 'both revisions ask for the same: no machine tells them apart';
}

/** Changes in words first (what a reviewer acts on), then the artifact diffs. */
export function diffText(diffs: readonly ConfigDiff[]): string {
  if (!diffs.length) return 'no sandbox config changed\n';
  const out: string[] = [];
  for (const d of diffs) {
    out.push(kleur.bold(`${d.base} → ${d.head}`));
    if ('error' in d) {
      out.push(kleur.red(d.error), '');
      continue;
    }
    const delta = d.delta;
    if (isEmptyDelta(delta) && !d.artifacts.length) {
      out.push('no change in effective access, verdicts, diagnostics or artifacts', '');
      continue;
    }
    if (delta.verdicts.length) {
      out.push(kleur.bold('verdicts'));
      for (const v of delta.verdicts) out.push(`  ${v.platform}: ${v.before} → ${v.after}`);
    }
    const mark = (c: { widens: boolean; narrows: boolean }) => `${c.widens ? kleur.yellow('+') : ' '}${c.narrows ? kleur.green('-') : ' '}`;
    if (delta.requested.length) {
      out.push(kleur.bold('requested (the same on every machine)'));
      for (const c of delta.requested) out.push(`  ${mark(c)} ${c.sentence} (${c.before} → ${c.after})`);
    }
    if (delta.changes.length) {
      out.push(kleur.bold('effective access'));
      for (const c of groupChanges(delta.changes)) out.push(`  ${mark(c)} ${c.platforms.join(', ')}: ${c.what} (${c.before} → ${c.after})`);
    }
    // The cells are file access: a change in what the settings reach beyond files (network, hooks, the sandbox's strength) is said above.
    else
      out.push(
        delta.requested.length ? 'no change in effective file access on this machine' : 'no change in effective access on this machine',
      );
    if (delta.unsettled.length) {
      out.push(kleur.bold('not settled by this machine'));
      for (const u of delta.unsettled) out.push(`  ${u.sentence}`);
      out.push(`  ${unsettledAdvice(delta)}`);
    }
    if (delta.diagnosticsAdded.length || delta.diagnosticsRemoved.length) {
      out.push(kleur.bold('diagnostics'));
      for (const x of delta.diagnosticsAdded) out.push(`  + ${diagLine(x)}`);
      for (const x of delta.diagnosticsRemoved) out.push(`  - ${diagLine(x)}`);
    }
    if (delta.stillTrue.length) {
      out.push(kleur.bold('still true'));
      for (const s of delta.stillTrue) out.push(`  ${s.sentence}`);
    }
    for (const a of d.artifacts) out.push('', kleur.bold(`${a.platform} ${a.name}`), a.patch.trimEnd());
    out.push('');
  }
  return out.join('\n') + '\n';
}

/** A control character as the escape that names it (`\\n`), so that it shows and breaks no line. */
function shown(s: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text from a config or its file name in Markdown prose: on one line, and
 * with no `<`. A file name or a path is the pull request author's to choose
 * and the Action writes this to the job summary: a line break there could
 * start a heading or a list item that reads as boxwright's, and a `<!--`
 * would hide the rest of the report.
 */
function prose(s: string): string {
  return shown(s).replace(/</g, '&lt;');
}

/** Inline code that holds any text: a fence longer than its longest run of backticks (CommonMark), on one line. */
function code(s: string): string {
  const t = shown(s);
  const fence = '`'.repeat(Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** For a PR comment: the sentences, then each artifact diff folded. */
export function diffMarkdown(diffs: readonly ConfigDiff[]): string {
  const out: string[] = ['## boxwright diff', ''];
  if (!diffs.length) out.push('No sandbox config changed.', '');
  for (const d of diffs) {
    out.push(`### ${code(d.base)} → ${code(d.head)}`, '');
    if ('error' in d) {
      out.push(`⛔ ${prose(d.error)}`, '');
      continue;
    }
    const delta = d.delta;
    if (isEmptyDelta(delta) && !d.artifacts.length) {
      out.push('No change in effective access, verdicts, diagnostics or artifacts.', '');
      continue;
    }
    if (delta.verdicts.length)
      out.push('**Verdicts**', '', ...delta.verdicts.map((v) => `- ${v.platform}: ${v.before} → **${v.after}**`), '');
    if (delta.requested.length) {
      out.push('**Requested** (the same on every machine)', '');
      for (const c of delta.requested) out.push(`- ${c.widens ? '🔓' : '🔒'} ${prose(c.sentence)} (${code(c.before)} → ${code(c.after)})`);
      out.push('');
    }
    if (delta.changes.length) {
      out.push('**Effective access**', '');
      for (const c of groupChanges(delta.changes))
        out.push(`- ${c.widens ? '🔓' : '🔒'} ${c.platforms.join(', ')}: ${prose(c.what)} (${code(c.before)} → ${code(c.after)})`);
      out.push('');
    }
    if (delta.unsettled.length)
      out.push(
        '**Not settled by this machine**',
        '',
        ...delta.unsettled.map((u) => `- ⚠️ ${prose(u.sentence)}`),
        '',
        unsettledAdvice(delta),
        '',
      );
    if (delta.diagnosticsAdded.length || delta.diagnosticsRemoved.length) {
      out.push(
        '**Diagnostics**',
        '',
        ...delta.diagnosticsAdded.map((x) => `- new: ${prose(diagLine(x))}`),
        ...delta.diagnosticsRemoved.map((x) => `- gone: ${prose(diagLine(x))}`),
        '',
      );
    }
    if (delta.stillTrue.length) out.push('**Still true**', '', ...delta.stillTrue.map((s) => `- ${prose(s.sentence)}`), '');
    for (const a of d.artifacts) {
      // A fence longer than any run of backticks the patch holds (a path in an argument list): the patch cannot close it.
      const fence = '`'.repeat(Math.max(2, ...(a.patch.match(/`+/g) ?? []).map((r) => r.length)) + 1);
      out.push(
        `<details><summary>${a.platform}: <code>${a.name}</code></summary>`,
        '',
        `${fence}diff`,
        a.patch.trimEnd(),
        fence,
        '',
        '</details>',
        '',
      );
    }
  }
  return out.join('\n');
}

export function diffJson(diffs: readonly ConfigDiff[]): string {
  const slim = (x: Diagnostic) => ({
    ruleId: x.ruleId,
    severity: x.severity,
    platforms: x.platforms,
    message: x.message,
    line: x.span.start.line,
  });
  return (
    JSON.stringify(
      {
        version: 1,
        diffs: diffs.map((d) => ({
          base: d.base,
          head: d.head,
          ...('error' in d
            ? { error: d.error, artifacts: [] }
            : {
                verdicts: d.delta.verdicts,
                requested: d.delta.requested,
                changes: d.delta.changes,
                unsettled: d.delta.unsettled,
                requestsDiffer: d.delta.requestsDiffer,
                diagnosticsAdded: d.delta.diagnosticsAdded.map(slim),
                diagnosticsRemoved: d.delta.diagnosticsRemoved.map(slim),
                stillTrue: d.delta.stillTrue,
                artifacts: d.artifacts,
              }),
        })),
      },
      null,
      2,
    ) + '\n'
  );
}
