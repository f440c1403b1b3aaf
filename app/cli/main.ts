import yargs from 'yargs';
import type { Argv } from 'yargs';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { didYouMean } from '../../compiler/schema/did-you-mean.js';
import { version } from '../../compiler/version.js';
import { formatNames, type FormattedCommand } from '../format/registry.js';
import { UsageError } from './options.js';

/**
 * One yargs parser per command. The command is picked from the first
 * argument before yargs runs, because a yargs `.command()` renders the
 * command's whole help text on every run (to cache it), which costs more
 * start-up time than linting a config. Each command's module is imported
 * only when it runs.
 */
export interface Command {
  readonly usage: string;
  readonly describe: string;
  readonly options: (y: Argv) => Argv;
  readonly run: (args: Record<string, unknown>) => Promise<number>;
}

const fsOptions = (y: Argv): Argv =>
  y
    .option('fs', { type: 'string', describe: 'filesystem facts: host (the real disk), none (unknown), or a manifest FILE.json' })
    .option('home', { type: 'string', describe: "where ~ points (default: your home, or the manifest's)" })
    .option('dialect', {
      choices: ['box', 'tyba', 'srt', 'claude', 'codex', 'cursor', 'vscode'],
      describe:
        "override dialect detection (srt: sandbox-runtime settings, claude: Claude Code settings, codex: Codex's config.toml, cursor: Cursor's sandbox.json, vscode: VS Code settings)",
    })
    .option('worktree', {
      type: 'string',
      describe:
        'TYBA: the session worktree; sandbox-runtime and Claude Code settings: the directory the command runs in (default: the current directory)',
    })
    .option('tyba-data-dir', { type: 'string', describe: 'TYBA: its data directory (default ~/.tyba)' })
    .option('agent-dir', { type: 'string', describe: "TYBA: the agent's own directories (repeatable)" })
    .option('landlock', {
      choices: ['on', 'off'],
      describe:
        'Linux: confine execution with Landlock (on, the default: read trees are not executable) or with the mounts alone (off: read trees executable; for a kernel without Landlock)',
    });

/** `--format`: the command's formats from the one table (app/format/registry.ts), its first the default. */
const formatOption = (command: FormattedCommand) => {
  const choices = formatNames(command);
  return { alias: 'f', choices, default: choices[0], describe: 'output format' } as const;
};

const platformOption = {
  type: 'string',
  describe: 'check only these platforms, comma-separated or repeated: macos,linux,windows (the others get no verdict)',
} as const;
const configPositional = { type: 'string', describe: 'the config file (- reads it from standard input)' } as const;

