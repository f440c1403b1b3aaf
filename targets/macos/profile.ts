import type { Grant } from '../../compiler/ir/types.js';
import { isUnder } from '../../compiler/paths/index.js';
import type { GrantAccess, Mechanism, PrincipalAccess } from '../../model/index.js';
import { explanation } from '../../rules/index.js';
import { artifactStem, headerLines, TargetError, type CompileInput } from '../target.js';
import { baselinePaths, directNetworkRules, renderRule, renderedBaseline } from './baseline.js';
import { commentText, sbplString } from './sbpl.js';

/** The gateway's loopback port when `--gateway-port` is not given. */
export const DEFAULT_GATEWAY_PORT = 8080;

/**
 * The file-rule sections, in the order they are emitted. Seatbelt applies
 * the last rule that matches a file operation, and every rule before the
 * denies is an allow; so the only order that matters is that the denies
 * come last, where nothing can re-open what they close.
 */
export const FILE_SECTIONS = ['1) reads', '2) writes', '3) list', '4) metadata', '5) exec', '6) denies'] as const;
type FileSection = (typeof FILE_SECTIONS)[number];

/** Section banners (the tests find the sections by them). */
export const BANNER = {
  baseline: ';; ==== baseline: what ordinary programs need (targets/macos/baseline.json) ====',
  resolution: ';; ==== path resolution: metadata, never content, of / and of the directories leading to the paths below ====',
  network: ';; ==== network ====',
  files: ';; ==== file rules, in a fixed order: the last matching rule wins, so the denies come last ====',
  file: (s: FileSection): string => `;; ---- ${s} ----`,
} as const;

/**
 * Operations a deny closes: `all`, or only the `content` where the sandbox
 * leaves metadata visible everywhere (the IR's `holds.metadataEverywhere`:
 * TYBA's platforms page, "content, not metadata"). file-test-existence is an
 * operation of its own, not part of file-read* (the kernel's operation
 * table): a Box deny closes it with the metadata, a TYBA deny leaves it open
 * with the metadata.
 */
const DENY_OPS = {
  all: 'file-read* file-test-existence file-write* process-exec* file-map-executable',
  content: 'file-read-data file-read-xattr file-write* process-exec* file-map-executable',
};
/** Reading a path also tests its existence: file-test-existence is not in file-read* (peers grant it beside, codex-defaults). */
const READ_OPS = 'file-read* file-test-existence';
/** Metadata (path resolution, `metadata`, tyba's everywhere) with existence tests. */
const META_OPS = 'file-read-metadata file-test-existence';

interface Entry {
  readonly comment: string;
  readonly sbpl: string;
}

function filterFor(path: string, scope: 'tree' | 'file'): string {
  return `(${scope === 'tree' ? 'subpath' : 'literal'} ${sbplString(path)})`;
}

/** Where a grant came from: `config line N: <list> = "<written>"`, or `implicit: <reason>`. */
function origin(g: Grant): string {
  if (g.implicit) return `implicit: ${commentText(g.implicit.reason)}`;
  return `config line ${g.span.start.line}: ${g.list} = ${sbplString(g.written)}`;
}

/**
 * The model's macOS fact a grant's rule comment says, in its rule's words:
 * its note (why the cell differs from the request), or that an absent
 * deny target stays refused. A TYBA deny's `content-not-metadata` is left
 * unsaid: the deny's operations (DENY_OPS.content) spell it.
 */
function commentedFact(ga: GrantAccess): Mechanism | undefined {
  const note = ga.notes.macos;
  if (note && note.kind !== 'content-not-metadata') return note;
  return ga.disclosures.macos?.find((d) => d.kind === 'future-path-refused');
}

