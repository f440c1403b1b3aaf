import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by the settings schema (compiler/schema/validate-json.ts) from the parser's duplicates, not by a check. */
export const duplicateKey = defineRule({
  meta: {
    id: 'duplicate-key',
    seedRow: '(front end) JSON.parse keeps the last of a key written twice',
    dialects: ['srt', 'claude'],
    docs: {
      summary: 'A key written twice in one JSON object: the tool sees only the last one.',
      details:
        'RFC 8259 leaves duplicate names to the reader, and JSON.parse (which both sandbox-runtime and ' +
        'Claude Code read their settings with) keeps the last value without a word. A `denyRead` written ' +
        'twice loses the first list. A warning at the ignored key, with the one that takes effect as ' +
        "related. Merging the two is the author's to do, since either may be the one meant; only when the " +
        'ignored definition says nothing the kept one does not (the same value, or a list each of whose ' +
        'items the kept one lists) is its removal offered as a fix, which `lint --fix` applies: what the tool reads stays the same.',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": [], "denyWrite": [], "denyRead": []},\n' +
          '  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:18 warning macos,linux,windows'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    duplicate: { severity: 'warning', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});