const commands: Record<string, Command> = {
  lint: {
    usage: 'lint [files..]',
    describe: 'check configs and print per-platform diagnostics and verdicts',
    options: (y) =>
      fsOptions(y)
        .positional('files', {
          type: 'string',
          array: true,
          describe:
            'config files, directories and globs (the sandbox configs they hold); - for standard input; with none, standard input unless it is a terminal',
        })
        .option('format', formatOption('lint'))
        .option('platform', platformOption)
        .option('max-warnings', { type: 'string', describe: 'exit 1 when there are more warnings than this (a whole number)' })
        .option('only-configs', {
          type: 'boolean',
          default: false,
          describe:
            'pass over files that are not sandbox configs (no Box, TYBA, sandbox-runtime or Claude Code keys), without a finding: for hooks that pass every .toml and .json (what a directory or a glob finds is always chosen so)',
        })
        .option('quiet', {
          alias: 'q',
          type: 'boolean',
          default: false,
          describe: 'report errors only (verdicts, the exit status and --max-warnings still count warnings)',
        })
        .option('verbose', {
          alias: 'v',
          type: 'boolean',
          default: false,
          describe: 'list every "depends on the machine" info (text format), instead of one line per file',
        }),
    run: async (args) => (await import('./lint.js')).lintCommand(args),
  },
  compile: {
    usage: 'compile <config>',
    describe: 'compile a config into the artifacts one platform enforces',
    options: (y) =>
      fsOptions(y)
        .positional('config', configPositional)
        .option('target', { alias: 't', choices: [...PLATFORMS], demandOption: true, describe: 'the platform to compile for' })
        .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'the output directory' })
        .option('force', {
          type: 'boolean',
          default: false,
          describe: 'write artifacts even for a refused verdict (they say so at the top)',
        })
        .option('gateway-port', { type: 'number', describe: "macOS: the host product's gateway port on loopback (default 8080)" })
        .option('gateway-socket', {
          type: 'string',
          describe: "Linux: the host product's gateway socket to bind into sandboxes without direct network",
        })
        .option('bwrap', {
          type: 'string',
          describe:
            'Linux: the bubblewrap to run (default: BOXWRIGHT_BWRAP, else `bwrap` in the PATH directories outside your home); recorded in the launch, never looked up at run time',
        }),
    run: async (args) => (await import('./compile.js')).compileCommand(args),
  },
  explain: {
    usage: 'explain <config>',
    describe: 'what each platform gives each principal, grant by grant, and why it differs',
    options: (y) =>
      fsOptions(y).positional('config', configPositional).option('format', formatOption('explain')).option('platform', platformOption),
    run: async (args) => (await import('./explain.js')).explainCommand(args),
  },
  run: {
    usage: 'run <config> -- <cmd> [args..]',
    describe:
      'run a command inside the sandbox a config compiles to on this machine: boxwright run CONFIG [--principal P] [-- CMD [ARGS..]]',
    options: (y) =>
      fsOptions(y)
        .positional('config', { type: 'string', describe: 'the config file' })
        .positional('cmd', {
          type: 'string',
          describe: 'after --: the command to run in the sandbox, with its arguments (passed verbatim)',
        })
        .option('principal', {
          alias: 'p',
          type: 'string',
          default: 'agent',
          describe:
            'whose sandbox: agent, tool.NAME or mcp.NAME (tool:NAME, mcp:NAME too); a tool or server with no command after -- runs its configured command and args',
        })
        .option('pass-env', {
          type: 'string',
          array: true,
          nargs: 1,
          describe: 'let this environment variable into the sandbox (repeatable; only a short allowlist passes by default)',
        })
        .option('pass-fd', {
          type: 'number',
          array: true,
          nargs: 1,
          describe: 'let this open descriptor (above 2) through to the command (repeatable; every other inherited one is closed)',
        })
        .option('gateway-socket', {
          type: 'string',
          describe: "Linux: the host product's gateway socket to bind into sandboxes without direct network",
        })
        .option('bwrap', {
          type: 'string',
          describe:
            'Linux: the bubblewrap to run (default: BOXWRIGHT_BWRAP, else `bwrap` in the PATH directories outside your home); recorded in the launch, never looked up at run time',
        })
        .option('verbose', {
          alias: 'v',
          type: 'boolean',
          default: false,
          describe: 'print the bubblewrap command, the withheld variables and the closed descriptors',
        }),
    run: async (args) => (await import('./run.js')).runCommand(args),
  },
  learn: {
    usage: 'learn -- <cmd> [args..]',
    describe:
      'run a command once in a throw-away copy of this machine, traced, and write the least-privilege config it needed: boxwright learn [--out FILE] -- CMD [ARGS..]',
    options: (y) =>
      fsOptions(y)
        .positional('cmd', { type: 'string', describe: 'after --: the command to learn from, with its arguments (passed verbatim)' })
        .option('out', {
          alias: 'o',
          type: 'string',
          describe: 'write the config here (learning into an existing config adds only what it lacks); without it, to standard output',
        })
        .option('principal', {
          alias: 'p',
          type: 'string',
          default: 'agent',
          describe: 'whose grants: agent, tool.NAME or mcp.NAME (tool:NAME, mcp:NAME too)',
        })
        .option('network', {
          type: 'boolean',
          default: false,
          describe: 'let the command reach the network while learning (the destinations are reported, never granted)',
        })
        .option('timeout', {
          type: 'string',
          describe: 'end the command after this many seconds (what it learned is written, marked incomplete; exit 124)',
        })
        .option('max-trace', {
          type: 'string',
          describe:
            'stop the command when its trace reaches this size (K, M, G; default 256M; what it learned is written, marked incomplete; exit 124)',
        })
        .option('max-events', {
          type: 'string',
          describe: 'read at most this many traced calls back (default 500000; more marks what it learned incomplete)',
        })
        .option('max-writes', {
          type: 'string',
          describe: 'stop the command when it has written this much into the throw-away root (K, M, G; default 1G; as --max-trace)',
        })
        .option('check', {
          type: 'boolean',
          default: false,
          describe: 'then run the command again under the learned config, through boxwright run, and report what still fails',
        })
        .option('pass-env', {
          type: 'string',
          array: true,
          nargs: 1,
          describe: 'let this environment variable through to the command (repeatable; as boxwright run)',
        }),
    run: async (args) => (await import('./learn.js')).learnCommand(args),
  },
  doctor: {
    usage: 'doctor',
    describe: 'qualify this machine for `boxwright run`: bubblewrap, user namespaces, seccomp, architecture, kernel (real trials)',
    options: (y) =>
      y.option('format', formatOption('doctor')).option('bwrap', {
        type: 'string',
        describe:
          'Linux: the bubblewrap to check (default: BOXWRIGHT_BWRAP, else `bwrap` in the PATH directories outside your home); recorded in the launch, never looked up at run time',
      }),
    run: async (args) => (await import('./doctor.js')).doctorCommand(args),
  },
  diff: {
    usage: 'diff [base] [head]',
    describe: 'what changes in effective access between two revisions of a config, then the artifact diffs',
    options: (y) =>
      fsOptions(y)
        .positional('base', { type: 'string', describe: 'the config before (with --git: the file to compare, optional)' })
        .positional('head', { type: 'string', describe: 'the config after' })
        .option('git', {
          type: 'string',
          describe:
            'compare the file at this git revision with the working tree; without a file, every sandbox config that changed (other TOML is passed over)',
        })
        .option('format', formatOption('diff'))
        .option('platform', platformOption)
        .option('fail-on', {
          choices: ['widen'],
          describe:
            'exit 1 when the change widens what a principal requests or what this machine grants it, or changes a request this machine cannot judge',
        })
        .option('artifacts', {
          type: 'boolean',
          default: true,
          describe: 'include the unified diffs of the emitted artifacts (--no-artifacts skips them)',
        }),
    run: async (args) => (await import('./diff.js')).diffCommand(args),
  },
  parse: {
    usage: 'parse [file]',
    describe: 'print a TOML document as JSON (a toml-test decoder with --tagged)',
    options: (y) =>
      y
        .positional('file', { type: 'string', describe: 'TOML file (standard input when none)' })
        .option('tagged', { type: 'boolean', default: false, describe: "toml-test's tagged JSON" }),
    run: async (args) => (await import('./parse.js')).parseCommand(args),
  },
  schema: {
    usage: 'schema',
    describe: 'print the JSON Schema of the configs (for editors: Even Better TOML / taplo)',
    options: (y) =>
      y.option('dialect', {
        choices: ['editor', 'box', 'tyba', 'manifest'],
        default: 'editor',
        describe: 'which schema: editor (both dialects), box, tyba, or the --fs manifest',
      }),
    run: async (args) => (await import('./schema.js')).schemaCommand(args),
  },
  rules: {
    usage: 'rules [id]',
    describe: "list the rules, or print one rule's documentation",
    options: (y) =>
      y.positional('id', { type: 'string', describe: 'a rule id (`boxwright rules` lists them)' }).option('format', formatOption('rules')),
    run: async (args) => (await import('./rules.js')).rulesCommand(args),
  },
};

