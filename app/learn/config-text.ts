/**
 * The learned config as TOML text: an ordinary Box or TYBA config, one
 * entry per line, each with a comment saying what in the trace needed it.
 * Every path is written as a TOML string (compiler/toml/write.ts: quotes,
 * backslashes, control characters escaped, any Unicode kept), in comments
 * too: a path is data wherever it appears, and no path can end a comment
 * line or open a new key.
 */
import type { ListName } from '../../compiler/ir/types.js';
import { isUnder } from '../../compiler/paths/index.js';
import { tomlString } from '../../compiler/toml/write.js';
import type { Evidence, Need, Unmet } from './needs.js';
import { LINK_NOTE, madeDirectories, type LearnDialect, type LearnedGrant } from './policy.js';

/** How a path is spelled in the config: `~/…` below the home, else as it is. */
export function spelled(path: string, home: string): string {
  if (home !== '/' && home !== '' && isUnder(path, home)) return path === home ? '~' : `~${path.slice(home.length)}`;
  return path;
}

/** A TOML key: bare when it may be, quoted otherwise (a tool named `a.b` is one key, not two). */
export function tomlKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : tomlString(name);
}

/** The table a principal's grants go in: `agent.filesystem`, `tools.NAME.filesystem`, `mcp_servers.NAME.filesystem`, or TYBA's `sandbox`. */
export function tableName(dialect: LearnDialect, principal: string): string {
  if (dialect === 'tyba') return 'sandbox';
  if (principal === 'agent') return 'agent.filesystem';
  const dot = principal.indexOf('.');
  const kind = principal.slice(0, dot);
  const name = principal.slice(dot + 1);
  return `${kind === 'tool' ? 'tools' : 'mcp_servers'}.${tomlKey(name)}.filesystem`;
}

const verbs: Record<Need['kind'], string> = {
  read: 'read',
  stat: 'looked at',
  list: 'listed',
  link: 'went through the link',
  'write-file': 'wrote',
  'write-dir': 'created or removed',
  exec: 'executed',
};

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1) || p;

export function evidenceText(ev: Evidence): string {
  return (
    `${ev.program === '(no traced call)' ? 'found in the throw-away layer, no traced call' : `${base(ev.program)}: ${ev.syscall}`}` +
    `${ev.via ? `; ${ev.via}` : ''}`
  );
}

/** The comment of one grant: what needed it (the first need, and how many more), then why it is this grant. */
/** The needs a list answers first: a write's writes, a read's reads (learn writes Box and TYBA lists only: the JSON dialects' lists answer none). */
const answers: Partial<Record<ListName, readonly Need['kind'][]>> = {
  read: ['read', 'list', 'stat', 'link'],
  read_file: ['read', 'stat'],
  list: ['list'],
  write: ['write-dir', 'write-file'],
  write_file: ['write-file'],
  exec: ['exec'],
  read_allow: ['read', 'list', 'stat', 'link', 'exec'],
  deny: [],
  metadata: [],
};

export function grantComment(g: LearnedGrant, home: string): string {
  const first = g.needs.find((n) => (answers[g.list] ?? []).includes(n.kind)) ?? g.needs[0];
  const parts: string[] = [];
  if (first) {
    const more = g.needs.length > 1 ? `${g.needs.length} needs, e.g. ` : '';
    parts.push(`${more}${verbs[first.kind]} ${tomlString(spelled(first.first.named, home))} (${evidenceText(first.first)})`);
  }
  for (const note of g.notes) {
    if (note !== LINK_NOTE) parts.push(note);
    else {
      const links = g.needs.filter((n) => n.kind === 'link').map((n) => tomlString(spelled(n.path, home)));
      parts.push(
        `holds the link${links.length > 1 ? 's' : ''} ${links.slice(0, 3).join(', ')}${links.length > 3 ? ` and ${links.length - 3} more` : ''} ` +
          `the run went through: ${note}`,
      );
    }
  }
  return parts.join('; ');
}

