/**
 * The platforms, each a unit (targets/unit.ts), registered here once: one
 * entry a platform (ARCHITECTURE.md, "How to add a platform"). The type
 * checker names a platform of PLATFORMS that has no entry. The model asks
 * the units' model parts (`platformModels`, which app/check.ts hands to
 * effectiveAccess); compile loads a unit's emitter (targets/emit.ts), run
 * and doctor its run-time side (targets/run/load.ts).
 */
import { byPlatform, type Platform } from '../compiler/diagnostic.js';
import type { PlatformModels } from '../model/platform.js';
import { linuxUnit } from './linux/unit.js';
import { macosUnit } from './macos/unit.js';
import type { PlatformUnit } from './unit.js';
import { windowsUnit } from './windows/unit.js';

export type { PlatformUnit } from './unit.js';

export const platformUnits: Readonly<Record<Platform, PlatformUnit>> = {
  macos: macosUnit,
  linux: linuxUnit,
  windows: windowsUnit,
};

/** Every platform's model part, for effectiveAccess. */
export const platformModels: PlatformModels = byPlatform((platform) => platformUnits[platform].model);
