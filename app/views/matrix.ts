import type { Diagnostic, Platform, Verdict } from '../../compiler/diagnostic.js';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import type { Grant, PolicyIR } from '../../compiler/ir/types.js';
import { legend, type Cell } from '../../model/cell.js';
import type { Mechanism } from '../../model/facts.js';
import type { AccessModel, PrincipalAccess, TrustedAccess } from '../../model/model.js';
import { explanation } from '../../rules/index.js';

/** One cell of the explain matrix: the legend, and why it differs from the request. */
export interface MatrixCell {
  /** `rw`, `r`, `rx`, `rwx`, `w`, `names`, `meta`, `x`, `empty`, `—`, `refused`, `n/a`. */
  readonly legend: string;
  /**
   * The model's facts, worded by the rule that explains each (`ruleId`
   * empty where lint does not report that rule here: citingEmitted), or a
   * diagnostic lint reports at the grant. The view has no words of its own.
   */
  readonly note?: { readonly ruleId: string; readonly text: string };
  /** What the platform does beside the cell, whether or not it differs from the request (a deny's pinned ancestors). */
  readonly disclosures?: readonly { readonly ruleId: string; readonly text: string }[];
}

export interface MatrixRow {
  /** The list it was written in; `host-trusted` for a carve-out inside a write grant (no line: boxwright's own). */
  readonly list: string;
  readonly written: string;
  readonly path?: string;
  /** A host-trusted row for several absent paths alike (each cell the same at every one): all of them. */
  readonly paths?: readonly string[];
  /** A host-trusted row: what it is (`version-control metadata`; `absent` for a row of paths that do not exist). */
  readonly trusted?: string;
  /** 1-based config line; absent for implicit grants. */
  readonly line?: number;
  readonly implicit?: string;
  readonly requested: string;
  readonly cells: Readonly<Record<Platform, MatrixCell>>;
}

export interface PrincipalMatrix {
  readonly id: string;
  readonly rows: readonly MatrixRow[];
  readonly elsewhere: Readonly<Record<Platform, MatrixCell>>;
  readonly directNetwork: boolean;
}

export interface ExplainMatrix {
  readonly file: string;
  readonly dialect: PolicyIR['dialect'];
  readonly verdicts: Readonly<Record<Platform, Verdict>>;
  readonly principals: readonly PrincipalMatrix[];
}

function requestedLegend(g: Grant): string {
  if (g.access === 'deny-read') return 'no r';
  if (g.access === 'deny-write') return 'no w';
  return g.access === 'deny'
    ? 'deny'
    : g.access === 'read-write'
      ? 'rw'
      : g.access === 'list'
        ? 'names'
        : g.access === 'metadata'
          ? 'meta'
          : g.access === 'exec'
            ? 'x'
            : g.access === 'read'
              ? 'r'
              : 'w';
}

type Note = { readonly ruleId: string; readonly text: string };

/** The path as a reviewer reads it: `~/…` under the home. */
function display(path: string, home: string): string {
  return path === home ? '~' : path.startsWith(home + '/') ? '~' + path.slice(home.length) : path;
}

/**
 * The host-trusted rows of a principal, by the write grant they are carved
 * out of: one row per path that exists, one per set of absent paths whose
 * cells are the same everywhere (the names a write tree's root may hold).
 * Every cell has its footnote: the model's `host-trusted` fact, worded by
 * host-trusted-path, and the ancestors it pins.
 */