export interface LearnedText {
  readonly dialect: LearnDialect;
  readonly principal: string;
  readonly home: string;
  /** The command, as run (for the header). */
  readonly command: readonly string[];
  /** How the run ended, and what makes what it learned incomplete (nothing: complete). */
  readonly ending: string;
  readonly incomplete: readonly string[];
  readonly workspace?: string;
  /** Box: the run used its private /tmp: `private_tmp = true`, never a grant of the host's /tmp. */
  readonly privateTmp?: boolean;
  readonly grants: readonly LearnedGrant[];
  readonly unmet: readonly Unmet[];
  readonly network: readonly string[];
}

/**
 * A comment line: `# ` then the text. TOML allows no control character but
 * tab in a comment, and a line break would end it: each is written as its
 * escape (a path in a comment is a TOML string anyway; this holds for any
 * other text, a program's name included).
 */
export const comment = (text: string): string =>
  `# ${text.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)}`;

/** The line a Box config gets when the run used /tmp: a temp directory of its own, not the host's. */
export const PRIVATE_TMP_LINE = `private_tmp = true  ${comment("the run used /tmp: a temp directory of its own, never the host's shared /tmp")}`;

export function commandText(command: readonly string[]): string {
  return command.map((a) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : tomlString(a))).join(' ');
}

/** Lines of the report kept in the config as comments: what was not granted, and the network. */
export function trailerLines(t: Pick<LearnedText, 'unmet' | 'network' | 'home'>): string[] {
  const out: string[] = [];
  if (t.unmet.length) {
    out.push('', comment('Not granted, though the run needed it (grant it yourself only if you accept what it says):'));
    for (const u of t.unmet) out.push(comment(`  ${tomlString(spelled(u.path, t.home))}: ${u.what} (${evidenceText(u.first)})`));
  }
  if (t.network.length) {
    out.push('', comment('Network: learn grants none. The run reached or tried to reach:'));
    for (const n of t.network) out.push(comment(`  ${n}`));
  }
  return out;
}

/** The entries of one list, one per line: `  "PATH",  # why`. */
export function entryLines(grants: readonly LearnedGrant[], home: string): string[] {
  return grants.map((g) => `  ${tomlString(spelled(g.path, home))},  ${comment(grantComment(g, home))}`);
}

const LIST_ORDER: readonly ListName[] = ['read', 'read_file', 'write', 'write_file', 'list', 'exec', 'read_allow', 'deny'];

/** A whole new config. */
export function configText(t: LearnedText): string {
  const lines: string[] = [
    comment(`Learned by \`boxwright learn\` from one run of: ${commandText(t.command)}`),
    comment(t.ending),
    ...(t.incomplete.length ? [comment(`INCOMPLETE: ${t.incomplete.join('; ')}. What the run did not reach is not granted.`)] : []),
    comment('Each grant says what in the trace needed it. Review the file before you trust it: learn printed'),
    comment('`boxwright lint` and `boxwright explain` of it.'),
    '',
    `[${tableName(t.dialect, t.principal)}]`,
  ];
  if (t.workspace !== undefined && t.dialect === 'box')
    lines.push(`workspace = ${tomlString(spelled(t.workspace, t.home))}  ${comment('where the command ran')}`);
  if (t.privateTmp && t.dialect === 'box') lines.push(PRIVATE_TMP_LINE);
  for (const list of LIST_ORDER) {
    const of = t.grants.filter((g) => g.list === list);
    if (!of.length) continue;
    lines.push(`${list} = [`, ...entryLines(of, t.home), ']');
  }
  // A directory the run made is granted by its own name (policy.ts: CREATED_NOTE), which Linux can bind only once it exists.
  const made = madeDirectories(t.grants);
  if (made.length)
    lines.push(
      '',
      comment('Before running under this config, create the directories the run made (mkdir -p each), which the grants above'),
      comment('name rather than the directories they were made in: Linux binds only a path that exists.'),
      ...made.map((p) => comment(`  ${tomlString(p)}`)),
    );
  lines.push(...trailerLines(t));
  return `${lines.join('\n')}\n`;
}
