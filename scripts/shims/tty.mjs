// Stand-in for `node:tty` inside dist/cli/lint.cjs. `import { isatty } from
// 'node:tty'` loads tty, which loads net, the stream modules and their
// bindings at every start (~4 ms of CPU of a lint: bench/README.md, the
// descriptor writes of bin/boxwright.cjs), to answer a question fstat answers
// for what a hook or CI hands a lint: a pipe, a file, a socket, a directory
// or /dev/null is never a terminal. Any other descriptor (a character
// device: a terminal, or not) is asked of the real isatty, loaded then; so
// is every one on Windows. The answers are node:tty's (test/cli/startup-budget.test.ts).
// A bundled module that imports another name fails the build ("No matching
// export"): add it here.
import { fstatSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

let real;
const load = () => (real ??= createRequire(import.meta.url)('node:tty'));
let devNull;

export function isatty(fd) {
  if (process.platform !== 'win32') {
    try {
      const s = fstatSync(fd);
      if (s.isFIFO() || s.isFile() || s.isSocket() || s.isDirectory()) return false;
      if (s.isCharacterDevice() && s.rdev === (devNull ??= statSync('/dev/null').rdev)) return false;
    } catch {
      // not an open descriptor, or no /dev/null: the real isatty answers
    }
  }
  return load().isatty(fd);
}
