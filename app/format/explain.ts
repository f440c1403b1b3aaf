import kleur from 'kleur';
import type { Platform, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS, platformNames } from '../../compiler/diagnostic.js';
import type { ExplainMatrix, MatrixCell, PrincipalMatrix } from '../views/matrix.js';

const shortVerdict: Record<Verdict, string> = { accepted: 'accepted', 'accepted-with-warnings': 'accepted (warnings)', refused: 'REFUSED' };

const legendText =
  'legend: r read · w write · x execute · names: entry names only · meta: properties only · empty: an empty ' +
  'placeholder · — absent or denied · n/a not a grant there · refused: the platform refuses the config';
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
    // A loop, not Math.max(...rows): a spread of 700,000 rows overflows the stack.
    const widest = marked.reduce((w, r) => Math.max(w, cellsWidth(r.cells)), cellWidth * ps.length);
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
  let out: string[] = [`## boxwright explain: \`${mdCell(m.file)}\` (${m.dialect})`, ''];
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
      // concat, not push(...items): a config's notes can outnumber a call's arguments.
      if (items.length > 4) out = out.concat('', `<details><summary>${items.length} notes</summary>`, '', items, '', '</details>');
      else out = out.concat('', items);
    }
    out.push('');
  }
  out.push(`<sub>${legendFor(m.dialect)}</sub>`, '');
  return out.join('\n');
}

/**
 * The matrix as JSON: the bytes of `JSON.stringify({ version: 1, ...m }, null, 2)` and a newline, in pieces of about
 * a megabyte. One string of a 20,000-tree config's rows is longer than V8's longest ("Invalid string length"). Each
 * row is stringified alone and indented to its depth (a JSON string holds no raw newline: every newline is layout).
 */
export function* explainJsonPieces(m: ExplainMatrix): Generator<string> {
  const at = (value: unknown, depth: number): string => JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
  const fields = (o: object): [string, unknown][] => Object.entries(o).filter(([, v]) => v !== undefined);
  let piece = '{';
  const { principals, ...head } = m;
  for (const [i, [key, value]] of fields({ version: 1, ...head }).entries())
    piece += `${i ? ',' : ''}\n  ${JSON.stringify(key)}: ${at(value, 1)}`;
  // The principals last, as the matrix lists them (explainMatrix, onlyPlatforms): the rows are the long part.
  if (!principals.length) {
    yield `${piece},\n  "principals": []\n}\n`;
    return;
  }
  piece += ',\n  "principals": [';
  for (const [i, pm] of principals.entries()) {
    piece += `${i ? ',' : ''}\n    {`;
    for (const [k, [key, value]] of fields(pm).entries()) {
      piece += `${k ? ',' : ''}\n      ${JSON.stringify(key)}: `;
      if (key !== 'rows' || !pm.rows.length) {
        piece += at(value, 3);
        continue;
      }
      piece += '[';
      for (const [r, row] of pm.rows.entries()) {
        piece += `${r ? ',' : ''}\n        ${at(row, 4)}`;
        if (piece.length > 1 << 20) {
          yield piece;
          piece = '';
        }
      }
      piece += '\n      ]';
    }
    piece += '\n    }';
  }
  yield `${piece}\n  ]\n}\n`;
}

/** The matrix as one JSON string (explainJsonPieces joined). */
export function explainJson(m: ExplainMatrix): string {
  return [...explainJsonPieces(m)].join('');
}
