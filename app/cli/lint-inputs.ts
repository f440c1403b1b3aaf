import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/**
 * What `lint` is given, as the files it reads: a file as it is; a
 * directory, every `.toml` and `.json` below it; a glob the shell left as it is
 * (`'sandbox/**\/*.toml'`, quoted), every file it matches. What a
 * directory or a glob finds is linted only when it is a sandbox config
 * (`--only-configs`, by content), as ESLint lints what a directory holds
 * that it knows how to read: another tool's TOML or JSON is passed over. Hidden
 * directories (but `.claude`, Claude Code's settings) and `node_modules` are not walked, nor symbolic links
 * (a link to a directory above would loop).
 */
export interface LintInput {
  readonly path: string;
  /** Found by a directory or a glob: linted only when it is a sandbox config. */
  readonly found: boolean;
}

/** An argument that found nothing: the reason, for an unreadable entry (exit 2). */
export interface EmptyInput {
  readonly path: string;
  readonly error: string;
}

const GLOB = /[*?[]/;

/** `*` (within a name), `**` (any depth), `?`, `[…]`, as a regular expression of a whole path. */
export function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` is any number of directories (none included); a trailing `**`, anything.
      if (glob[i + 2] === '/') {
        re += '(?:[^/]*/)*';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, end);
        re += `[${body.startsWith('!') ? '^' + body.slice(1).replace(/[\\\]]/g, '\\$&') : body.replace(/[\\\]]/g, '\\$&')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Every regular file below `dir` (names joined to it as given, read from
 * `cwd`), sorted; hidden directories, node_modules and links left out.
 */
function walk(cwd: string, dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(resolve(cwd, dir)).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const path = dir === '.' ? name : join(dir, name);
    let st;
    try {
      st = lstatSync(resolve(cwd, path));
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      // `.claude` holds Claude Code's settings, a sandbox config; other hidden directories are tools' own.
      if ((!name.startsWith('.') || name === '.claude') && name !== 'node_modules') walk(cwd, path, out);
    } else if (st.isFile()) out.push(path);
  }
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** `cwd`: the directory the command runs in, which relative arguments are read from (they are named as given). */
export function lintInputs(args: readonly string[], cwd: string): (LintInput | EmptyInput)[] {
  const out: (LintInput | EmptyInput)[] = [];
  const seen = new Set<string>();
  const add = (path: string, found: boolean) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ path, found });
  };
  for (const arg of args) {
    if (arg !== '-' && isDirectory(resolve(cwd, arg))) {
      const files: string[] = [];
      walk(cwd, arg.length > 1 && arg.endsWith('/') ? arg.slice(0, -1) : arg, files);
      const configs = files.filter((f) => f.endsWith('.toml') || f.endsWith('.json'));
      if (!configs.length) out.push({ path: arg, error: 'is a directory that holds no .toml or .json file' });
      for (const f of configs) add(f, true);
    } else if (GLOB.test(arg) && !exists(resolve(cwd, arg))) {
      const glob = arg.replace(/^(\.\/)+/, '');
      // The directory the glob starts from: its components before the first one with a wildcard.
      const parts = glob.split('/');
      const first = parts.findIndex((p) => GLOB.test(p));
      const root = parts.slice(0, first).join('/') || (glob.startsWith('/') ? '/' : '.');
      const files: string[] = [];
      walk(cwd, root, files);
      const re = globRegex(glob);
      const matched = files.filter((f) => re.test(f.split(sep).join('/')));
      if (!matched.length) out.push({ path: arg, error: 'matches no file' });
      for (const f of matched) add(f, true);
    } else add(arg, false);
  }
  return out;
}
