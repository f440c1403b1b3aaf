import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by the front end (compiler/json), not by a check. */
export const jsonSyntax = defineRule({
  meta: {
    id: 'json-syntax',
    seedRow: '(front end) sandbox-runtime and Claude Code settings must be JSON (RFC 8259)',
    dialects: ['srt', 'claude'],
    docs: {
      summary: 'A sandbox-runtime or Claude Code settings file is not valid JSON.',
      details:
        'boxwright parses settings files with its own strict JSON parser, so that every key and value keeps ' +
        'its exact position. What JSON.parse refuses (a trailing comma, a comment, single quotes, a byte ' +
        'order mark) is refused here too, at the token that holds the mistake. sandbox-runtime refuses such ' +
        'a file and runs nothing (dist/utils/config-loader.js, loadConfig: "is not valid JSON"; cli.js refuses ' +
        'to fall back to its defaults), so every verdict is refused.',
      bad: {
        toml: '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": [],},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: ['2:68 error macos,linux,windows'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    syntax: { severity: 'error', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});
