/**
 * A platform's emitter, loaded when compile asks: its unit's entry,
 * `targets/<os>/index.ts`, exports `target` (targets/unit.ts). Found by the
 * folder's name, so a new platform's emitter needs no line here; one that
 * has none, or one for another platform, is refused loudly.
 */
import type { Platform } from '../compiler/diagnostic.js';
import type { Target } from './target.js';

export async function emitterOf(platform: Platform): Promise<Target> {
  const entry = (await import(`./${platform}/index.js`)) as { readonly target?: Target };
  if (entry.target?.platform !== platform)
    throw new Error(`targets/${platform}/index.ts exports no \`target\` for ${platform} (targets/unit.ts)`);
  return entry.target;
}