function overview(argv: string[]): Argv {
  let y = yargs(argv)
    .scriptName('boxwright')
    .usage(
      '$0 <command> [options]\n\nA policy compiler and linter for AI-agent sandbox configurations.\n`boxwright <command> --help` describes a command.',
    );
  for (const [name, c] of Object.entries(commands))
    y = y
      .command(
        c.usage,
        c.describe,
        (sub) => sub,
        () => undefined,
      )
      .alias(name, name);
  return y
    .option('version', { alias: 'V', type: 'boolean', describe: 'print the version' })
    .demandCommand(1, `name a command: ${Object.keys(commands).join(', ')}`)
    .strict()
    .help()
    .alias('help', 'h')
    .version(false);
}

/** `--name` / `-n` tokens before `--`, as typed (without `=value`). */
function optionTokens(options: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of options) {
    if (/^--[^-]/.test(a)) out.push(a.split('=')[0]!);
    else if (/^-[^-\d]/.test(a)) for (const c of a.slice(1).split('=')[0]!) out.push(`-${c}`);
  }
  return out;
}

/**
 * Options the command does not know, named as the user typed them, with
 * the closest known one: yargs' own strictness names `--bogus-flag` twice
 * (`bogus-flag, bogusFlag`) and never suggests.
 */
function unknownOption(parser: Argv, options: readonly string[]): string | undefined {
  // yargs' types leave out getOptions(), which it documents for this.
  const known = (
    parser as unknown as { getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]>; boolean: string[] } }
  ).getOptions();
  const names = new Set<string>(Object.keys(known.key));
  for (const [k, aliases] of Object.entries(known.alias)) for (const a of [k, ...aliases]) names.add(a);
  const booleans = new Set<string>(known.boolean);
  for (const token of optionTokens(options)) {
    const bare = token.replace(/^--?/, '');
    const name = token.startsWith('--') && bare.startsWith('no-') && booleans.has(bare.slice(3)) ? bare.slice(3) : bare;
    if (names.has(name)) continue;
    const long = [...names].filter((n) => n.length > 1 && !/[A-Z]/.test(n));
    const guess = didYouMean(bare, long);
    return `unknown option ${token}${guess ? `; did you mean --${guess}?` : ''}`;
  }
  return undefined;
}

