/**
 * The entries of host-trusted.json, each with its reason and source, and
 * the types of what host-trusted.ts finds with them: the data's side, read
 * once at load; host-trusted.ts searches a view for them.
 */
import data from './host-trusted.json' with { type: 'json' };
import type { PathFacts } from './inspect.js';

export type TrustedWhere = 'home' | 'project' | 'gitdir' | 'pointer' | 'gitconfig' | 'link' | 'input';

/** One line of reasoning of the data file. */
export interface TrustedEntry {
  readonly id: string;
  readonly where: TrustedWhere;
  /** How a message names what it is, in a few words (`version-control metadata`). */
  readonly label: string;
  readonly reason: string;
  readonly source: string;
}

/** boxwright's own inputs and outputs, which the application passes in for each command. */
export type BoxwrightInput = 'config' | 'manifest' | 'compile-out' | 'run-cache';

/** A host-trusted path the application knows of (the check's typed input). */
export interface HostTrustedInput {
  /** Absolute. */
  readonly path: string;
  readonly input: BoxwrightInput;
}

export interface HostTrustedPath {
  /** Absolute, as the view was asked. */
  readonly path: string;
  readonly facts: PathFacts;
  readonly entry: TrustedEntry;
  /** Why this one: the entry's reason, or the input's own. */
  readonly why: string;
  /** What it is, in a few words: the entry's label, or the input's own. */
  readonly label: string;
  /**
   * A missing ancestor of a host-trusted path that does not exist either:
   * where a platform refuses the creation of the path, it refuses this
   * directory's too, or the path could be made elsewhere and renamed into
   * place with it (macOS). The path it leads to.
   */
  readonly parentOf?: string;
}

interface RawEntry {
  readonly id: string;
  readonly where: TrustedWhere;
  readonly label: string;
  readonly reason: string;
  readonly source: string;
  readonly paths?: readonly string[];
  readonly names?: readonly string[];
  readonly inputs?: Readonly<Record<BoxwrightInput, { readonly label: string; readonly reason: string }>>;
}

export const entries: readonly RawEntry[] = data.entries as readonly RawEntry[];
export const asEntry = (e: RawEntry): TrustedEntry => ({ id: e.id, where: e.where, label: e.label, reason: e.reason, source: e.source });

/** Every entry of the data file, without its paths: for the rule's documentation. */
export const trustedEntries: readonly TrustedEntry[] = entries.map(asEntry);

export const homeEntries = entries
  .filter((e) => e.where === 'home')
  .flatMap((e) => (e.paths ?? []).map((p) => ({ written: p, entry: asEntry(e) })));
export const projectEntries = new Map(
  entries.filter((e) => e.where === 'project').flatMap((e) => (e.names ?? []).map((n) => [n, asEntry(e)] as const)),
);
/** The same, as a list: iterated once per write tree. */
export const projectEntryList: readonly (readonly [string, TrustedEntry])[] = [...projectEntries];
export const gitdirEntry = entries.find((e) => e.where === 'gitdir')!;
export const pointerEntry = asEntry(entries.find((e) => e.where === 'pointer')!);
export const inputEntry = entries.find((e) => e.where === 'input')!;
export const gitConfigEntry = asEntry(entries.find((e) => e.where === 'gitconfig')!);
export const linkEntry = asEntry(entries.find((e) => e.where === 'link')!);
export const gitdirNames: ReadonlySet<string> = new Set(gitdirEntry.names ?? []);

/** The names looked for in every directory of a write tree (`.git`, `.vscode`, …). */
export const projectNames: readonly string[] = [...projectEntries.keys()];
/** The same names, as a set. */
export const projectNameSet: ReadonlySet<string> = new Set(projectNames);
/** The home paths (`~/.bashrc`, `~/.local/bin`, …), as written. */
export const homePaths: readonly string[] = homeEntries.map((h) => h.written);
