import { controlCharacter } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { PLATFORMS } from '../compiler/diagnostic.js';

/** sandbox-exec rejects string literals longer than about 1 KB. */
const seatbeltMaxBytes = 1024;
/** PATH_MAX, including the terminating NUL. */
const linuxMaxBytes = 4095;

export const unrepresentablePath = defineRule({
  meta: {
    id: 'unrepresentable-path',
    seedRow: 'Our lowerings: a path an artifact cannot hold',
    docs: {
      summary: "A path cannot be written into a platform's artifact.",
      details:
        'A control character (U+0000–U+001F, U+007F) in a path is refused for macOS (it would end an SBPL string or line) and Windows (file names cannot hold it); U+0000 is refused everywhere. A path longer than Seatbelt accepts (about 1 KB) is refused for macOS, and one longer than PATH_MAX for Linux. Such a path is never emitted.',
      bad: { toml: '[agent.filesystem]\nread = ["~/project\\nx"]', expect: ['2:9 error macos,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    control: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { path: string; control: string }) =>
        `path ${JSON.stringify(d.path)} holds the control character ${d.control}: no artifact may hold it`,
    },
    seatbeltLength: {
      severity: 'error',
      platforms: ['macos'],
      text: (d: { bytes: number }) =>
        `path is ${d.bytes} bytes long: Seatbelt accepts string literals of about ${seatbeltMaxBytes} bytes at most`,
    },
    linuxLength: {
      severity: 'error',
      platforms: ['linux'],
      text: (d: { bytes: number }) => `path is ${d.bytes} bytes long: Linux paths are at most ${linuxMaxBytes} bytes (PATH_MAX)`,
    },
  },
  entry(e, _pa, ctx) {
    const path = e.path ?? e.written;
    const control = controlCharacter(path);
    // A NUL ends a C string on every platform; other control characters only an SBPL literal and a Windows name.
    if (control)
      ctx.report('control', { span: e.span, platforms: control === 'U+0000' ? PLATFORMS : ['macos', 'windows'] }, { path, control });
    const bytes = Buffer.byteLength(path, 'utf8');
    if (bytes > seatbeltMaxBytes) ctx.report('seatbeltLength', { span: e.span }, { bytes });
    if (bytes > linuxMaxBytes) ctx.report('linuxLength', { span: e.span }, { bytes });
  },
});
