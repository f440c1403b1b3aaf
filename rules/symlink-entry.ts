import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';
import { replaceString } from './engine/fix.js';

export const symlinkEntry = defineRule({
  meta: {
    id: 'symlink-entry',
    seedRow: "Box's platform table, row: Symbolic-link entries",
    docs: {
      summary: 'A path goes through a symbolic link.',
      details:
        'Box validates the actual path identity on both platforms and refuses an entry with a symbolic-link ' +
        'component, wherever in the path the link sits. Name the resolved target instead; the diagnostic names it.',
      bad: { toml: '[agent.filesystem]\nread = ["~/current"]  # ~/current -> ~/releases/v2', expect: ['2:9 error macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/releases/v2"]', expect: [] },
    },
  },
  messages: {
    link: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { written: string; link: string; resolved: string }) =>
        `\`${d.written}\` goes through the symbolic link ${d.link}; name the resolved target ${d.resolved}`,
      suggestion: (d: { resolved: string }) => `Name the resolved target ${d.resolved}.`,
    },
    loop: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { written: string; link: string }) =>
        `\`${d.written}\` goes through the symbolic link ${d.link}, and following the links never ends (a loop): it names no file`,
      suggestion: 'Fix the links on the machine, or name the real file or directory that the entry means.',
    },
  },
  entry(e, _pa, ctx) {
    const link = e.facts.symlink;
    if (link?.loop) ctx.report('loop', { span: e.span }, { written: e.written, link: link.link });
    else if (link)
      ctx.report(
        'link',
        { span: e.span, fix: replaceString(e.span, link.resolved) },
        { written: e.written, link: link.link, resolved: link.resolved },
      );
  },
});
