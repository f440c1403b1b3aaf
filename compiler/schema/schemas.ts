// The JSON Schemas of both dialects and of the --fs manifest, as data.
// scripts/gen-validators.mjs compiles them ahead of time (ajv standalone);
// `boxwright schema` prints them; the mapping of ajv errors to TOML spans
// reads their property names for did-you-mean suggestions.

/** A JSON Schema node; kept loose on purpose: this file is data. */
export type JsonSchema = { readonly [key: string]: unknown };

const pathList = (description: string, examples: unknown[]): JsonSchema => ({
  type: 'array',
  description,
  items: {
    type: 'string',
    description:
      'An absolute path, or one starting with `~/` (expanded to --home). Canonical spelling: no `.`, `..`, `//`, trailing slash or symbolic-link component.',
  },
  examples,
});

const filesystemTable = (who: string): JsonSchema => ({
  type: 'object',
  description: `What ${who} may read, write, list and execute. boxwright owns this table: an unknown key is an error.`,
  additionalProperties: false,
  properties: {
    read: pathList('Read-only subtrees (content reads, no writes).', [['~/project']]),
    write: pathList(
      'Write subtrees. On Linux a write is read-write and must be fully covered by `read` or `read_file`; ' +
        'macOS gives write-only access where no read covers it.',
      [['~/project/output']],
    ),
    read_file: pathList('Exact files readable (read-only). A read_file never covers a directory named in `write`.', [
      ['~/results/output.txt'],
    ]),
    write_file: pathList('Exact files writable. Combine with the same path in `read_file` for read-write access to one file.', [
      ['~/results/output.txt'],
    ]),
    list: pathList('Directories whose entry names are visible without their contents (macOS only; Linux refuses).', [['~/inbox']]),
    deny: pathList('Paths refused inside granted trees. Linux needs them to exist; macOS also refuses paths created later.', [
      ['~/project/.env'],
    ]),
    metadata: pathList(
      'Trees whose file properties (existence, size, dates) are visible without contents. Agent only: tools refuse the field; Linux supplies no metadata tree.',
      [['~/archive']],
    ),
    exec: pathList("Executables the agent may run (an execution grant; it does not satisfy Linux's read requirement).", [['/usr/bin/git']]),
    workspace: { type: 'string', description: 'The initial working directory. It grants no content by itself.', examples: ['~/work'] },
    private_tmp: {
      type: 'boolean',
      description:
        "A temp directory of the sandbox's own, never the host's shared one: Linux a private tmpfs at /tmp " +
        '(TMPDIR=/tmp), macOS a directory `boxwright run` makes for the run (TMPDIR, a Seatbelt write grant), ' +
        'Windows a Low directory apply.ps1 makes for the run (TMP, TEMP). Empty at start, discarded at the ' +
        'end. Default `false`: an ungranted /tmp stays absent on Linux.',
      examples: [true],
    },
  },
});

const networkTable = (who: 'agent' | 'tool'): JsonSchema => ({
  type: 'object',
  description:
    who === 'agent'
      ? 'Refused on every platform: the agent routes its network through the gateway. Admitted by the schema so that the `agent-network-table` rule reports it.'
      : 'Its presence is a direct network exception: the tool bypasses gateway policy (Linux shares the ' +
        'surrounding network namespace). boxwright knows no keys inside it; an unknown key is an error.',
  additionalProperties: false,
  properties: {},
  examples: [{}],
});

/**
 * What a principal's table admits besides the tables boxwright owns: the
 * host product's own keys (a command, arguments) are passed over, but not
 * a table, which would be a misspelt or unknown sandbox table
 * (`[agent.filesytem]` granted nothing, silently).
 */
const hostKeys = (where: string): JsonSchema => ({
  not: { type: 'object' },
  description: `A key of the host product's in ${where}, passed over. A table here is an error: the tables boxwright reads are listed above.`,
});

/** Tool and server names name artifact files: no `/`, no `..`, nothing a file system treats specially. */
const principalName: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$' };