/** The strict ancestors of an absolute path, `/` first. */
function componentsLeadingTo(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  const out = ['/'];
  for (let i = 1; i < parts.length; i++) out.push(`/${parts.slice(0, i).join('/')}`);
  return path === '/' ? [] : out;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function gatewayPort(input: CompileInput): number {
  const n = input.options.gatewayPort ?? DEFAULT_GATEWAY_PORT;
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new TargetError(`the gateway port must be a TCP port (1-65535), not ${n}`);
  return n;
}

/** A file name for the principal's profile: never a path that leaves the output directory. */
export function profileName(id: string): string {
  return `${artifactStem(id)}.sb`;
}

/** One principal's Seatbelt profile. Pure: same input, same bytes. */
export function principalProfile(input: CompileInput, pa: PrincipalAccess): string {
  const p = pa.principal;
  const dialect = input.ir.dialect;
  // sandbox-runtime's and Claude Code's settings are enforced by sandbox-runtime, not compiled (app/cli/compile.ts refuses them).
  if (dialect !== 'box' && dialect !== 'tyba')
    throw new TargetError(`a ${dialect} settings file is enforced by sandbox-runtime itself: boxwright compiles Box and TYBA configs`);
  const tyba = dialect === 'tyba';
  // What the model's cells read too (the macOS model part): the IR's fact, not the dialect.
  const metadataEverywhere = !!input.ir.holds?.metadataEverywhere;
  const out: string[] = [];
  const emit = (e: Entry): void => {
    out.push(`;; ${e.comment}`, e.sbpl);
  };

  // ---- header
  for (const line of headerLines(input)) out.push(`;; ${commentText(line)}`);
  const declared = p.kind === 'agent' ? 'the agent' : p.kind === 'tool' ? 'a tool' : 'a local MCP server';
  out.push(
    `;; principal: ${commentText(p.id)} (${declared}${tyba ? ', TYBA session' : `, config line ${p.span.start.line}`}); each principal runs in its own sandbox`,
  );
  out.push(`;; dialect: ${input.ir.dialect}`);
  out.push('(version 1)', '(deny default)', '');

  // ---- baseline
  out.push(BANNER.baseline);
  for (const b of renderedBaseline) emit({ comment: `baseline: ${b.reason}`, sbpl: b.sbpl });
  out.push('');

  // ---- file rules, gathered first (path resolution needs their paths)
  const sections = new Map<FileSection, Entry[]>(FILE_SECTIONS.map((s) => [s, []]));
  const add = (s: FileSection, e: Entry): void => void sections.get(s)!.push(e);
  // Path resolution: for each directory, the config lines (or other sources) of the paths it leads to.
  const leadsTo = new Map<string, { lines: Set<number>; other: Set<string> }>();
  const resolves = (dirs: readonly string[], source: number | string): void => {
    for (const dir of dirs) {
      if (!leadsTo.has(dir)) leadsTo.set(dir, { lines: new Set(), other: new Set() });
      const e = leadsTo.get(dir)!;
      if (typeof source === 'number') e.lines.add(source);
      else e.other.add(source);
    }
  };
  const skipped: string[] = [];

  for (const ga of pa.grants) lowerGrant(ga);
  lowerHostTrusted();

  /**
   * Host-trusted paths inside the write grants (the model's TrustedAccess):
   * writes denied on each, existing or not (a path rule also refuses its
   * creation), and on its missing parents (else it could be made elsewhere
   * and renamed into place); file-write-unlink denied on its ancestors
   * whose parent is writable, as for a deny. A write grant inside one
   * names what it lifts: the rule leaves that out (require-not), so the
   * grant means what the model says whatever the order.
   */
  function lowerHostTrusted(): void {
    const lifts = pa.grants
      .filter((ga) => ga.applies.macos && ga.grant.path && (ga.grant.access === 'write' || ga.grant.access === 'read-write'))
      .map((ga) => ga.grant);
    // One rule per write tree for the paths no write grant lies inside, each filter with what it is; one each for the others.
    const plain = new Map<string, { comment: string; filters: string[] }>();
    // In the config's order of the write trees, then by the path inside each: an order no spelling of the paths changes.
    const offset = (g: Grant | undefined): number => (g ? g.span.start.offset : -1);
    const inside = (ta: (typeof pa.hostTrusted)[number]): string =>
      ta.under ? ta.trusted.path.slice(ta.under.path!.length) : ta.trusted.path;
    const ordered = [...pa.hostTrusted].sort(
      (a, b) => offset(a.under) - offset(b.under) || (inside(a) < inside(b) ? -1 : inside(a) > inside(b) ? 1 : 0),
    );
    for (const ta of ordered) {
      if (ta.state.macos !== 'read-only') continue;
      const path = ta.trusted.path;
      const at = ta.under ? origin(ta.under) : 'implicit';
      for (const dir of [path, ...(ta.missingParents ?? [])]) {
        const what =
          dir === path
            ? ta.trusted.entry.id
            : `a missing parent of ${commentText(path)}, or it could be made elsewhere and renamed into place`;
        const within = lifts.filter((g) => g.path !== dir && isUnder(g.path!, dir));
        if (!within.length) {
          const group = plain.get(at) ?? {
            comment: `${at}: the host-trusted paths inside it, neither written nor created (host-trusted-path)`,
            filters: [],
          };
          group.filters.push(`  ${filterFor(dir, 'tree')} ;; ${what}`);
          plain.set(at, group);
          continue;
        }
        const sbpl = `(deny file-write* (require-all ${filterFor(dir, 'tree')}${within.map((g) => ` (require-not ${filterFor(g.path!, g.scope)})`).join('')}))`;
        add('6) denies', {
          comment:
            `${at}: the host-trusted ${sbplString(dir)} (${what}), neither written nor created, but ` +
            `for the write grants inside it, which name it (host-trusted-path)`,
          sbpl,
        });
      }
      for (const a of ta.pinnedAncestors?.macos ?? [])
        add('6) denies', {
          comment: `${at}: an ancestor of the host-trusted ${sbplString(path)}: not renamed or removed (host-trusted-path)`,
          sbpl: `(deny file-write-unlink ${filterFor(a, 'file')})`,
        });
    }
    // The closing parenthesis has a line of its own: a trailing comment runs to the end of its line.
    for (const g of plain.values()) add('6) denies', { comment: g.comment, sbpl: `(deny file-write*\n${g.filters.join('\n')}\n)` });
  }

  function lowerGrant(ga: GrantAccess): void {
    const g = ga.grant;
    if (!ga.applies.macos) return; // another platform's spelling of an implicit grant
    const cell = ga.effective.macos;
    if (!g.path) {
      skipped.push(`${origin(g)} (not emitted: the path could not be expanded)`);
      return;
    }
    if (cell.kind === 'refused') {
      skipped.push(`${origin(g)} (not emitted: macOS refuses it, ${explanation(cell.because).ruleId})`);
      return;
    }
    const fact = commentedFact(ga);
    const comment = fact ? `${origin(g)}; macOS: ${commentText(explanation(fact).text)}` : origin(g);
    // A path known at run time only (TYBA's temp directory) is a profile parameter, passed by sandbox-exec -D.
    const filter = g.implicit?.parameter ? `(subpath (param ${sbplString(g.implicit.parameter)}))` : filterFor(g.path, g.scope);
    // The rules follow the model: what the grant asks for (its requested cell), each right in its section
    // (a read gives names and properties, names give properties: no rule for what a stronger one gives),
    // and execution where the model's note says a tool runs helpers from a content grant.
    const asks = ga.requested;
    if (asks.kind === 'denied') {
      add('6) denies', { comment, sbpl: `(deny ${DENY_OPS[metadataEverywhere ? 'content' : 'all']} ${filterFor(g.path, 'tree')})` });
      // Its ancestors, where the workload may write their parent: a rename
      // (file-write-unlink of the old name) would carry the denied path out
      // from under this rule. As sandbox-runtime does.
      for (const a of ga.pinnedAncestors?.macos ?? [])
        add('6) denies', {
          comment: `${origin(g)}; an ancestor of the denied path: not renamed or removed (deny-ancestors-pinned)`,
          sbpl: `(deny file-write-unlink ${filterFor(a, 'file')})`,
        });
      return; // a deny needs no path resolution
    }
    if (asks.kind !== 'access') throw new TargetError(`${origin(g)}: no Seatbelt rule gives ${asks.kind}`);
    if (asks.read) add('1) reads', { comment, sbpl: `(allow ${READ_OPS} ${filter})` });
    // Write-only works on macOS: no read is added for a write grant.
    if (asks.write) add('2) writes', { comment, sbpl: `(allow file-write* ${filter})` });
    if (asks.names && !asks.read) {
      // Names without contents: the directory's properties, and its entries (its data) only while it is a
      // directory: on a file, file-read-data is its content (vnode-type holds whatever is there at run time).
      add('3) list', { comment, sbpl: `(allow ${META_OPS} ${filterFor(g.path, 'file')})` });
      add('3) list', { comment, sbpl: `(allow file-read-data (require-all ${filterFor(g.path, 'file')} (vnode-type DIRECTORY)))` });
    }
    if (asks.meta && !asks.names) add('4) metadata', { comment, sbpl: `(allow ${META_OPS} ${filter})` });
    // An exec grant of a directory grants its tree (the IR makes it a tree grant), as the model says; a tool
    // runs helpers and loads built code from its content grants where the model's note says so.
    if (asks.exec || ga.notes.macos?.kind === 'tool-helper-exec')
      add('5) exec', { comment, sbpl: `(allow process-exec file-map-executable ${filter})` });
    if (!g.implicit?.parameter) resolves(componentsLeadingTo(g.path), g.implicit ? 'implicit grants' : g.span.start.line);
  }

  // Every path's metadata visible (TYBA's platforms page: "content, not metadata").
  if (metadataEverywhere) {
    add('4) metadata', {
      comment: "implicit: tyba dialect: content, not metadata (TYBA's platforms page): existence, size and dates of every path are visible",
      sbpl: `(allow ${META_OPS})`,
    });
  }
  // The model's list of the secrets macOS closes (AccessModel.secrets: the IR's `holds.secretsClosed`, TYBA's), which its cells deny:
  // its Seatbelt denies them whatever read_allow says (denials beat permissions).
  for (const s of input.access.secrets.macos)
    add('6) denies', {
      comment: `implicit: TYBA's secret location ${sbplString(s.listed ?? s.path)}: denials beat permissions, read_allow cannot re-open it`,
      sbpl: `(deny ${DENY_OPS[metadataEverywhere ? 'content' : 'all']} ${filterFor(s.path, 'tree')})`,
    });
  // The workspace grants no content, but the program starts there: its own properties, and the way to it.
  if (p.workspace?.path)
    resolves([...componentsLeadingTo(p.workspace.path), p.workspace.path], `workspace (config line ${p.workspace.span.start.line})`);

  // ---- path resolution
  out.push(BANNER.resolution);
  if (metadataEverywhere) out.push(';; (none needed: tyba allows file-read-metadata everywhere, section 4)');
  else {
    const fixed = new Set(baselinePaths.flatMap(componentsLeadingTo));
    out.push(
      ';; path resolution: programs stat each directory of a path they resolve (realpath, getcwd); metadata only, no listing, no content',
    );
    out.push(
      `(allow ${META_OPS}\n${[...fixed]
        .sort(byCodeUnits)
        .map((d) => `  (literal ${sbplString(d)})`)
        .join('\n')})`,
    );
    const granted = [...leadsTo.keys()].filter((d) => !fixed.has(d)).sort(byCodeUnits);
    if (granted.length) {
      const toward = (d: string): string => {
        const e = leadsTo.get(d)!;
        const lines = [...e.lines].sort((a, b) => a - b);
        const parts = lines.length ? [`config line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`] : [];
        return [...parts, ...[...e.other].sort(byCodeUnits)].join('; ');
      };
      out.push(";; path resolution: the directories leading to this principal's grants and workspace (each line says which)");
      // The closing parenthesis has a line of its own: a trailing comment runs to the end of its line.
      out.push(`(allow ${META_OPS}\n${granted.map((d) => `  (literal ${sbplString(d)}) ;; toward ${toward(d)}`).join('\n')}\n)`);
    }
  }
  out.push('');

  // ---- network
  out.push(BANNER.network);
  emit({ comment: 'network: closed unless opened below', sbpl: '(deny network*)' });
  if (p.directNetwork) {
    const how = p.directNetwork.how === 'network-table' ? 'a tool network table' : 'contain_egress = false';
    const line = `config line ${p.directNetwork.span.start.line}: direct network exception`;
    // IP peers only: unfiltered, network-outbound would also connect to every unix socket on the machine
    // (ssh-agent, docker.sock), which no file rule guards; a unix socket stays closed, as without the exception.
    emit({
      comment: `${line} (${how}): the gateway policy is bypassed (Box's platform table, direct-network); IP peers only, no unix socket`,
      sbpl: '(allow network-outbound (remote ip "*:*"))',
    });
    emit({ comment: `${line}: its IP sockets`, sbpl: '(allow system-socket (socket-domain AF_INET) (socket-domain AF_INET6))' });
    for (const r of directNetworkRules) emit({ comment: `${line}: ${r.reason}`, sbpl: renderRule(r) });
  } else {
    const port = gatewayPort(input);
    emit({
      comment:
        `gateway: the host product's gateway on loopback, port ${port} (--gateway-port, default ` +
        `${DEFAULT_GATEWAY_PORT}); its policy decides each request`,
      sbpl: `(allow network-outbound (remote ip ${sbplString(`localhost:${port}`)}))`,
    });
  }
  out.push('');

  // ---- file rules
  out.push(BANNER.files);
  for (const s of FILE_SECTIONS) {
    out.push(BANNER.file(s));
    const entries = sections.get(s)!;
    if (entries.length === 0) out.push(';; (none)');
    for (const e of entries) emit(e);
  }
  if (skipped.length) {
    out.push('', ';; ==== not emitted ====');
    for (const s of skipped) out.push(`;; ${s}`);
  }
  return `${out.join('\n')}\n`;
}
