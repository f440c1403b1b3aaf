/**
 * Configs no one wrote, for the differential tests of the macOS and Windows
 * cells (test/macos/model-vs-sbpl.test.ts, test/windows/model-vs-access-check.test.ts):
 * a seeded random tree under a home, as an `--fs` manifest (directories,
 * files, a bound unix socket now and then, some of TYBA's secret locations
 * and their Windows spellings), and a config over it in either dialect: a
 * Box config (agent, now and then a tool and a local MCP server, a direct
 * network exception, every list), or a TYBA session (worktree, agent
 * directories, data directory, read_allow). Each config is checked as
 * `boxwright` would check it, through the one reader.
 */
import { configReader } from '../app/cli/options.js';
import type { CheckResult } from '../app/check.js';
import { manifestView } from '../compiler/paths/index.js';
import { rand, type Rand } from './linux/model-vs-kernel-support.js';

export { rand, type Rand };

export type TreeKind = 'file' | 'dir' | 'socket';
export interface TreeNode {
  readonly path: string;
  readonly kind: TreeKind | 'absent';
}

export const HOME = '/Users/dev';

/**
 * Places of the secret list (and their Windows spellings) the tree holds
 * now and then, so that the platforms' own labels and denies meet grants.
 */
const SECRET_FILES = [
  '.ssh/id_ed25519',
  '.aws/credentials',
  '.config/gh/hosts.yml',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.npmrc',
  '.netrc',
  'AppData/Roaming/gnupg/pubring.kbx',
  'AppData/Roaming/gcloud/credentials.db',
  'AppData/Roaming/GitHub CLI/hosts.yml',
];

/** A random tree under the home: directories up to three deep, files, a socket now and then, and names that do not exist. */
export function makeTree(r: Rand): TreeNode[] {
  const nodes: TreeNode[] = [{ path: HOME, kind: 'dir' }];
  const seen = new Set([HOME]);
  const add = (path: string, kind: TreeNode['kind']): void => {
    if (seen.has(path)) return;
    // Every parent is a directory (a manifest's rule).
    const parts = path.slice(HOME.length + 1).split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `${HOME}/${parts.slice(0, i).join('/')}`;
      if (!seen.has(dir)) {
        seen.add(dir);
        nodes.push({ path: dir, kind: 'dir' });
      }
    }
    seen.add(path);
    nodes.push({ path, kind });
  };
  const dirs: string[] = [HOME];
  const grow = (dir: string, depth: number): void => {
    const subdirs = depth >= 3 ? 0 : r.int(depth === 0 ? 4 : 3) + (depth === 0 ? 1 : 0);
    for (let i = 0; i < subdirs; i++) {
      const d = `${dir}/d${i}`;
      add(d, 'dir');
      dirs.push(d);
      grow(d, depth + 1);
    }
    const files = r.int(3);
    for (let i = 0; i < files; i++) add(`${dir}/f${i}`, 'file');
    if (r.chance(0.1)) add(`${dir}/s.sock`, 'socket');
  };
  grow(HOME, 0);
  for (const s of SECRET_FILES) if (r.chance(0.25)) add(`${HOME}/${s}`, 'file');
  for (let i = 0; i < 2; i++) add(`${r.pick(dirs)}/gone${i}`, 'absent');
  return nodes;
}

/** The manifest of a tree (`--fs FILE.json`'s contents). */
export function manifestOf(nodes: readonly TreeNode[]): string {
  const entries: Record<string, string> = {};
  for (const n of nodes) if (n.kind !== 'absent' && n.path !== HOME) entries[n.path] = n.kind;
  return JSON.stringify({ home: HOME, entries });
}

const BOX_LISTS = ['read', 'read', 'write', 'read_file', 'write_file', 'exec', 'deny', 'deny', 'list', 'metadata'] as const;
type BoxList = (typeof BOX_LISTS)[number];
type Filesystem = Partial<Record<BoxList | 'workspace', string[] | string>>;

/** A `~` spelling now and then, as people write them. */
const spelled = (r: Rand, path: string): string => (r.chance(0.5) && path.startsWith(`${HOME}/`) ? `~${path.slice(HOME.length)}` : path);

function makeFilesystem(r: Rand, nodes: readonly TreeNode[], agent: boolean, entries: number): Filesystem {
  const of = (kinds: readonly TreeNode['kind'][]): string[] =>
    nodes.filter((n) => kinds.includes(n.kind) && n.path !== HOME).map((n) => n.path);
  const dirs = of(['dir']);
  const files = of(['file', 'socket']);
  const any = nodes.filter((n) => n.path !== HOME).map((n) => n.path);
  const out: Partial<Record<BoxList, string[]>> = {};
  const add = (list: BoxList, path: string): void => void (out[list] ??= []).push(spelled(r, path));
  const count = 1 + r.int(entries);
  for (let i = 0; i < count; i++) {
    const list = r.pick(BOX_LISTS);
    if (list === 'metadata' && !agent) continue; // a tool refuses `metadata`
    const natural =
      list === 'read_file' || list === 'write_file'
        ? files
        : list === 'exec'
          ? r.chance(0.5)
            ? files
            : dirs
          : r.chance(0.7)
            ? dirs
            : files;
    // The list's natural kind of path, and now and then any path (a file entry on a directory, a missing one).
    add(list, r.chance(0.15) ? r.pick(any) : r.pick(natural.length ? natural : any));
  }
  const fs: Filesystem = { ...out };
  if (r.chance(0.2)) fs.workspace = spelled(r, r.pick(dirs.length ? dirs : [HOME]));
  return fs;
}

