import { PLATFORMS } from '../compiler/diagnostic.js';
import { defineRule } from './engine/engine.js';

/** Reported by the schema stage (compiler/schema) and dialect detection, not by a check. */
export const schema = defineRule({
  meta: {
    id: 'schema',
    seedRow: '(front end) the tables boxwright owns have a fixed shape',
    docs: {
      summary: 'A key or value does not fit the schema of the tables boxwright owns, or the dialect cannot be told.',
      details:
        'boxwright validates strictly the tables it owns: the filesystem and network tables, ' +
        '`contain_egress` and `[experimental-features]` of a Box config, and `[sandbox]` of a TYBA user ' +
        'config. An unknown key is an error at the key, with a did-you-mean suggestion and the rename as a ' +
        'fix (none when the key it would become is already written: TOML refuses a key defined twice); `lint ' +
        '--unsafe-fixes` applies it, never `--fix` alone, since a config with a schema error has no access ' +
        'model to judge the rename by; a value of the wrong type is an error at the value. Keys it does not ' +
        "own (a tool's command, a server's arguments) are passed over. A file that is both dialects, or " +
        'neither, is an error too (`--dialect` overrides). `boxwright schema` prints the JSON Schema for editors.',
      bad: { toml: '[agent.filesystem]\nreed = ["~/project"]', expect: ['2:1 error macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    invalid: { severity: 'error', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});