/**
 * yargs' messages in one line: its refusal of a value outside `choices`
 * takes three (`Invalid values:\n  Argument: landlock, Given: "maybe",
 * Choices: "on", "off"`).
 */
function oneLine(message: string): string {
  const choice = /^Invalid values:\s*Argument: ([^,]+), Given: (.*), Choices: (.*)$/s.exec(message.trim());
  if (choice) return `--${choice[1]} takes ${choice[3]!.trim()}, not ${choice[2]!.trim()}`;
  return message.trim().replace(/\s*\n\s*/g, '; ');
}

/** Options that may be given more than once besides yargs' arrays (`--pass-env`, `--pass-fd`): each reads a list. */
const REPEATABLE = new Set(['agent-dir', 'platform']);

/**
 * A single-valued option given more than once (`--home /a --home /b`):
 * yargs makes it a list, which the command would take for one value.
 */
function repeatedOption(parser: Argv, args: Record<string, unknown>): string | undefined {
  const known = (parser as unknown as { getOptions(): { key: Record<string, unknown>; array: string[]; boolean: string[] } }).getOptions();
  for (const key of Object.keys(known.key)) {
    const v = args[key];
    if (!Array.isArray(v) || known.array.includes(key) || known.boolean.includes(key) || REPEATABLE.has(key)) continue;
    return `--${key} takes one value, given ${v.length}: ${v.map((x) => JSON.stringify(String(x))).join(', ')}`;
  }
  return undefined;
}

/**
 * `run CONFIG ls -l` (no `--`): the config, and the command that should have
 * come after `--`, read as yargs would (an option that takes a value takes
 * the next word), so that `-l` is not called an unknown option of run's.
 */
