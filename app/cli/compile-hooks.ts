/**
 * Each platform's part in `compile` beyond its target's artifacts, where
 * it has one: what the host trusts after the compile, a refusal before
 * anything is written, and files written after the artifacts (Linux: the
 * launchers). compile.ts asks the table for the platform it compiles for,
 * so it names none. Partial: a platform whose artifacts stand alone needs
 * no line here.
 */
import type { Platform } from '../../compiler/diagnostic.js';
import type { CompileHook } from './compile-types.js';
import { linuxCompileHook } from './compile-linux.js';

export const compileHooks: Readonly<Partial<Record<Platform, CompileHook>>> = {
  linux: linuxCompileHook,
};
