/**
 * What a platform is (issue 38: the platform is the unit): one folder,
 * targets/<os>/, in parts tagged by the stage they belong to, and one entry
 * in the registry (targets/units.ts). ARCHITECTURE.md, "How to add a
 * platform".
 *
 * - What it decides, `targets/<os>/model/` (the model stage): the
 *   PlatformModel the generic model asks for each cell, mechanism and
 *   carve-out, and (Linux) the plan its emitter spells. Named here: every
 *   command needs it, a lint too.
 * - What it writes, the rest of `targets/<os>/` (the targets stage): pure
 *   renderers of the model; its entry `targets/<os>/index.ts` exports
 *   `target`, loaded by its folder's name when compile asks
 *   (targets/emit.ts).
 * - How it runs, `targets/<os>/run/` (the app stage): `run/runner.ts`
 *   exports `runner`, `run/doctor.ts` `doctor`, each loaded by its folder's
 *   name when run or doctor asks (targets/run/load.ts), where `system` says
 *   it runs.
 *
 * The emitter and the runner are found by the folder's name, not named
 * here: a runner compiles its config through app/cli, which reads this
 * registry, so a registry that named the runner would be an import cycle
 * (test/architecture.test.ts reads a template `import()` as an import of
 * every file it can name, and holds the stages and cycles on those too).
 */
import type { PlatformModel } from '../model/platform.js';

export interface PlatformUnit {
  readonly model: PlatformModel;
  /** The operating system (Node's `process.platform`) its sandbox runs on, where boxwright runs commands in it; absent: it runs none. */
  readonly system?: NodeJS.Platform;
}