function hostTrustedRows(pa: PrincipalAccess, home: string): Map<Grant, MatrixRow[]> {
  // What cellsOf reads, as a key: equal keys make equal cells (a fact's words are a function of the fact). Each fact
  // object is spelt once: the absent names of 20,000 write trees share a few, where the cells' JSON was 128 MB of keys.
  const spelt = new WeakMap<object, string>();
  const spell = (m: Mechanism | undefined): string => {
    if (!m) return '';
    let s = spelt.get(m);
    if (s === undefined) spelt.set(m, (s = JSON.stringify(m)));
    return s;
  };
  const cellsKey = (ta: TrustedAccess): string => {
    let key = '';
    for (const p of PLATFORMS) {
      key += `${ta.applies[p] ? legend(ta.effective[p]) : 'n/a'}\0${spell(ta.notes[p])}\0`;
      if (ta.applies[p]) for (const d of ta.disclosures[p] ?? []) key += `${spell(d)}\0`;
      key += '\u0001';
    }
    return key;
  };
  const out = new Map<Grant, MatrixRow[]>();
  const cellsOf = (ta: TrustedAccess): Record<Platform, MatrixCell> => {
    const cells = {} as Record<Platform, MatrixCell>;
    for (const p of PLATFORMS) {
      const fact = ta.notes[p];
      // A path the platform's artifact cannot name (the model says why: no Windows spelling).
      if (!ta.applies[p]) {
        cells[p] = { legend: 'n/a', ...(fact ? { note: explanation(fact) } : {}) };
        continue;
      }
      const disclosures = (ta.disclosures[p] ?? []).map(explanation);
      cells[p] = {
        legend: legend(ta.effective[p]),
        ...(fact ? { note: explanation(fact) } : {}),
        ...(disclosures.length ? { disclosures } : {}),
      };
    }
    return cells;
  };
  const groups = new Map<string, { under: Grant; tas: TrustedAccess[]; cells: Record<Platform, MatrixCell> }>();
  for (const ta of pa.hostTrusted) {
    if (!ta.under || !PLATFORMS.some((p) => ta.state[p] === 'read-only' || ta.state[p] === 'creatable')) continue;
    const list = out.get(ta.under) ?? [];
    out.set(ta.under, list);
    // Absent names, and names the view cannot look up (--fs none), are grouped: each is one of the names a write tree may hold.
    if (ta.trusted.facts.existence === 'exists') {
      const cells = cellsOf(ta);
      list.push({
        list: 'host-trusted',
        written: display(ta.trusted.path, home),
        path: ta.trusted.path,
        trusted: ta.trusted.label,
        requested: 'r',
        cells,
      });
      continue;
    }
    const key = `${ta.under.span.start.offset}\0${ta.trusted.facts.existence}\0${cellsKey(ta)}`;
    const g = groups.get(key);
    if (g) g.tas.push(ta);
    else groups.set(key, { under: ta.under, tas: [ta], cells: cellsOf(ta) });
  }
  for (const g of groups.values()) {
    const paths = g.tas.map((ta) => ta.trusted.path);
    const parent = paths[0]!.slice(0, paths[0]!.lastIndexOf('/'));
    const siblings = paths.every((x) => x.slice(0, x.lastIndexOf('/')) === parent);
    const written =
      paths.length === 1
        ? display(paths[0]!, home)
        : siblings
          ? `${display(parent, home)}/{${paths.map((x) => x.slice(parent.length + 1)).join(',')}}`
          : paths.map((x) => display(x, home)).join(', ');
    out.get(g.under)!.push({
      list: 'host-trusted',
      written,
      path: paths[0]!,
      ...(paths.length > 1 ? { paths } : {}),
      trusted: `${g.tas[0]!.trusted.facts.existence === 'absent' ? 'absent' : 'not looked up'}: ${
        paths.length > 1 ? 'host-trusted names a write tree may hold' : g.tas[0]!.trusted.label
      }`,
      requested: 'r',
      cells: g.cells,
    });
  }
  return out;
}

/**
 * The per-principal, per-grant access matrix that `explain` prints, read
 * off the effective-access model (never recomputed), with refusals that
 * the path rules decide (a missing path, a symlink) taken from the
 * diagnostics at the grant's value.
 */
