import type { Platform } from '../../compiler/diagnostic.js';
import type { Artifact } from '../../targets/target.js';
import type { AccessDelta } from './delta.js';
import { thousands } from '../../rules/util.js';

/** What `boxwright diff` reports for one pair of revisions: the formats (app/format/diff.ts) render it. */
/** Two revisions of a config compared, or why they could not be: either side has front-end errors, so there is no model to compare. */
export type ConfigDiff =
  | { readonly base: string; readonly head: string; readonly delta: AccessDelta; readonly artifacts: readonly ArtifactDiff[] }
  | { readonly base: string; readonly head: string; readonly error: string };

export interface ArtifactDiff {
  readonly platform: Platform;
  readonly name: string;
  /** A unified diff for text artifacts; a one-line summary for binary ones and for refusals. */
  readonly patch: string;
}

/**
 * An artifact as a reviewer reads its diff: text as it is; a bubblewrap
 * argument file (`--args`: NUL-separated) as one argument per line, so that
 * a changed bind is a changed line rather than "binary, 437 → 512 bytes";
 * a seccomp program stays binary (`seccomp.txt` is its readable twin).
 */
export function reviewable(a: Artifact): string | Uint8Array {
  if (typeof a.content === 'string' || !a.name.endsWith('.bwrap.args')) return a.content;
  const args = Buffer.from(a.content).toString('utf8').split('\0');
  if (args[args.length - 1] === '') args.pop();
  // An argument holding a line break or another control character is shown quoted, so that lines stay arguments.
  return args.map((arg) => (/[\u0000-\u001f\u007f]/.test(arg) ? JSON.stringify(arg) : arg)).join('\n') + '\n';
}

/** One side's artifacts for a platform, or undefined when that side is refused there. */
export type ArtifactSide = readonly Artifact[] | undefined;

type TwoFilesPatch = (
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
  oldHeader: string,
  newHeader: string,
  options: { context: number; maxEditLength: number },
) => string | undefined;

/**
 * The most lines an artifact's patch compares as changed. Myers' diff costs
 * (lines) × (changes): two revisions that each give 250 write trees their
 * own spelling made a 20 MB patch in over 16 minutes of CPU. Past it, the
 * artifact gets one line with its sizes, and compile shows it whole.
 */
export const MAX_ARTIFACT_EDITS = 2000;

const lines = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/**
 * One platform's artifacts compared file by file: a unified diff for text
 * (`createTwoFilesPatch` of the `diff` package, passed in so that it loads
 * only when artifacts are compared), a size line for binary files, one line
 * when a side is refused.
 */
export function artifactDiffs(
  platform: Platform,
  base: { label: string; artifacts: ArtifactSide },
  head: { label: string; artifacts: ArtifactSide },
  createTwoFilesPatch: TwoFilesPatch,
): ArtifactDiff[] {
  const out: ArtifactDiff[] = [];
  if (!base.artifacts || !head.artifacts) {
    if (!base.artifacts !== !head.artifacts)
      out.push({
        platform,
        name: '*',
        patch: base.artifacts
          ? `${platform}: the head revision is refused: no artifacts`
          : `${platform}: the base revision was refused: all artifacts are new`,
      });
    if (!head.artifacts) return out;
  }
  const before = new Map((base.artifacts ?? []).map((a) => [a.name, reviewable(a)]));
  const after = new Map(head.artifacts.map((a) => [a.name, reviewable(a)]));
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const x = before.get(name);
    const y = after.get(name);
    if (typeof x === 'string' || typeof y === 'string' || x === undefined || y === undefined) {
      const xs = typeof x === 'string' ? x : x === undefined ? '' : null;
      const ys = typeof y === 'string' ? y : y === undefined ? '' : null;
      if (xs !== null && ys !== null) {
        if (xs === ys) continue;
        const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, xs, ys, base.label, head.label, {
          context: 3,
          maxEditLength: MAX_ARTIFACT_EDITS,
        });
        out.push({
          platform,
          name,
          patch:
            patch ??
            `${name}: more than ${thousands(MAX_ARTIFACT_EDITS)} lines changed (${thousands(lines(xs))} lines → ${thousands(lines(ys))}): ` +
              'too many to show here; compile each revision and compare the outputs',
        });
        continue;
      }
    }
    // Binary: a seccomp program. One side may have none (it was refused there).
    const size = (c: string | Uint8Array | undefined): string => (c === undefined ? 'absent' : `${Buffer.byteLength(c)} bytes`);
    if (x === undefined || y === undefined || !Buffer.from(x).equals(Buffer.from(y)))
      out.push({ platform, name, patch: `binary ${name}: ${size(x)} → ${size(y)}` });
  }
  return out;
}