function boxToml(r: Rand, nodes: readonly TreeNode[], entries: number): string {
  const table = (name: string, fs: Filesystem): string =>
    `[${name}]\n` +
    Object.entries(fs)
      .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
      .join('\n') +
    '\n';
  let text = table('agent.filesystem', makeFilesystem(r, nodes, true, entries));
  if (r.chance(0.5)) {
    text += '\n' + table('tools.t1.filesystem', makeFilesystem(r, nodes, false, entries));
    if (r.chance(0.4)) text += '\n[tools.t1.network]\n';
  }
  if (r.chance(0.3))
    text +=
      `\n[mcp_servers.m1]\ncommand = "m"\ncontain_egress = ${r.chance(0.5)}\n\n` +
      table('mcp_servers.m1.filesystem', makeFilesystem(r, nodes, false, entries));
  return text;
}

export interface GeneratedConfig {
  readonly seed: number;
  readonly dialect: 'box' | 'tyba';
  readonly nodes: readonly TreeNode[];
  readonly text: string;
  /** The command-line options it is checked with (what reproduces it by hand). */
  readonly options: Readonly<Record<string, string | string[]>>;
  readonly check: CheckResult;
}

/** Config number `seed`: its tree, its text, and its check. */
export function generateConfig(seed: number, entries = 6): GeneratedConfig {
  const r = rand(seed);
  const nodes = makeTree(r);
  const dirs = nodes.filter((n) => n.kind === 'dir' && n.path !== HOME).map((n) => n.path);
  const tyba = r.chance(0.3);
  let text: string;
  const options: Record<string, string | string[]> = {};
  if (!tyba) text = boxToml(r, nodes, entries);
  else {
    const reads = Array.from({ length: r.int(4) }, () => spelled(r, r.pick(nodes.filter((n) => n.path !== HOME)).path));
    text = `[sandbox]\nread_allow = ${JSON.stringify(reads)}\n`;
    options.worktree = r.pick(dirs.length ? dirs : [HOME]);
    if (r.chance(0.5)) options['tyba-data-dir'] = r.chance(0.5) ? `${HOME}/.tyba` : r.pick(dirs.length ? dirs : [HOME]);
    const agentDirs = dirs.filter(() => r.chance(0.08));
    if (agentDirs.length) options['agent-dir'] = agentDirs;
  }
  // Now and then host-trusted paths, drawn after the rest so that the configs drawn without them stay what they were:
  // a .git with its config and hooks, an .envrc, a shell start-up file and a PATH directory in the home. Inside a write
  // tree they are read-only (host-trusted-path), on each platform in its own way.
  if (r.chance(0.4)) {
    const at = r.pick(dirs.length ? dirs : [HOME]);
    const trusted = [`${at}/.git/config`, `${at}/.git/hooks/pre-commit`, `${at}/.envrc`, `${HOME}/.bashrc`, `${HOME}/.local/bin/tool`];
    const extra = trusted.filter(() => r.chance(0.6));
    const seen = new Set(nodes.map((n) => n.path));
    const put = (path: string, kind: TreeKind): void => {
      if (seen.has(path)) return;
      seen.add(path);
      nodes.push({ path, kind });
    };
    for (const path of extra) {
      const parts = path.slice(HOME.length + 1).split('/');
      for (let i = 1; i < parts.length; i++) put(`${HOME}/${parts.slice(0, i).join('/')}`, 'dir');
      put(path, 'file');
    }
  }
  // Now and then the agent's private temp directory (private_tmp), drawn last for the same reason.
  if (!tyba && r.chance(0.3)) text = text.replace('[agent.filesystem]\n', '[agent.filesystem]\nprivate_tmp = true\n');
  const manifest = manifestOf(nodes);
  const reader = configReader({ fs: 'none', ...options, landlock: tyba ? 'off' : 'on' }, () => manifestView(manifest, `seed-${seed}.json`));
  const check = reader.check(Buffer.from(text), `seed-${seed}.toml`);
  return { seed, dialect: tyba ? 'tyba' : 'box', nodes, text, options, check };
}

/** How to run one generated config by hand: its manifest and the command. */
export function reproduction(c: GeneratedConfig): string {
  const opts = Object.entries(c.options).flatMap(([k, v]) => ([] as string[]).concat(v).map((x) => `--${k} ${x}`));
  return `# boxwright explain --fs seed-${c.seed}.json ${opts.join(' ')} seed-${c.seed}.toml\n# seed-${c.seed}.json: ${manifestOf(c.nodes)}\n${c.text}`;
}