export function explainMatrix(
  model: AccessModel,
  diagnostics: readonly Diagnostic[],
  verdicts: Readonly<Record<Platform, Verdict>>,
): ExplainMatrix {
  const errorsAt = new Map<number, Diagnostic[]>();
  const warningsAt = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) {
    const at = d.severity === 'error' ? errorsAt : d.severity === 'warning' ? warningsAt : undefined;
    if (!at) continue;
    const here = at.get(d.span.start.offset);
    if (here) here.push(d);
    else at.set(d.span.start.offset, [d]);
  }
  const principals = model.principals.map((pa): PrincipalMatrix => {
    const inLineOrder = [...pa.grants].sort(
      (a, b) => (a.grant.implicit ? 0 : 1) - (b.grant.implicit ? 0 : 1) || a.grant.span.start.offset - b.grant.span.start.offset,
    );
    let rows: MatrixRow[] = inLineOrder.map((ga): MatrixRow => {
      const g = ga.grant;
      const requested = requestedLegend(g);
      const cells = {} as Record<Platform, MatrixCell>;
      for (const p of PLATFORMS) {
        // Another platform's spelling of an implicit grant (the model's `implicit-other-platform`).
        if (!ga.applies[p] && g.implicit) {
          const why = ga.notes[p];
          cells[p] = { legend: 'n/a', ...(why ? { note: explanation(why) } : {}) };
          continue;
        }
        const pathError = g.implicit ? undefined : errorsAt.get(g.span.start.offset)?.find((d) => d.platforms.includes(p));
        const cell: Cell = ga.effective[p];
        if (cell.kind !== 'refused' && pathError) {
          cells[p] = { legend: 'refused', note: { ruleId: pathError.ruleId, text: pathError.message } };
          continue;
        }
        // An entry the platform's artifact leaves out (the model says why: a Windows path with no spelling).
        if (!ga.applies[p]) {
          const why = ga.notes[p];
          cells[p] = { legend: 'n/a', ...(why ? { note: explanation(why) } : {}) };
          continue;
        }
        const shown = legend(cell);
        const fact = cell.kind === 'refused' ? cell.because : ga.notes[p];
        const mechanism: Note | undefined = fact ? explanation(fact) : undefined;
        // The other grants that add up to the cell (the model's `combined`).
        const combined = ga.combined?.[p];
        const overlap: Note | undefined = combined ? explanation(combined) : undefined;
        // sandbox-runtime's denies take one right away (reads stay open under a write deny): they differ when the right is there.
        const differs =
          requested === 'no r'
            ? shown !== '—' && shown !== 'meta'
            : requested === 'no w'
              ? shown.includes('w') || shown === 'scratch'
              : !(shown === requested || (requested === 'deny' && shown === '—'));
        // A private tmpfs is said even where the cell is what was asked: that /tmp is the sandbox's own is the point.
        const said = differs || ga.notes[p]?.kind === 'private-tmpfs';
        const [note, ...moreNotes] = said ? [mechanism, overlap].filter((n): n is Note => !!n) : [];
        // What the platform does beside the cell (the model's facts: pinned ancestors, a rewrite in place…).
        const disclosures = [...moreNotes, ...(ga.disclosures[p] ?? []).map(explanation)];
        // A warning the check made at this grant's value for this platform
        // (a JIT runtime the principal can run, sockets under a read tree, a
        // protected path), shown beside the cell unless a note already
        // names its rule: the lint and explain say the same things.
        if (!g.implicit) {
          for (const d of warningsAt.get(g.span.start.offset) ?? []) {
            if (d.platforms.includes(p) && note?.ruleId !== d.ruleId && !disclosures.some((x) => x.ruleId === d.ruleId))
              disclosures.push({ ruleId: d.ruleId, text: d.message });
          }
        }
        cells[p] = {
          legend: shown,
          ...(note ? { note } : {}),
          ...(disclosures.length ? { disclosures } : {}),
        };
      }
      return {
        list: g.list,
        written: g.written,
        ...(g.path ? { path: g.path } : {}),
        // A Box principal's private temp is implicit, but written: its line is the private_tmp key's.
        ...(g.implicit
          ? { implicit: g.implicit.reason, ...(g.implicit.privateTmp ? { line: g.span.start.line } : {}) }
          : { line: g.span.start.line }),
        requested,
        cells,
      };
    });
    rows = withCarveOuts(rows, hostTrustedRows(pa, model.ir.home));
    const elsewhere = {} as Record<Platform, MatrixCell>;
    for (const p of PLATFORMS) {
      const e = pa.elsewhere[p];
      elsewhere[p] = {
        legend: legend(e.cell),
        note: { ruleId: e.mechanism ? explanation(e.mechanism).ruleId : '', text: explanation(e.fact).text },
        ...(e.disclosures?.length ? { disclosures: e.disclosures.map(explanation) } : {}),
      };
    }
    const dn = pa.principal.directNetwork;
    if (dn) {
      const net = {} as Record<Platform, MatrixCell>;
      for (const p of PLATFORMS) {
        const fact = pa.network[p];
        net[p] = { legend: 'direct', ...(fact ? { disclosures: [explanation(fact)] } : {}) };
      }
      rows.push({
        list: 'network',
        written: dn.how === 'contain_egress' ? 'contain_egress = false' : `[tools.${pa.principal.name}.network]`,
        line: dn.span.start.line,
        requested: 'direct',
        cells: net,
      });
    }
    return { id: pa.principal.id, rows, elsewhere, directNetwork: !!dn };
  });
  return { file: model.ir.file, dialect: model.ir.dialect, verdicts, principals: citingEmitted(principals, diagnostics) };
}

