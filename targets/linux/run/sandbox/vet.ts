/**
 * Who could change what the host trusts after a run, asked of
 * boxwright-sandbox `--vet` (targets/linux/launcher/vet.c): the launcher
 * asks the same questions of itself at every run, so each is answered by
 * one piece of code. compile and run ask before they write a launch:
 *
 * - `reach`: can a principal's compiled mounts change a file (the config,
 *   the manifest, bubblewrap) or a tree (the `compile --out` directory, the
 *   run cache, boxwright's package) on the host? The mounts read back,
 *   whatever the model says (a lowering that gave more than the model
 *   would be caught here).
 * - `untrusted`: can anyone but root (`rootOwned`) or this user
 *   (`private`) change what a path names (owner and mode of every
 *   component, the sticky bit of a shared directory)?
 */
import { spawnSync } from 'node:child_process';
import { hostArch } from '../../arch.js';
import { launcherPath } from '../../launcher/index.js';

export interface VetQuery {
  /** Each principal's `.bwrap.args`, as compiled. */
  readonly views?: readonly { readonly principal: string; readonly args: Uint8Array }[];
  readonly files?: readonly string[];
  readonly trees?: readonly string[];
  readonly rootOwned?: readonly string[];
  readonly private?: readonly string[];
}

export type VetFinding =
  | { readonly kind: 'reach'; readonly path: string; readonly principal: string; readonly dest: string }
  | { readonly kind: 'untrusted'; readonly path: string; readonly reason: string };

/** The questions could not be asked (no program for this machine, a failure): the caller refuses, fail-closed. */
export class VetError extends Error {}

/** The program that answers, or why there is none. */
export function vetProgram(): string | { readonly why: string } {
  const arch = process.platform === 'linux' ? hostArch() : undefined;
  const program = arch ? launcherPath(arch) : undefined;
  return (
    program ?? {
      why: process.platform !== 'linux' ? 'boxwright-sandbox runs on Linux only' : `boxwright-sandbox is not built for ${process.arch}`,
    }
  );
}

export function vet(q: VetQuery): VetFinding[] {
  const program = vetProgram();
  if (typeof program !== 'string') throw new VetError(program.why);
  const frames = (q.views ?? []).map((v) => Buffer.concat([Buffer.from(`${v.principal}\0${v.args.length}\0`), Buffer.from(v.args)]));
  const args = [
    '--vet',
    ...(frames.length ? ['--views-on-stdin'] : []),
    ...(q.files ?? []).flatMap((p) => ['--file', p]),
    ...(q.trees ?? []).flatMap((p) => ['--tree', p]),
    ...(q.rootOwned ?? []).flatMap((p) => ['--root-owned', p]),
    ...(q.private ?? []).flatMap((p) => ['--private', p]),
  ];
  const r = spawnSync(program, args, { input: Buffer.concat(frames), timeout: 30_000, maxBuffer: 64 << 20 });
  if (r.error || r.status !== 0)
    throw new VetError(`${program} --vet failed: ${r.error?.message ?? (r.stderr.toString().trim() || `exit ${r.status}`)}`);
  const fields = r.stdout.toString('utf8').split('\0');
  fields.pop();
  const out: VetFinding[] = [];
  for (let i = 0; i < fields.length; ) {
    const kind = fields[i];
    if (kind === 'reach') {
      out.push({ kind, path: fields[i + 1]!, principal: fields[i + 2]!, dest: fields[i + 3]! });
      i += 4;
    } else if (kind === 'untrusted') {
      out.push({ kind, path: fields[i + 1]!, reason: fields[i + 2]! });
      i += 3;
    } else throw new VetError(`${program} --vet wrote a record it does not write (${JSON.stringify(kind)})`);
  }
  return out;
}