export const boxSchema: JsonSchema & { properties: Record<string, JsonSchema> } = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://boxwright.dev/schema/box.json',
  title: "boxwright: Box sandbox configuration (Box's platform table)",
  description:
    'An agent, its tools and its local MCP servers: what each may read, write, list, execute and reach. ' +
    'Keys outside the filesystem and network tables, contain_egress and [experimental-features] belong ' +
    'to the host product and are passed over.',
  type: 'object',
  properties: {
    agent: {
      type: 'object',
      description:
        "The agent. Keys other than `filesystem` and `network` are not boxwright's and are passed over; an unknown table is an error.",
      properties: { filesystem: filesystemTable('the agent'), network: networkTable('agent') },
      additionalProperties: hostKeys('[agent]'),
      examples: [{ filesystem: { read: ['~/project'], write: ['~/project/output'] } }],
    },
    tools: {
      type: 'object',
      description:
        'Explicitly declared tools, by name. Each runs in its own sandbox. A name starts with a letter or ' +
        'digit and holds only letters, digits, `_`, `-` and `.`: it names the artifact files (`tool.NAME.sb`).',
      propertyNames: principalName,
      additionalProperties: {
        type: 'object',
        description:
          'One tool. Keys other than `filesystem` and `network` (its command, arguments…) are passed over; an unknown table is an error.',
        properties: { filesystem: filesystemTable('this tool'), network: networkTable('tool') },
        additionalProperties: hostKeys("a tool's table"),
        examples: [{ filesystem: { read: ['~/project'] } }],
      },
      examples: [{ formatter: { filesystem: { read: ['~/project'] } } }],
    },
    mcp_servers: {
      type: 'object',
      description:
        'Local MCP (Model Context Protocol) servers, by name. Each runs in its own sandbox. Names follow the same rule as tool names (`mcp.NAME.sb`).',
      propertyNames: principalName,
      additionalProperties: {
        type: 'object',
        description:
          'One local MCP server. Keys other than `filesystem` and `contain_egress` are passed over; an unknown table is an error.',
        additionalProperties: hostKeys("a server's table"),
        properties: {
          contain_egress: {
            type: 'boolean',
            description: '`false` is a direct network exception: the server bypasses gateway policy. Default `true`.',
            examples: [false],
          },
          filesystem: filesystemTable('this server'),
        },
        examples: [{ contain_egress: false, filesystem: { read: ['~/index'] } }],
      },
      examples: [{ search: { filesystem: { read: ['~/index'] } } }],
    },
    'experimental-features': {
      type: 'object',
      description: 'Experimental features of the host product. boxwright owns this table: an unknown key is an error.',
      additionalProperties: false,
      properties: {
        'native-filesystem-policy': {
          type: 'boolean',
          description: 'Native filesystem policy: needs macOS and a build with the feature; Linux refuses it.',
          examples: [true],
        },
      },
      examples: [{ 'native-filesystem-policy': true }],
    },
  },
};

export const tybaSchema: JsonSchema & { properties: Record<string, JsonSchema> } = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://boxwright.dev/schema/tyba.json',
  title: "boxwright: TYBA user configuration (TYBA's platforms page)",
  description: "A TYBA user config. Only its [sandbox] table is boxwright's; the rest of the file is passed over.",
  type: 'object',
  properties: {
    sandbox: {
      type: 'object',
      description: 'The session sandbox. boxwright owns this table: an unknown key is an error.',
      additionalProperties: false,
      properties: {
        read_allow: pathList(
          'Extra paths the agent may read on macOS and Linux. Inert on Windows (reads are open there). Cannot ' +
            're-open a listed secret on macOS; on Linux it would expose it.',
          [['~/datasets']],
        ),
      },
      examples: [{ read_allow: ['~/datasets'] }],
    },
  },
};

/** For editors: one schema that completes either dialect. */
export const editorSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://boxwright.dev/schema/boxwright.json',
  title: 'boxwright sandbox configuration (Box or TYBA dialect)',
  description:
    'Box configs use agent / tools / mcp_servers / experimental-features; TYBA user configs use [sandbox]. A file uses one dialect, not both.',
  type: 'object',
  properties: { ...boxSchema.properties, ...tybaSchema.properties },
  // Not both dialects: a [sandbox] table beside any Box table.
  not: {
    required: ['sandbox'],
    anyOf: (['agent', 'tools', 'mcp_servers', 'experimental-features'] as const).map((k) => ({ required: [k] })),
    description: 'A file is a Box config or a TYBA user config, not both: [sandbox] beside a Box table is an error (split the file).',
  },
};