function commandWithoutDashes(parser: Argv, options: readonly string[]): { config: string; command: string[] } | undefined {
  const known = (parser as unknown as { getOptions(): { boolean: string[] } }).getOptions();
  const booleans = new Set<string>([...known.boolean, 'help', 'h', 'v']);
  const words: number[] = [];
  for (let i = 0; i < options.length; i++) {
    const a = options[i]!;
    if (a.startsWith('-') && a.length > 1) {
      if (!a.includes('=') && !booleans.has(a.replace(/^--?/, '').replace(/^no-/, ''))) i++;
      continue;
    }
    words.push(i);
    if (words.length === 2) return { config: options[words[0]!]!, command: options.slice(i) };
  }
  return undefined;
}

/** The index of the first word that is no option nor an option's value (`learn git status`: `git`). */
function firstWord(parser: Argv, options: readonly string[]): number | undefined {
  const known = (parser as unknown as { getOptions(): { boolean: string[] } }).getOptions();
  const booleans = new Set<string>([...known.boolean, 'help', 'h']);
  for (let i = 0; i < options.length; i++) {
    const a = options[i]!;
    if (a.startsWith('-') && a.length > 1) {
      if (!a.includes('=') && !booleans.has(a.replace(/^--?/, '').replace(/^no-/, ''))) i++;
      continue;
    }
    return i;
  }
  return undefined;
}

/**
 * The command line read as the command will get it, or what to do instead:
 * a usage error's message (exit 2), or done (help or the version printed).
 * Exported so that a test can hold `boxwright run`'s fast path
 * (app/platforms/linux/run-fast.ts `parseFast`) to exactly what this parse gives.
 */
export type CommandLine =
  | { readonly kind: 'command'; readonly name: string; readonly command: Command; readonly args: Record<string, unknown> }
  | { readonly kind: 'usage'; readonly message: string }
  | { readonly kind: 'done'; readonly status: number };