/**
 * Each host-trusted carve-out right after the first row of the write grant it
 * is carved out of (by line, spelling and list); a later grant's rows for the
 * same row come before an earlier one's, and rows whose grant has no row go
 * last. One pass: 20,000 write trees of 34 rows each were 20,000 searches and
 * splices of a 700,000-row array.
 */
function withCarveOuts(rows: readonly MatrixRow[], carveOuts: ReadonlyMap<Grant, MatrixRow[]>): MatrixRow[] {
  const keyOf = (line: number | undefined, written: string, list: string): string => `${line}\0${written}\0${list}`;
  const firstAt = new Map<string, number>();
  rows.forEach((r, i) => {
    const key = keyOf(r.line, r.written, r.list);
    if (!firstAt.has(key)) firstAt.set(key, i);
  });
  const after = new Map<number, MatrixRow[][]>();
  const last: MatrixRow[] = [];
  for (const [under, trustedRows] of carveOuts) {
    const at = firstAt.get(keyOf(under.span.start.line, under.written, under.list));
    if (at === undefined) {
      for (const r of trustedRows) last.push(r);
      continue;
    }
    const groups = after.get(at) ?? [];
    groups.unshift(trustedRows);
    after.set(at, groups);
  }
  const out: MatrixRow[] = [];
  rows.forEach((r, i) => {
    out.push(r);
    for (const group of after.get(i) ?? []) for (const t of group) out.push(t);
  });
  for (const r of last) out.push(r);
  return out;
}

/**
 * A footnote names a rule only where lint reports that rule for the
 * platform in this config (a reader looks it up in lint's output, or
 * silences it there): a fact a rule explains but does not report here
 * (`no-windows-path` for an `exec` outside the home, which gives nothing
 * on Windows beyond its open reads; a rule suppressed inline) keeps its
 * words without the id.
 */
function citingEmitted(principals: readonly PrincipalMatrix[], diagnostics: readonly Diagnostic[]): PrincipalMatrix[] {
  const emitted = new Set(diagnostics.flatMap((d) => d.platforms.map((p) => `${d.ruleId}\0${p}`)));
  const cite = (n: Note, p: Platform): Note => (!n.ruleId || emitted.has(`${n.ruleId}\0${p}`) ? n : { ruleId: '', text: n.text });
  const cell = (c: MatrixCell, p: Platform): MatrixCell => ({
    legend: c.legend,
    ...(c.note ? { note: cite(c.note, p) } : {}),
    ...(c.disclosures ? { disclosures: c.disclosures.map((d) => cite(d, p)) } : {}),
  });
  const cells = (cs: Readonly<Record<Platform, MatrixCell>>): Record<Platform, MatrixCell> => {
    const out = {} as Record<Platform, MatrixCell>;
    for (const p of Object.keys(cs) as Platform[]) out[p] = cell(cs[p], p);
    return out;
  };
  return principals.map((pm) => ({ ...pm, rows: pm.rows.map((r) => ({ ...r, cells: cells(r.cells) })), elsewhere: cells(pm.elsewhere) }));
}
