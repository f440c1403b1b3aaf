import type { Platform } from '../compiler/diagnostic.js';
import { controlCharacter } from '../compiler/paths/index.js';
import type { Rule } from './engine.js';
import { authoredEntries } from './paths.js';

/** sandbox-exec rejects string literals longer than about 1 KB. */
const seatbeltMaxBytes = 1024;
/** PATH_MAX, including the terminating NUL. */
const linuxMaxBytes = 4095;

export const unrepresentablePath: Rule = {
  meta: {
    id: 'unrepresentable-path',
    seedRow: 'Our lowerings: a path an artifact cannot hold',
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    docs: {
      summary: 'A path cannot be written into a platform\'s artifact.',
      details:
        'A control character (U+0000–U+001F, U+007F) in a path is refused for macOS (it would end an SBPL string or line) and Windows (file names cannot hold it); U+0000 is refused everywhere. A path longer than Seatbelt accepts (about 1 KB) is refused for macOS, and one longer than PATH_MAX for Linux. Such a path is never emitted.',
      bad: '[agent.filesystem]\nread = ["~/project\\nx"]',
      good: '[agent.filesystem]\nread = ["~/project"]',
    },
  },
  check(ctx) {
    for (const p of ctx.ir.principals) {
      for (const e of authoredEntries(p)) {
        const path = e.path ?? e.written;
        const control = controlCharacter(path);
        if (control) {
          const platforms: Platform[] = control === 'U+0000' ? ['macos', 'linux', 'windows'] : ['macos', 'windows'];
          ctx.report({ severity: 'error', platforms, message: `path ${JSON.stringify(path)} holds the control character ${control}: no artifact may hold it`, span: e.span });
        }
        const bytes = Buffer.byteLength(path, 'utf8');
        if (bytes > seatbeltMaxBytes)
          ctx.report({ severity: 'error', platforms: ['macos'], message: `path is ${bytes} bytes long: Seatbelt accepts string literals of about ${seatbeltMaxBytes} bytes at most`, span: e.span });
        if (bytes > linuxMaxBytes)
          ctx.report({ severity: 'error', platforms: ['linux'], message: `path is ${bytes} bytes long: Linux paths are at most ${linuxMaxBytes} bytes (PATH_MAX)`, span: e.span });
      }
    }
  },
};
