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
}

/** Facts unknown: each existence-dependent rule says "depends on the machine". */
export function noneView(home: string): FsView {
  return { description: 'none', knowsFacts: false, home, lookup: () => ({ kind: 'unknown' }) };
}
