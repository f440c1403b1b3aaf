import type { ProgramFacts } from './elf.js';

/**
 * The one way any stage learns about the filesystem. `lookup` is lstat(2):
 * it never follows a final symbolic link. `unknown` means the view cannot
 * say (the `none` view, or a permission error) and must never be guessed.
 */
export type Lookup =
  | { readonly kind: 'file' | 'dir' | 'other' }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unknown' };

export interface FsView {
  /** `host`, `none`, or `manifest PATH`: said in outputs that depend on it. */
  readonly description: string;
  /** What facts can be asked: `none` knows nothing. */
  readonly knowsFacts: boolean;
  /** Where `~` points. */
  readonly home: string;
  lookup(path: string): Lookup;
  /**
   * Whether `path` (a path with no link left in it, as a walk resolves it)
   * is a regular file this process may execute: the runner's question
   * about a command inside a sandbox. `unknown` when the view cannot say:
   * the `none` view, and a manifest, which records no file modes.
   */
  executable(path: string): Executable;
  /**
   * The unix sockets bound to a filesystem path on this machine, which a
   * process that can see the path may connect to: the host lists the
   * kernel's (/proc/net/unix, its network namespace's), a manifest its
   * `socket` entries; `unknown` for the `none` view.
   */
  sockets(): readonly string[] | 'unknown';
  /**
   * The kernel's Landlock ABI, 0 for none (the Linux lowering's execute
   * confinement needs 1, its scopes 6): the host asks the kernel, a
   * manifest says so in its `landlockAbi` field; `unknown` when it cannot
   * tell.
   */
  landlockAbi(): number | 'unknown';
  /**
   * The entries of a directory, by name in JavaScript's string order, each
   * saying whether it is a directory itself (a link to one is not): the
   * search for host-trusted paths below a write tree
   * (compiler/paths/host-trusted.ts) descends through it. An empty list
   * for a path that is not a directory; `unknown` when the view cannot say
   * (the `none` view, a directory it may not read).
   */
  children(path: string): readonly Child[] | 'unknown';
  /**
   * The content of a small regular file (at most TEXT_LIMIT bytes, UTF-8),
   * without following a final link: the few files boxwright reads to know
   * where git looks (a `.git` file's `gitdir:` line, a git directory's
   * `commondir`). null when there is no such file (absent, a link, a
   * directory, larger, unreadable) or the view cannot say.
   */
  text(path: string): string | null;
  /**
   * What the regular file at `path` (no link in it) says about how it
   * starts (elf.ts): its `#!` line, or its ELF interpreter and the
   * libraries its loader opens. The host reads the file (bounded, never
   * running it); a manifest records it (`{"elf": …}`, `{"script": …}`);
   * `unknown` for the `none` view, a manifest entry that records no
   * program, and a file this process cannot read.
   */
  program(path: string): ProgramFacts;
  /**
   * The path the dynamic loader's cache (/etc/ld.so.cache) gives for a
   * soname, for this machine's architecture: `none` when the cache holds
   * no such library (or there is no cache), `unknown` when the view cannot
   * say (`none`; a manifest without `ldCache`).
   */
  cachedLibrary(soname: string): string | 'none' | 'unknown';
  /**
   * The directories a command name is looked up in (PATH), which `run`
   * passes to the sandbox as it finds it: the host's are this process's
   * PATH (its absolute entries), a manifest's its `path`; `unknown` for the
   * `none` view and a manifest without one.
   */
  commandPath(): readonly string[] | 'unknown';
}

/** An entry of a directory listing (FsView.children). */
export interface Child {
  readonly name: string;
  readonly dir: boolean;
}

/** The largest file FsView.text reads: a `.git` file or a `commondir` is one line. */
export const TEXT_LIMIT = 4096;

export type Executable = 'yes' | 'no' | 'unknown';

/** Facts unknown: each existence-dependent rule says "depends on the machine". */
export function noneView(home: string): FsView {
  return {
    description: 'none',
    knowsFacts: false,
    home,
    lookup: () => ({ kind: 'unknown' }),
    executable: () => 'unknown',
    sockets: () => 'unknown',
    landlockAbi: () => 'unknown',
    children: () => 'unknown',
    text: () => null,
    program: () => unknownProgram,
    cachedLibrary: () => 'unknown',
    commandPath: () => 'unknown',
  };
}

const unknownProgram: ProgramFacts = Object.freeze({ kind: 'unknown' });
