// Stand-in for `node:assert` inside the CLI bundle. yargs imports
// notStrictEqual and strictEqual for internal invariants only; importing
// node:assert from ESM loads about 25 ms of Node internals at every start.
// The real module is loaded only when an invariant actually fails.
import { createRequire } from 'node:module';

const load = () => createRequire(import.meta.url)('node:assert');

export function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected)) load().strictEqual(actual, expected, message);
}

export function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected)) load().notStrictEqual(actual, expected, message);
}
