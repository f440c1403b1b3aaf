import { PLATFORMS } from '../../compiler/diagnostic.js';
import { didYouMean } from '../../compiler/schema/did-you-mean.js';
import { version } from '../../compiler/version.js';
import { commandWithoutDashes, firstWord, oneLine, positionals, repeatedOption, unknownOption } from './argv-checks.js';
import type { CliIo } from './io.js';
import {
  type Command,
  configPositional,
  formatOption,
  fsOptions,
  overview,
  parseFor,
  platformOption,
  withOptions,
  yargsFor,
} from './yargs-io.js';
import { RUN_OPTIONS } from '../run-options.js';
import { UsageError } from './options.js';

export type { Command } from './yargs-io.js';

/**
 * One yargs parser per command. The command is picked from the first
 * argument before yargs runs, because a yargs `.command()` renders the
 * command's whole help text on every run (to cache it), which costs more
 * start-up time than linting a config. Each command's module is imported
 * only when it runs.
 */
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
            'pass over files that are not sandbox configs (no Box, TYBA, sandbox-runtime or Claude Code keys), ' +
            'without a finding: for hooks that pass every .toml and .json (what a directory or a glob finds ' +
            'is always chosen so)',
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
        })
        .option('fix', {
          type: 'boolean',
          default: false,
          describe: 'apply the safe fixes (access stays the same or narrows on every platform) in place, then report what remains',
        })
        .option('unsafe-fixes', {
          type: 'boolean',
          default: false,
          describe: 'with --fix or --diff: apply the unsafe fixes too (they widen access, or boxwright cannot judge them)',
        })
        .option('diff', {
          type: 'boolean',
          default: false,
          describe: 'print the fixes as a unified diff and write nothing (exit 1 when a file would change)',
        }),
    run: async (args, io) => (await import('./lint.js')).lintCommand(args, io),
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
            'Linux: the bubblewrap to run (default: BOXWRIGHT_BWRAP, else `bwrap` in the PATH directories outside ' +
            'your home); recorded in the launch, never looked up at run time',
        }),
    run: async (args, io) => (await import('./compile.js')).compileCommand(args, io),
  },
  explain: {
    usage: 'explain <config>',
    describe: 'what each platform gives each principal, grant by grant, and why it differs',
    options: (y) =>
      fsOptions(y).positional('config', configPositional).option('format', formatOption('explain')).option('platform', platformOption),
    run: async (args, io) => (await import('./explain.js')).explainCommand(args, io),
  },
  run: {
    usage: 'run <config> -- <cmd> [args..]',
    describe:
      'run a command inside the sandbox a config compiles to on this machine: boxwright run CONFIG [--principal P] [-- CMD [ARGS..]]',
    // Its options are a table (app/run-options.ts) that run's fast path reads too.
    options: (y) =>
      withOptions(
        fsOptions(y).positional('config', { type: 'string', describe: 'the config file' }).positional('cmd', {
          type: 'string',
          describe: 'after --: the command to run in the sandbox, with its arguments (passed verbatim)',
        }),
        RUN_OPTIONS,
      ),
    run: async (args, io) => (await import('./run.js')).runCommand(args, io),
  },
  learn: {
    usage: 'learn -- <cmd> [args..]',
    describe:
      'run a command once in a throw-away copy of this machine, traced, and write the least-privilege ' +
      'config it needed: boxwright learn [--out FILE] -- CMD [ARGS..]',
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
    run: async (args, io) => (await import('./learn.js')).learnCommand(args, io),
  },
  doctor: {
    usage: 'doctor',
    describe: 'qualify this machine for `boxwright run`: bubblewrap, user namespaces, seccomp, architecture, kernel (real trials)',
    options: (y) =>
      y.option('format', formatOption('doctor')).option('bwrap', {
        type: 'string',
        describe:
          'Linux: the bubblewrap to check (default: BOXWRIGHT_BWRAP, else `bwrap` in the PATH directories ' +
          'outside your home); recorded in the launch, never looked up at run time',
      }),
    run: async (args, io) => (await import('./doctor.js')).doctorCommand(args, io),
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
    run: async (args, io) => (await import('./diff.js')).diffCommand(args, io),
  },
  parse: {
    usage: 'parse [file]',
    describe: 'print a TOML document as JSON (a toml-test decoder with --tagged)',
    options: (y) =>
      y
        .positional('file', { type: 'string', describe: 'TOML file (standard input when none)' })
        .option('tagged', { type: 'boolean', default: false, describe: "toml-test's tagged JSON" }),
    run: async (args, io) => (await import('./parse.js')).parseCommand(args, io),
  },
  schema: {
    usage: 'schema',
    describe: 'print the JSON Schema of the configs (for editors: Even Better TOML / taplo)',
    options: (y) =>
      y.option('dialect', {
        choices: ['editor', 'box', 'tyba', 'manifest', 'project'],
        default: 'editor',
        describe: 'which schema: editor (both dialects), box, tyba, the --fs manifest, or the project file (.boxwright.toml)',
      }),
    run: async (args, io) => (await import('./schema.js')).schemaCommand(args, io),
  },
  rules: {
    usage: 'rules [id]',
    describe: "list the rules, or print one rule's documentation",
    options: (y) =>
      y.positional('id', { type: 'string', describe: 'a rule id (`boxwright rules` lists them)' }).option('format', formatOption('rules')),
    run: async (args, io) => (await import('./rules.js')).rulesCommand(args, io),
  },
  lsp: {
    usage: 'lsp --stdio',
    describe: 'a language server for editors: diagnostics, quick fixes, hover and key completion in every dialect',
    options: (y) =>
      fsOptions(y)
        .option('stdio', { type: 'boolean', default: false, describe: 'speak the protocol on standard input and output (required)' })
        .option('platform', platformOption),
    run: async (args, io) => (await import('./lsp.js')).lspCommand(args, io),
  },
};

