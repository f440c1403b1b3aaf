export type { Child, Executable, FsView, Lookup } from './view.js';
export { noneView } from './view.js';
export { hostView, type HostProbes } from './host.js';
export { manifestView, ManifestError } from './manifest.js';
export { inspectPath, longestPath, resolvePath, type PathFacts, type Resolution } from './inspect.js';
export {
  expandHome,
  expandTilde,
  spellingProblems,
  normalise,
  macosCanonical,
  isUnder,
  isStrictlyUnder,
  controlCharacter,
} from './spelling.js';
export {
  protectedPaths,
  protectedHit,
  secretLocations,
  knownReadableLocations,
  windowsSecretSpellings,
  type ProtectedPath,
  type WindowsSecretSpelling,
} from './protected.js';
export { toWindows, windowsNameProblem, windowsUnmapped, type WindowsMapping, type WindowsPath, type WindowsUnmapped } from './windows.js';
export {
  findHostTrusted,
  trustedByName,
  homePaths,
  projectNames,
  projectNameSet,
  trustedEntries,
  SEARCH_LIMIT,
  type BoxwrightInput,
  type HostTrustedInput,
  type HostTrustedPath,
  type TrustedEntry,
  type RootNames,
  type TrustedSearch,
  type UnsearchedTree,
  type WriteRoot,
} from './host-trusted.js';
export { linkedWorktree, type LinkedWorktree } from './git.js';
