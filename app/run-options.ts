/**
 * `run`'s command line as data: the one table both its parsers read, the
 * full CLI (yargs: app/cli/yargs-io.ts's config options, app/cli/main.ts's
 * run command) and the fast path (targets/linux/run/run-fast.ts, which
 * loads no yargs and reads only the plainest spellings). An option added
 * here is known to both; test/cli/run-fast-parse.test.ts checks that a
 * command line the fast path reads is the request the full CLI makes of
 * it. Outside app/cli and with no import: the fast path's bundle holds no
 * CLI code (test/linux/run-fast-bundle.test.ts).
 */

/** One option: its yargs definition as written, and what the fast path needs of it. */
export interface OptionSpec {
  readonly name: string;
  /** A one-letter spelling (`-p`). */
  readonly alias?: string;
  readonly type?: 'string' | 'number' | 'boolean';
  readonly choices?: readonly string[];
  /** yargs' `array: true, nargs: 1`: one value a time, repeatable. */
  readonly list?: true;
  /** Given more than once, its values add up (yargs makes an array of a repeated string too). */
  readonly repeatable?: true;
  readonly default?: string | boolean;
  readonly describe: string;
}

/** The options every command that reads a config shares (`fs` to `landlock`). */
export const CONFIG_OPTIONS: readonly OptionSpec[] = [
  { name: 'fs', type: 'string', describe: 'filesystem facts: host (the real disk), none (unknown), or a manifest FILE.json' },
  { name: 'home', type: 'string', describe: "where ~ points (default: your home, or the manifest's)" },
  {
    name: 'dialect',
    choices: ['box', 'tyba', 'srt', 'claude', 'codex', 'cursor', 'vscode'],
    describe:
      'override dialect detection (srt: sandbox-runtime settings, claude: Claude Code settings, codex: ' +
      "Codex's config.toml, cursor: Cursor's sandbox.json, vscode: VS Code settings)",
  },
  {
    name: 'worktree',
    type: 'string',
    describe:
      'TYBA: the session worktree; sandbox-runtime and Claude Code settings: the directory the command runs in ' +
      '(default: the current directory)',
  },
  { name: 'tyba-data-dir', type: 'string', describe: 'TYBA: its data directory (default ~/.tyba)' },
  { name: 'agent-dir', type: 'string', repeatable: true, describe: "TYBA: the agent's own directories (repeatable)" },
  {
    name: 'landlock',
    choices: ['on', 'off'],
    describe:
      'Linux: confine execution with Landlock (on, the default: read trees are not executable) or with ' +
      'the mounts alone (off: read trees executable; for a kernel without Landlock)',
  },
];

/** `run`'s own options, after the config options. */
export const RUN_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'principal',
    alias: 'p',
    type: 'string',
    default: 'agent',
    describe:
      'whose sandbox: agent, tool.NAME or mcp.NAME (tool:NAME, mcp:NAME too); a tool or server with no ' +
      'command after -- runs its configured command and args',
  },
  {
    name: 'pass-env',
    type: 'string',
    list: true,
    repeatable: true,
    describe: 'let this environment variable into the sandbox (repeatable; only a short allowlist passes by default)',
  },
  {
    name: 'pass-fd',
    type: 'number',
    list: true,
    repeatable: true,
    describe: 'let this open descriptor (above 2) through to the command (repeatable; every other inherited one is closed)',
  },
  {
    name: 'gateway-socket',
    type: 'string',
    describe: "Linux: the host product's gateway socket to bind into sandboxes without direct network",
  },
  {
    name: 'bwrap',
    type: 'string',
    describe:
      'Linux: the bubblewrap to run (default: BOXWRIGHT_BWRAP, else `bwrap` in the PATH directories outside ' +
      'your home); recorded in the launch, never looked up at run time',
  },
  {
    name: 'verbose',
    alias: 'v',
    type: 'boolean',
    default: false,
    describe: 'print the bubblewrap command, the withheld variables and the closed descriptors',
  },
];

/** Every option `run` takes, config options first. */
export const ALL_RUN_OPTIONS: readonly OptionSpec[] = [...CONFIG_OPTIONS, ...RUN_OPTIONS];

/** The spellings of `run`'s options that take a value (each name and alias), for a parser without yargs. */
export const RUN_VALUED: ReadonlySet<string> = new Set(
  ALL_RUN_OPTIONS.filter((o) => o.type !== 'boolean').flatMap((o) => (o.alias ? [o.name, o.alias] : [o.name])),
);

/** The options whose values add up when given more than once; any other given twice is the full CLI's to judge. */
export const RUN_REPEATABLE: ReadonlySet<string> = new Set(ALL_RUN_OPTIONS.filter((o) => o.repeatable).map((o) => o.name));

/** An option as yargs takes it (the fields it reads, no more). */
export function yargsOption(o: OptionSpec): Record<string, unknown> {
  return {
    ...(o.alias ? { alias: o.alias } : {}),
    ...(o.type ? { type: o.type } : {}),
    ...(o.choices ? { choices: [...o.choices] } : {}),
    ...(o.list ? { array: true, nargs: 1 } : {}),
    ...(o.default !== undefined ? { default: o.default } : {}),
    describe: o.describe,
  };
}
