import type { Platform } from '../compiler/diagnostic.js';
import type { Target } from './target.js';

/** Each platform's emitter, loaded only when asked for: every platform has one (the type checker names a missing one). */
export const targetLoaders: Readonly<Record<Platform, () => Promise<Target>>> = {
  macos: async () => (await import('./macos/index.js')).macosTarget,
  linux: async () => (await import('./linux/index.js')).linuxTarget,
  windows: async () => (await import('./windows/index.js')).windowsTarget,
};