/** The --fs manifest: a machine described as data. */
export const manifestSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://boxwright.dev/schema/fs-manifest.json',
  title: 'boxwright filesystem manifest (--fs FILE.json)',
  description:
    'A machine described as data, so a config can be linted reproducibly for a machine boxwright is ' +
    'not running on. Every path not listed (and not a parent of a listed path) is absent.',
  type: 'object',
  required: ['home', 'entries'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    description: { type: 'string', description: 'Free text.' },
    home: { type: 'string', pattern: '^/', description: 'The home directory `~` expands to.', examples: ['/home/dev'] },
    landlockAbi: {
      type: 'integer',
      minimum: 0,
      description:
        "The kernel's Landlock ABI (`boxwright doctor` prints it; 0: no Landlock). The Linux lowering needs " +
        'Landlock to keep agent read trees non-executable; without this field it is unknown.',
      examples: [7],
    },
    arch: {
      enum: ['x86_64', 'aarch64'],
      description: "The machine's architecture: its programs' (`elf` entries) and its loader cache's. Default x86_64.",
    },
    ldCache: {
      type: 'object',
      description:
        "The dynamic loader's cache (/etc/ld.so.cache, as `ldconfig -p` lists it): soname → the path the " +
        'loader opens. Without it, what the loader finds through its cache is unknown.',
      propertyNames: { pattern: '^[^/]+$' },
      additionalProperties: { type: 'string', pattern: '^/' },
      examples: [{ 'libc.so.6': '/lib/x86_64-linux-gnu/libc.so.6' }],
    },
    path: {
      type: 'array',
      description:
        'PATH on that machine, which `boxwright run` passes to the sandbox: where a command name (a `#!/usr/bin/env ' +
        "node` script's `node`) is looked up. Without it, unknown.",
      items: { type: 'string', pattern: '^/' },
      examples: [['/usr/local/bin', '/usr/bin', '/bin']],
    },
    entries: {
      type: 'object',
      description: 'Absolute path → its kind. Parents of listed paths are directories.',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        anyOf: [
          {
            enum: ['file', 'dir', 'socket'],
            description: '`socket`: a unix socket bound at this path (a listening daemon: docker, a database, an agent).',
          },
          {
            type: 'object',
            required: ['symlink'],
            additionalProperties: false,
            properties: {
              symlink: {
                type: 'string',
                description: "The link target as readlink(2) returns it (absolute or relative to the link's directory).",
              },
            },
          },
          {
            type: 'object',
            required: ['text'],
            additionalProperties: false,
            properties: {
              text: {
                type: 'string',
                description:
                  'A regular file with this content (at most 4096 bytes): for the few files boxwright reads to know ' +
                  "where git looks, a `.git` file's `gitdir: PATH` line and a git directory's `commondir`.",
              },
            },
          },
          {
            type: 'object',
            required: ['elf'],
            additionalProperties: false,
            description:
              'A file that is an ELF program or library: what its loader reads (`readelf -l -d` shows it). A `file` ' +
              'entry records no program: what executing it needs is then unknown.',
            properties: {
              elf: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  interpreter: { type: 'string', pattern: '^/', description: 'PT_INTERP: its dynamic loader. Absent: a static program.' },
                  needed: {
                    type: 'array',
                    items: { type: 'string', pattern: '.' },
                    description: 'DT_NEEDED: the libraries it names, in order.',
                  },
                  runpath: {
                    type: 'array',
                    items: { type: 'string', pattern: '.' },
                    description: 'DT_RUNPATH, split at `:` (`$ORIGIN` kept).',
                  },
                  rpath: { type: 'array', items: { type: 'string', pattern: '.' }, description: 'DT_RPATH, split at `:`.' },
                },
              },
            },
          },
          {
            type: 'object',
            required: ['script'],
            additionalProperties: false,
            properties: { script: { type: 'string', description: 'A script: its #! line without the #! (`/usr/bin/env node`).' } },
          },
        ],
      },
      examples: [
        {
          '/home/dev/project': 'dir',
          '/home/dev/.bashrc': 'file',
          '/home/dev/current': { symlink: 'project' },
          '/usr/bin/git': { elf: { interpreter: '/lib64/ld-linux-x86-64.so.2', needed: ['libc.so.6'] } },
        },
      ],
    },
  },
};
