/**
 * The Windows spelling of a path (a bounded cache of compiler/paths' answer) and the fact of an authored entry the
 * Windows plan leaves out, which the Windows labels, the host-trusted decisions and Windows' model part all ask.
 */
import { byPlatform } from '../compiler/diagnostic.js';
import type { Grant } from '../compiler/ir/types.js';
import { windowsUnmapped as windowsUnmappedOf } from '../compiler/paths/index.js';
import type { Mechanism } from './facts.js';
import type { GrantAccess } from './access.js';
import type { WindowsUnmapped } from '../compiler/paths/index.js';

/**
 * windowsUnmapped, each answer kept (a bounded cache): the Windows labels,
 * the plan's left-out entries and each host-trusted path ask it of the same
 * grant paths, 120,000 times for a 40,000-grant config.
 */
export function windowsUnmapped(path: string, home: string): WindowsUnmapped | undefined {
  if (unmappedHome !== home || unmappedMemo.size > 500_000) {
    unmappedMemo.clear();
    unmappedHome = home;
  }
  const hit = unmappedMemo.get(path);
  if (hit !== undefined) return hit === null ? undefined : hit;
  const found = windowsUnmappedOf(path, home);
  unmappedMemo.set(path, found ?? null);
  return found;
}

export const unmappedMemo = new Map<string, WindowsUnmapped | null>();

let unmappedHome: string | undefined;

/**
 * An authored entry the Windows plan leaves out: its path has no Windows
 * spelling (compiler/paths/windows.ts, the plan's own mapping). It applies
 * nowhere on Windows, so the model says so, not the views.
 */
export function windowsUnspelled(g: Grant, home: string): Mechanism | undefined {
  if (g.implicit || !g.path) return undefined;
  const why = windowsUnmapped(g.path, home);
  return !why
    ? undefined
    : {
        kind: 'no-windows-spelling',
        path: g.path,
        why: why.kind === 'outside-home' ? { kind: 'outside-home' } : { kind: 'name', problem: why.problem },
      };
}

/** Every platform: a grant written by the user (implicit ones name their own). */
export const everywhere: GrantAccess['applies'] = Object.freeze(byPlatform(() => true));
/** A grant written by the user whose path the Windows plan leaves out. */
export const notOnWindows: GrantAccess['applies'] = Object.freeze({ ...everywhere, windows: false });
