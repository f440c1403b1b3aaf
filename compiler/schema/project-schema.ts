// The JSON Schema of the project file, `.boxwright.toml` (issue 40), as
// data: scripts/gen-validators.mjs compiles it ahead of time (ajv
// standalone, its own module, so that the configs' validators do not grow),
// `boxwright schema --dialect project` prints it, and
// docs/schema/boxwright-project.schema.json is this, published for editors
// (a test holds the two equal). Kept apart from schemas.ts: a lint loads it
// only with the project file's validator.
import type { JsonSchema } from './schemas.js';

const platformNames = ['macos', 'linux', 'windows'];

export const projectSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'boxwright project file (.boxwright.toml)',
  description:
    "A repository's boxwright settings, found upward from each linted config and no further than the " +
    "repository's root (the directory holding `.git`): ignores that silence a rule's warnings and infos " +
    'in the configs a path glob names, each with its reason and an optional expiry, and the defaults of ' +
    '`boxwright lint` (a command-line flag wins). An unknown key is an error.',
  type: 'object',
  additionalProperties: false,
  properties: {
    platforms: {
      type: 'array',
      description: 'The platforms `boxwright lint` checks when `--platform` is not given (all three by default).',
      items: { type: 'string', enum: platformNames },
      minItems: 1,
      examples: [['linux', 'macos']],
    },
    'max-warnings': {
      type: 'integer',
      minimum: 0,
      description: '`boxwright lint` exits 1 when there are more warnings than this, unless `--max-warnings` says otherwise.',
      examples: [0],
    },
    ignore: {
      type: 'array',
      description:
        "Findings a team has accepted. Each silences one rule's warnings and infos in the configs its path " +
        'glob names; an error is never silenced (the platform refuses the config whatever the file says). An ' +
        "ignore that has expired, or that silenced nothing in a config it names, is reported as the `suppression` rule's warning.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['rule', 'path', 'reason'],
        properties: {
          rule: { type: 'string', description: 'The rule id (`boxwright rules` lists them).', examples: ['deny-file-substitution'] },
          path: {
            type: 'string',
            description:
              'A glob of config files, relative to the directory of this file, with `/` separators: `*` (within a ' +
              'name), `**` (any depth), `?`, `[…]`. No absolute path, no `..`.',
            examples: ['.claude/settings.json', 'sandbox/**/*.toml'],
          },
          reason: {
            type: 'string',
            pattern: '\\S',
            description: 'Why the finding is acceptable: required, and shown to whoever reads the file next.',
            examples: ['the tool treats an empty .env as unset'],
          },
          expires: {
            type: 'string',
            format: 'date',
            description:
              'A TOML local date (`expires = 2027-03-31`, no quotes): from that day (UTC) the ignore silences ' +
              'nothing and is reported, so that an accepted risk is looked at again.',
            examples: ['2027-03-31'],
          },
        },
      },
    },
  },
};
