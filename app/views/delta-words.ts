/** The words both comparisons of `diff` share: rights as flags, verbs, paths as a reviewer reads them. */
import type { Platform } from '../../compiler/diagnostic.js';
import type { Principal } from '../../compiler/ir/types.js';
import { who } from '../../compiler/ir/names.js';
import type { Cell } from '../../model/cell.js';

export interface AccessChange {
  readonly platform: Platform;
  readonly principal: string;
  /** The path as a reviewer reads it (`~/…` under the home). */
  readonly path: string;
  readonly before: string;
  readonly after: string;
  /** widen: a right appears; narrow: a right goes; both can hold at once (`r` → `w`). */
  readonly widens: boolean;
  readonly narrows: boolean;
  readonly sentence: string;
}

/**
 * A change in what a principal asks for, on no machine in particular: a
 * widening here is one on every machine. Its `path` may be `below ~/x`
 * (what a path under it that no grant names gets) or `(network)`.
 */
export type RequestChange = Omit<AccessChange, 'platform'> & {
  /** The settings key whose reach changed (settings-delta.ts), when it is a setting's reach and not a path's. */
  readonly setting?: string;
  /** A setting boxwright does not model changed (settings-delta.ts): counted as a widening, and said so. */
  readonly cannotJudge?: true;
};

export type Flags = { read: boolean; write: boolean; exec: boolean; names: boolean; meta: boolean };
export const none: Flags = { read: false, write: false, exec: false, names: false, meta: false };
export function flags(c: Cell): Flags {
  return c.kind === 'access' ? c : c.kind === 'empty' ? none : none;
}
export const verbs: [keyof Flags, string][] = [
  ['read', 'read'],
  ['write', 'write'],
  ['exec', 'execute'],
  ['names', 'list'],
  ['meta', 'see the metadata of'],
];

/** The principal in a sentence, or its id when only the other revision has it. */
export const principalIn = (p: Principal | undefined, id: string): string => (p ? who(p) : id);

export function display(path: string, home: string): string {
  return path === home ? '~' : path.startsWith(home + '/') ? '~' + path.slice(home.length) : path;
}

/** Reading content implies seeing names and properties: say only the strongest. */
export function implied(keys: (keyof Flags)[]): (keyof Flags)[] {
  return keys.includes('read')
    ? keys.filter((k) => k !== 'names' && k !== 'meta')
    : keys.includes('names')
      ? keys.filter((k) => k !== 'meta')
      : keys;
}

export function verb(k: keyof Flags): string {
  return verbs.find(([key]) => key === k)![1];
}

/** A principal's direct network exception that came (a widening) or went: one row, in effective access and in the request alike. */
export function networkChange(principal: string, direct: boolean, sentence: string) {
  return {
    principal,
    path: '(network)',
    before: direct ? 'gateway' : 'direct',
    after: direct ? 'direct' : 'gateway',
    widens: direct,
    narrows: !direct,
    sentence,
  };
}

/**
 * diff's own sentences, one table for both comparisons (what a machine
 * grants, delta.ts; what is asked for, request-delta.ts): what no rule's
 * message or fact says, worded once here.
 */
export const diffWords = {
  /** A platform the comparison cannot settle: a side refused there, by these rules. */
  refused: (why: string, rules: string): string =>
    `${why === 'both-refused' ? 'both revisions are' : why === 'base-refused' ? 'the base revision is' : 'the head revision is'} ` +
    `refused with these facts (${rules}): a refused revision grants nothing here, and what it would grant on a machine ` +
    'that accepts it is not known here',
  /** A principal's direct network exception, as a machine grants it. */
  directNetwork: (subject: string, direct: boolean): string =>
    `${subject} ${direct ? 'now has a direct network exception: it bypasses the gateway' : 'no longer bypasses the gateway'}`,
  /** A principal's direct network exception, as the config asks for it. */
  askedNetwork: (subject: string, direct: boolean): string =>
    `${subject} ${direct ? 'now asks for a direct network exception: it bypasses the gateway' : 'no longer asks for a direct network exception'}`,
};
