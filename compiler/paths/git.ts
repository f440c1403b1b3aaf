/**
 * Where git looks, read as git reads it (gitrepository-layout(5), git's
 * setup.c): a `.git` file is `gitdir: PATH` (the prefix at offset 0, no
 * other spelling; the path runs to the first NUL, with line ends stripped
 * from the end of the file only), relative to the file's directory; a
 * git directory's `commondir` is a path relative to that directory. The
 * files are read through the filesystem view (FsView.text), so a manifest
 * can describe them and a run's cache can compare them.
 *
 * The content is the workload's to write wherever it had write access, so
 * it stays data: a path, followed as the kernel follows it, never more.
 */
import { posix } from 'node:path';
import { resolvePath } from './inspect.js';
import { isUnder } from './spelling.js';
import type { FsView } from './view.js';

/** The path a git metadata file holds, or undefined when git would not follow it. */
function metadataPath(text: string): string | undefined {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  const nul = text.slice(0, end).indexOf('\u0000');
  const path = text.slice(0, nul < 0 ? end : nul);
  return path === '' ? undefined : path;
}

/** The target of a `.git` file's content, or undefined. */
export function gitdirPointer(text: string): string | undefined {
  return text.startsWith('gitdir: ') ? metadataPath(text.slice('gitdir: '.length)) : undefined;
}

/**
 * Where a path held by a git metadata file in `base` leads: the lexical
 * spelling (`..` folded on paper) and, where a link on the way makes the
 * kernel land elsewhere, the place it lands (git hands the joined string
 * to the kernel). One or two absolute paths.
 */
export function gitTargets(view: FsView, base: string, target: string): string[] {
  const lexical = posix.resolve(base, target);
  const walked = resolvePath(view, target.startsWith('/') ? target : `${base}/${target}`);
  const physical = walked.facts.symlink ? walked.facts.symlink.resolved : walked.stop === undefined ? walked.at : lexical;
  return physical !== lexical && physical.startsWith('/') ? [lexical, physical] : [lexical];
}

/** The git directories a `.git` file names (one or two spellings), or none. */
export function pointedGitdirs(view: FsView, dotGit: string): string[] {
  const text = view.text(dotGit);
  const target = text === null ? undefined : gitdirPointer(text);
  return target === undefined ? [] : gitTargets(view, posix.dirname(dotGit), target);
}

/** The common directories a git directory's `commondir` names, or none. */
export function commonDirs(view: FsView, gitdir: string): string[] {
  const text = view.text(`${gitdir}/commondir`);
  const target = text === null ? undefined : metadataPath(text);
  return target === undefined ? [] : gitTargets(view, gitdir, target);
}

/** A TYBA worktree that is a linked worktree of a repository, as `git worktree add` makes one. */
export interface LinkedWorktree {
  /** The worktree's own git directory: `<common>/worktrees/<id>` (HEAD, index, logs). */
  readonly gitdir: string;
  /** The repository's git directory (objects, refs, config, hooks). */
  readonly common: string;
}

/**
 * The worktree's `.git` file read as git reads it, and held to the shape
 * `git worktree add` makes, before any of it is granted: the git directory
 * is `<common>/worktrees/<id>`, with a HEAD and a `commondir` naming
 * `<common>`, and a `gitdir` naming this worktree's `.git` back; the
 * common directory has a HEAD, objects/ and refs/. Anything else (a `.git`
 * file someone rewrote, a pointer through a link) is a problem in words,
 * and nothing is granted. undefined: the worktree's `.git` is not a file
 * (a directory, absent): not a linked worktree.
 */
export function linkedWorktree(view: FsView, worktree: string): LinkedWorktree | { readonly problem: string } | undefined {
  const dotGit = `${worktree}/.git`;
  const found = view.lookup(dotGit);
  if (found.kind !== 'file') return found.kind === 'symlink' ? { problem: `${dotGit} is a symbolic link` } : undefined;
  const named = pointedGitdirs(view, dotGit);
  if (named.length !== 1)
    return {
      problem: named.length
        ? `${dotGit} names its git directory through a symbolic link`
        : `${dotGit} is not a \`gitdir:\` file git follows`,
    };
  const gitdir = named[0]!;
  const commons = commonDirs(view, gitdir);
  if (commons.length !== 1)
    return {
      problem: commons.length
        ? `${gitdir}/commondir leads through a symbolic link`
        : `${gitdir} has no commondir: not a linked worktree's git directory`,
    };
  const common = commons[0]!;
  const isDir = (p: string): boolean => view.lookup(p).kind === 'dir';
  const isFile = (p: string): boolean => view.lookup(p).kind === 'file';
  if (posix.dirname(gitdir) !== `${common}/worktrees` || !isDir(gitdir) || !isFile(`${gitdir}/HEAD`))
    return { problem: `${gitdir} is not a worktree's git directory of ${common} (<common>/worktrees/<id>, with a HEAD)` };
  if (!isFile(`${common}/HEAD`) || !isDir(`${common}/objects`) || !isDir(`${common}/refs`))
    return { problem: `${common} is not a git directory (HEAD, objects/, refs/)` };
  const back = view.text(`${gitdir}/gitdir`);
  const backPath = back === null ? undefined : metadataPath(back);
  if (backPath === undefined || posix.resolve(gitdir, backPath) !== dotGit)
    return { problem: `${gitdir}/gitdir does not name ${dotGit} back` };
  if (isUnder(worktree, common)) return { problem: `the worktree ${worktree} lies inside its repository's git directory ${common}` };
  return { gitdir, common };
}