/**
 * The command line read as the command will get it, or what to do instead:
 * a usage error's message (exit 2), or done (help or the version printed).
 * Exported so that a test can hold `boxwright run`'s fast path
 * (targets/linux/run/run-fast.ts `parseFast`) to exactly what this parse gives.
 */
export type CommandLine =
  | { readonly kind: 'command'; readonly name: string; readonly command: Command; readonly args: Record<string, unknown> }
  | { readonly kind: 'usage'; readonly message: string }
  | { readonly kind: 'done'; readonly status: number };

export async function parseCommandLine(argv: readonly string[], io: CliIo): Promise<CommandLine> {
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
      io.stdout.write(`${version}\n`);
      return { kind: 'done', status: 0 };
    }
    if (name !== undefined && !name.startsWith('-')) {
      const guess = didYouMean(name, Object.keys(commands));
      return {
        kind: 'usage',
        message:
          `boxwright: unknown command \`${name}\`${guess ? `; did you mean \`${guess}\`?` : ''}\nThe commands: ` +
          `${Object.keys(commands).join(', ')}. Run \`boxwright --help\` for usage.`,
      };
    }
    // No command: yargs explains (and prints --help).
    const { help } = await parseFor(overview([...argv], io, commands).fail(fail), argv, io);
    if (help) return { kind: 'done', status: 0 };
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
        yargsFor(options, io)
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
          `unexpected argument${cmd.command.length > 1 ? 's' : ''} ${cmd.command.join(' ')}: put the command ` +
            `to run after --: boxwright run ${cmd.config} -- ${cmd.command.join(' ')}`,
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
    const { args, help } = await parseFor(parser, options, io);
    if (help) return { kind: 'done', status: 0 };
    if (failure) return { kind: 'usage', message: `boxwright ${name}: ${failure}\nRun \`boxwright ${name} --help\` for usage.` };
    if (args['help']) return { kind: 'done', status: 0 };
    const twice = repeatedOption(parser, args);
    if (twice) return { kind: 'usage', message: `boxwright ${name}: ${twice}\nRun \`boxwright ${name} --help\` for usage.` };
    // Only run and learn take a command after `--`; for the others it ends the options (POSIX), and what follows is operands.
    const takesCommand = name === 'run' || name === 'learn';
    const positional = [...(args['_'] as unknown[]).map(String), ...(takesCommand ? [] : (verbatim ?? []))];
    // `run` keeps its command line as typed: a remedy it prints (the JIT's) is that line, changed.
    return {
      kind: 'command',
      name: name!,
      command,
      args: {
        ...args,
        ...positionals(name!, command.usage, positional),
        ...(verbatim && takesCommand ? { '--': verbatim } : {}),
        ...(name === 'run' ? { commandLine: [...argv] } : {}),
      },
    };
  } catch (e) {
    if (e instanceof UsageError) return { kind: 'usage', message: `boxwright ${name}: ${e.message}` };
    throw e;
  }
}

/**
 * The CLI: reads `argv` (without node and the script), writes to `io`, and
 * resolves with the exit status. bin/boxwright.cjs runs it with the
 * process's own io (entry.ts); a test, with buffers (test/cli-in-process.ts).
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const line = await parseCommandLine(argv, io);
  if (line.kind === 'done') return line.status;
  if (line.kind === 'usage') {
    io.stderr.write(`${line.message}\n`);
    return 2;
  }
  try {
    return await line.command.run(line.args, io);
  } catch (e) {
    // A usage error, or an input a target cannot lower (TargetError, from
    // targets/target.ts: checked by name so that start-up loads no target).
    if (e instanceof UsageError || (e instanceof Error && e.name === 'TargetError')) {
      io.stderr.write(`boxwright ${line.name}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
