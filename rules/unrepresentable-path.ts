import { controlCharacter, longestPath } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { PLATFORMS, type Diagnostic } from '../compiler/diagnostic.js';
import type { PolicyIR } from '../compiler/ir/types.js';

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
        'A control character (U+0000–U+001F, U+007F) in a path is refused for macOS (it would end an SBPL ' +
        'string or line) and Windows (file names cannot hold it); U+0000 is refused everywhere. A path longer ' +
        'than Seatbelt accepts (about 1 KB) is refused for macOS, and one longer than PATH_MAX for Linux; ' +
        'one longer than any platform takes (32,767 characters, the limit of Windows extended-length paths) ' +
        'is refused for all three before the access model is built. Such a path is never emitted.',
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
    anyLength: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { length: number }) =>
        `path is ${d.length} characters long: no platform takes a path longer than ${longestPath} (Windows; ` +
        `Linux ${linuxMaxBytes} bytes, Seatbelt about ${seatbeltMaxBytes})`,
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

/**
 * The paths longer than any platform takes, found before the model is
 * built (app/check.ts stops there): the model asks about every ancestor of
 * a path, so a path of 60,000 components cost minutes; one this rule
 * refuses anyway is not worth them.
 */
export function pathsTooLong(ir: PolicyIR): Diagnostic[] {
  const out: Diagnostic[] = [];
  const message = unrepresentablePath.messages.anyLength;
  for (const p of ir.principals)
    for (const e of [...p.grants, ...(p.workspace ? [p.workspace] : [])]) {
      const length = Math.max(e.written.length, e.path?.length ?? 0);
      if (length > longestPath)
        out.push({
          ruleId: unrepresentablePath.meta.id,
          severity: message.severity,
          platforms: message.platforms,
          message: message.text({ length }),
          file: ir.file,
          span: e.span,
        });
    }
  return out;
}
