import { platformsRefusing, platformsReporting } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf, removeFromList } from './engine/fix.js';
import { shown } from './util.js';

export const listWithoutContent = defineRule({
  meta: {
    id: 'list-without-content',
    seedRow: "Box's platform table, row: Directory names without content",
    dialects: ['box'],
    docs: {
      summary: '`list` (names without contents) cannot be lowered on Linux.',
      details:
        "macOS supports `list`: the directory's entry names are readable, their contents are not. Linux " +
        'mounts cannot provide this separation, so Linux refuses the entry. The alternative, `read`, exposes ' +
        'file contents: apply it only if that read access is acceptable, or use mediated directory access. ' +
        "A `list` of a file (or a socket) names something with no entry names of its own: reading a file's " +
        "data is reading its content, so the macOS profile gives the directory's entries only while the " +
        'path is a directory (`vnode-type DIRECTORY`), and of a file its properties alone (existence, size, ' +
        'dates); macOS warns.',
      bad: { toml: '[agent.filesystem]\nlist = ["~/inbox"]', expect: ['2:9 error linux'] },
      good: { toml: '[agent.filesystem]\nread = ["~/inbox"]  # only if content access is acceptable', expect: [] },
    },
  },
  messages: {
    refused: {
      severity: 'error',
      platforms: ['linux'],
      // The platform document's text, byte for byte.
      text: (d: { path: string }) =>
        `${d.path} cannot be listed without its contents on Linux: the namespace backend has no lowering for \`list\`; grant \`read\` instead`,
      suggestion:
        'Grant read only if content access is acceptable, or use mediated directory access. That suggested ' +
        'change exposes file contents. Apply it only if that read access is acceptable.',
    },
    file: {
      severity: 'warning',
      platforms: ['macos'],
      text: (d: { path: string }) =>
        `\`list\` names a file, ${d.path}: a file has no entry names of its own, so macOS gives its properties ` +
        `only (existence, size, dates), not its content; use \`read_file\` for its content`,
      suggestion: 'List the directory that holds the file, or grant `read_file` if its content may be read.',
    },
  },
  explains: {
    'names-without-content': () => 'Linux mounts cannot show names without contents',
    'names-of-a-file': () => 'a file has no entry names: macOS gives its properties only (existence, size, dates), not its content',
  },
  anyGrant(g, ga, pa, ctx) {
    const ofAFile = platformsReporting(ga.notes, 'names-of-a-file');
    if (ofAFile.length) ctx.report('file', { span: g.span, platforms: ofAFile }, { path: shown(g) });
    const refused = platformsRefusing(ga.effective, 'names-without-content');
    if (!refused.length) return;
    const fix = fixOf(addToList(pa.principal.written, pa.principal.grants, 'read', [g.written]), removeFromList(ctx.text, g.span));
    ctx.report('refused', { span: g.span, platforms: refused, fix }, { path: shown(g) });
  },
});
