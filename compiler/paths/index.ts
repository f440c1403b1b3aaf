export type { Executable, FsView, Lookup } from './view.js';
export { noneView } from './view.js';
export { hostView } from './host.js';
export { manifestView, ManifestError } from './manifest.js';
export { inspectPath, resolvePath, type PathFacts, type Resolution } from './inspect.js';
export { expandHome, spellingProblems, normalise, macosCanonical, isUnder, controlCharacter } from './spelling.js';
export { protectedPaths, protectedHit, secretLocations, knownReadableLocations, expandTilde, type ProtectedPath } from './protected.js';
export { windowsNameProblem } from './windows-names.js';