export async function parseCommandLine(argv: readonly string[]): Promise<CommandLine> {
  const name = argv[0];
  const command = name !== undefined ? commands[name] : undefined;
  let failure: string | undefined;
  const fail = (msg: string | null, err: Error | undefined): void => {
    // yargs' own parse errors (YError: `--pass-env` with no value) are usage errors too.
    if (err && !(err instanceof UsageError) && err.name !== 'YError') throw err;
    failure = oneLine(err?.message ?? msg ?? 'invalid usage');
  };
  if (!command) {
    if (name === '--version' || name === '-V') {
      process.stdout.write(`${version}\n`);
      return { kind: 'done', status: 0 };
    }
    if (name !== undefined && !name.startsWith('-')) {
      const guess = didYouMean(name, Object.keys(commands));
      return {
        kind: 'usage',
        message: `boxwright: unknown command \`${name}\`${guess ? `; did you mean \`${guess}\`?` : ''}\nThe commands: ${Object.keys(commands).join(', ')}. Run \`boxwright --help\` for usage.`,
      };
    }
    // No command: yargs explains (and prints --help).
    await overview([...argv])
      .fail(fail)
      .parseAsync();
    if (failure) return { kind: 'usage', message: `boxwright: ${failure}\nRun \`boxwright --help\` for usage.` };
    return { kind: 'done', status: argv.includes('--help') || argv.includes('-h') ? 0 : 2 };
  }
  try {
    // What follows `--` is the command to run, verbatim: yargs would turn
    // `-0` into 0 and `007` into 7 (`run … -- printf 007` printed 7).
    const dashes = argv.indexOf('--');
    const verbatim = dashes >= 0 ? argv.slice(dashes + 1) : undefined;
    const options = dashes >= 0 ? argv.slice(1, dashes) : argv.slice(1);
    // One value per occurrence of a repeatable option (nargs: 1 above), so
    // that `run --pass-env NAME CONFIG -- CMD` keeps CONFIG: yargs' arrays
    // would swallow every following word. A positional stays as typed: a
    // config named `007` is not the number 7.
    const parser = command
      .options(
        yargs(options)
          .parserConfiguration({ 'parse-positional-numbers': false })
          .scriptName(`boxwright ${name}`)
          .usage(`boxwright ${command.usage}\n\n${command.describe}`),
      )
      .strictOptions()
      .help()
      .alias('help', 'h')
      .version(false)
      .fail(fail);
    if (name === 'run' && dashes < 0) {
      const cmd = commandWithoutDashes(parser, options);
      if (cmd)
        throw new UsageError(
          `unexpected argument${cmd.command.length > 1 ? 's' : ''} ${cmd.command.join(' ')}: put the command to run after --: boxwright run ${cmd.config} -- ${cmd.command.join(' ')}`,
        );
    }
    if (name === 'learn' && dashes < 0) {
      const word = firstWord(parser, options);
      if (word !== undefined)
        throw new UsageError(
          `put the command to learn from after --: boxwright learn ${options.slice(0, word).join(' ')}${word ? ' ' : ''}-- ${options.slice(word).join(' ')}`,
        );
    }
    const unknown = options.includes('--help') || options.includes('-h') ? undefined : unknownOption(parser, options);
    if (unknown) return { kind: 'usage', message: `boxwright ${name}: ${unknown}\nRun \`boxwright ${name} --help\` for usage.` };
    const args = (await parser.parseAsync()) as Record<string, unknown>;
    if (failure) return { kind: 'usage', message: `boxwright ${name}: ${failure}\nRun \`boxwright ${name} --help\` for usage.` };
    if (args['help']) return { kind: 'done', status: 0 };
    const twice = repeatedOption(parser, args);
    if (twice) return { kind: 'usage', message: `boxwright ${name}: ${twice}\nRun \`boxwright ${name} --help\` for usage.` };
    const positional = (args['_'] as unknown[]).map(String);
    // `run` keeps its command line as typed: a remedy it prints (the JIT's) is that line, changed.
    return {
      kind: 'command',
      name: name!,
      command,
      args: {
        ...args,
        ...positionals(name!, command.usage, positional),
        ...(verbatim ? { '--': verbatim } : {}),
        ...(name === 'run' ? { commandLine: [...argv] } : {}),
      },
    };
  } catch (e) {
    if (e instanceof UsageError) return { kind: 'usage', message: `boxwright ${name}: ${e.message}` };
    throw e;
  }
}

export async function main(argv: string[]): Promise<number> {
  const line = await parseCommandLine(argv);
  if (line.kind === 'done') return line.status;
  if (line.kind === 'usage') {
    process.stderr.write(`${line.message}\n`);
    return 2;
  }
  try {
    return await line.command.run(line.args);
  } catch (e) {
    // A usage error, or an input a target cannot lower (TargetError, from
    // targets/target.ts: checked by name so that start-up loads no target).
    if (e instanceof UsageError || (e instanceof Error && e.name === 'TargetError')) {
      process.stderr.write(`boxwright ${line.name}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/** `lint [files..]` and `rules [id]`: positionals by name, as yargs commands would give them (`run`'s command comes after `--`, not here). */
function positionals(command: string, usage: string, values: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = [...usage.split(' -- ')[0]!.matchAll(/[[<](\w+)(\.\.)?[\]>]/g)];
  let i = 0;
  for (const [, key, rest] of names) {
    if (rest) {
      out[key!] = values.slice(i);
      i = values.length;
    } else if (i < values.length) out[key!] = values[i++];
  }
  if (i < values.length) {
    const extra = values.slice(i).join(' ');
    if (command === 'run')
      throw new UsageError(
        `unexpected argument${values.length - i > 1 ? 's' : ''} ${extra}: put the command to run after --: boxwright run ${values[0] ?? 'CONFIG'} -- ${extra}`,
      );
    if (command === 'learn')
      throw new UsageError(
        `unexpected argument${values.length - i > 1 ? 's' : ''} ${extra}: put the command to learn from after --: boxwright learn -- ${extra}`,
      );
    throw new UsageError(`unexpected argument${values.length - i > 1 ? 's' : ''}: ${extra}`);
  }
  return out;
}
