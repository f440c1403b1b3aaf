import kleur from 'kleur';
import type { Platform, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS, platformNames } from '../../compiler/diagnostic.js';
import type { ExplainMatrix, MatrixCell, PrincipalMatrix } from '../views/matrix.js';

const shortVerdict: Record<Verdict, string> = { accepted: 'accepted', 'accepted-with-warnings': 'accepted (warnings)', refused: 'REFUSED' };

const legendText =
  'legend: r read · w write · x execute · names: entry names only · meta: properties only · empty: an empty placeholder · — absent or denied · n/a not a grant there · refused: the platform refuses the config';
/** sandbox-runtime's Linux sandbox has one cell more: said only where it can occur. */
const scratchLegend = ' · scratch: an empty writable tmpfs over a read-denied path (writes are discarded)';
const legendFor = (dialect: string): string => legendText + (dialect === 'srt' || dialect === 'claude' ? scratchLegend : '');

/** Footnotes numbered in order of first use; identical notes share a number. */
class Footnotes {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  /** `[n]`, or `[n][m]` for a cell with disclosures too; `''` for none. */
  mark(p: Platform, cell: MatrixCell): string {
    return [...(cell.note ? [cell.note] : []), ...(cell.disclosures ?? [])].map((note) => `[${this.number(p, note)}]`).join('');
  }
  private number(p: Platform, note: { readonly ruleId: string; readonly text: string }): number {
    const text = note.ruleId ? `${platformNames[p]}: \`${note.ruleId}\`: ${note.text}` : `${platformNames[p]}: ${note.text}`;
    let n = this.index.get(text);
    if (n === undefined) {
      this.list.push(text);
      n = this.list.length;
      this.index.set(text, n);
    }
    return n;
  }
}

function grantLabel(r: PrincipalMatrix['rows'][number]): string {
  if (r.trusted) return `${r.list} ${r.written} (${r.trusted})`;
  return r.implicit ? `${r.written} (implicit: ${r.implicit})` : `${r.list} ${r.written}`;
}

function clip(s: string, width: number): string {
  return s.length <= width ? s : s.slice(0, width - 1) + '…';
}

const paintCell = (legend: string): string =>
  legend === 'refused'
    ? kleur.red(legend)
    : legend.includes('w') && legend !== '—'
      ? kleur.yellow(legend)
      : legend === '—' || legend === 'n/a'
        ? kleur.dim(legend)
        : legend;

/** A 100-column terminal table per principal, verdicts on top, footnotes below. */
export function explainText(m: ExplainMatrix): string {
  const ps = PLATFORMS.filter((p) => p in m.verdicts);
  const out: string[] = [];
  out.push(kleur.bold(`${m.file} (${m.dialect})`));
  out.push(`verdicts: ${ps.map((p) => `${platformNames[p]} ${shortVerdict[m.verdicts[p]]}`).join(' · ')}`);
  out.push(kleur.dim(legendFor(m.dialect)), '');
  const cellWidth = 12;
  for (const pm of m.principals) {
    const notes = new Footnotes();
    const rows = [
      ...pm.rows.map((r) => ({ line: r.line ? String(r.line) : '', label: grantLabel(r), requested: r.requested, cells: r.cells })),
      { line: '', label: 'everything else', requested: '—', cells: pm.elsewhere },
    ];
    // Footnote marks first (numbered in reading order), then the layout: a
    // cell with several marks is wider than its column, and the grant
    // column gives up what the widest row needs, to keep 100 columns.
    const marked = rows.map((r) => ({ ...r, cells: ps.map((p) => ({ legend: r.cells[p].legend, mark: notes.mark(p, r.cells[p]) })) }));
    const cellText = (c: { legend: string; mark: string | undefined }): number => c.legend.length + (c.mark ? c.mark.length + 1 : 0);
    const cellsWidth = (cells: readonly { legend: string; mark: string | undefined }[]): number =>
      cells.reduce((w, c, i) => w + (i === cells.length - 1 ? cellText(c) : Math.max(cellWidth, cellText(c) + 1)), 0);
    const widest = Math.max(cellWidth * ps.length, ...marked.map((r) => cellsWidth(r.cells)));
    // At least 16 columns for the grant: a row with very many footnotes runs past 100 instead of losing its label.
    const grantWidth = Math.max(16, 100 - 6 - 11 - widest);
    out.push(kleur.bold(pm.id) + (pm.directNetwork ? kleur.yellow('  (direct network exception: gateway bypassed)') : ''));
    out.push(
      kleur.dim(
        `${'line'.padStart(5)} ${'grant'.padEnd(grantWidth)}${'requested'.padEnd(11)}${ps.map((p) => platformNames[p].padEnd(cellWidth)).join('')}`.trimEnd(),
      ),
    );
    for (const r of marked) {
      const cells = r.cells.map(
        (c) => paintCell(c.legend) + (c.mark ? ' ' + kleur.dim(c.mark) : '') + ' '.repeat(Math.max(1, cellWidth - cellText(c))),
      );
      out.push(
        `${r.line.padStart(5)} ${clip(r.label, grantWidth - 1).padEnd(grantWidth)}${r.requested.padEnd(11)}${cells.join('').trimEnd()}`,
      );
    }
    for (const [i, n] of notes.list.entries()) out.push(kleur.dim(`  [${i + 1}] ${n}`));
    out.push('');
  }
  return out.join('\n');
}

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');
}

/** For a PR comment: short tables, long footnotes folded in `<details>`. */
export function explainMarkdown(m: ExplainMatrix): string {
  const ps = PLATFORMS.filter((p) => p in m.verdicts);
  const out: string[] = [`## boxwright explain: \`${mdCell(m.file)}\` (${m.dialect})`, ''];
  out.push(
    `| | ${ps.map((p) => platformNames[p]).join(' | ')} |`,
    `|---|${ps.map(() => '---').join('|')}|`,
    `| verdict | ${ps.map((p) => m.verdicts[p]).join(' | ')} |`,
    '',
  );
  for (const pm of m.principals) {
    const notes = new Footnotes();
    out.push(`### \`${pm.id}\`${pm.directNetwork ? ' — direct network exception (gateway bypassed)' : ''}`, '');
    out.push(
      `| line | grant | requested | ${ps.map((p) => platformNames[p]).join(' | ')} |`,
      `|---:|---|---|${ps.map(() => '---').join('|')}|`,
    );
    const rows = [
      ...pm.rows.map((r) => ({ line: r.line ? String(r.line) : '', label: grantLabel(r), requested: r.requested, cells: r.cells })),
      { line: '', label: '*everything else*', requested: '—', cells: pm.elsewhere },
    ];
    for (const r of rows) {
      const cells = ps.map((p) => {
        const mark = notes.mark(p, r.cells[p]);
        return `\`${r.cells[p].legend}\`${mark ? ` <sup>${mark.slice(1, -1).split('][').join(',')}</sup>` : ''}`;
      });
      out.push(
        `| ${r.line} | ${r.label.startsWith('*') ? r.label : `\`${mdCell(r.label)}\``} | \`${r.requested}\` | ${cells.join(' | ')} |`,
      );
    }
    if (notes.list.length) {
      const items = notes.list.map((n, i) => `${i + 1}. ${mdCell(n)}`);
      if (items.length > 4) out.push('', `<details><summary>${items.length} notes</summary>`, '', ...items, '', '</details>');
      else out.push('', ...items);
    }
    out.push('');
  }
  out.push(`<sub>${legendFor(m.dialect)}</sub>`, '');
  return out.join('\n');
}

export function explainJson(m: ExplainMatrix): string {
  return JSON.stringify({ version: 1, ...m }, null, 2) + '\n';
}
