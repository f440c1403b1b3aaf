import yargs from 'yargs';
import type { Argv } from 'yargs';
import { formatNames, type FormattedCommand } from '../format/registry.js';
import { UsageError } from './options.js';

/**
 * One yargs parser per command. The command is picked from the first
 * argument before yargs runs, because a yargs `.command()` renders the
 * command's whole help text on every run (to cache it), which costs more
 * start-up time than linting a config. Each command's module is imported
 * only when it runs.
 */
interface Command {
  readonly usage: string;
  readonly describe: string;
  readonly options: (y: Argv) => Argv;
  readonly run: (args: Record<string, unknown>) => Promise<number>;
}

const fsOptions = (y: Argv): Argv =>
  y
    .option('fs', { type: 'string', describe: 'filesystem facts: host (the real disk), none (unknown), or a manifest FILE.json' })
    .option('home', { type: 'string', describe: "where ~ points (default: your home, or the manifest's)" })
    .option('dialect', { choices: ['box', 'tyba'], describe: 'override dialect detection' })
    .option('worktree', { type: 'string', describe: 'TYBA: the session worktree (default: the current directory)' })
    .option('tyba-data-dir', { type: 'string', describe: 'TYBA: its data directory (default ~/.tyba)' })
    .option('agent-dir', { type: 'string', describe: "TYBA: the agent's own directories (repeatable)" });

/** `--format`: the command's formats from the one table (app/format/registry.ts), its first the default. */
const formatOption = (command: FormattedCommand) => {
  const choices = formatNames(command);
  return { alias: 'f', choices, default: choices[0] } as const;
};

const commands: Record<string, Command> = {
  lint: {
    usage: 'lint [files..]',
    describe: 'check configs and print per-platform diagnostics and verdicts',
    options: (y) =>
      fsOptions(y)
        .positional('files', { type: 'string', array: true, describe: 'config files (standard input when none)' })
        .option('format', formatOption('lint'))
        .option('platform', { type: 'string', describe: 'only these platforms, comma-separated or repeated: macos,linux,windows' })
        .option('max-warnings', { type: 'number', describe: 'exit 1 when there are more warnings than this' }),
    run: async (args) => (await import('./lint.js')).lintCommand(args),
  },
  compile: {
    usage: 'compile <config>',
    describe: 'compile a config into the artifacts one platform enforces',
    options: (y) =>
      fsOptions(y)
        .option('target', { alias: 't', choices: ['macos', 'linux', 'windows'], demandOption: true, describe: 'the platform to compile for' })
        .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'the output directory' })
        .option('force', { type: 'boolean', default: false, describe: 'write artifacts even for a refused verdict (they say so at the top)' })
        .option('gateway-port', { type: 'number', describe: "macOS: the host product's gateway port on loopback (default 8080)" })
        .option('gateway-socket', { type: 'string', describe: "Linux: the host product's gateway socket to bind into sandboxes without direct network" }),
    run: async (args) => (await import('./compile.js')).compileCommand(args),
  },
  explain: {
    usage: 'explain <config>',
    describe: 'what each platform gives each principal, grant by grant, and why it differs',
    options: (y) =>
      fsOptions(y)
        .option('format', formatOption('explain'))
        .option('platform', { type: 'string', describe: 'only these platforms, comma-separated or repeated: macos,linux,windows' }),
    run: async (args) => (await import('./explain.js')).explainCommand(args),
  },
  run: {
    usage: 'run <config>',
    describe: 'run a command inside the sandbox a config compiles to on this machine: boxwright run CONFIG [--principal P] -- CMD [ARGS..]',
    options: (y) =>
      fsOptions(y)
        .option('principal', { alias: 'p', type: 'string', default: 'agent', describe: 'whose sandbox: agent, tool:NAME or mcp:NAME' })
        .option('pass-env', { type: 'string', array: true, describe: 'let this environment variable into the sandbox (repeatable; only a short allowlist passes by default)' })
        .option('pass-fd', { type: 'number', array: true, describe: 'let this open descriptor (above 2) through to the command (repeatable; every other inherited one is closed)' })
        .option('gateway-socket', { type: 'string', describe: "Linux: the host product's gateway socket to bind into sandboxes without direct network" })
        .option('verbose', { alias: 'v', type: 'boolean', default: false, describe: 'print the bubblewrap command, the withheld variables and the closed descriptors' }),
    run: async (args) => (await import('./run.js')).runCommand(args),
  },
  doctor: {
    usage: 'doctor',
    describe: 'qualify this machine for `boxwright run`: bubblewrap, user namespaces, seccomp, architecture, kernel (real trials)',
    options: (y) => y.option('format', formatOption('doctor')),
    run: async (args) => (await import('./doctor.js')).doctorCommand(args),
  },
  diff: {
    usage: 'diff [base] [head]',
    describe: 'what changes in effective access between two revisions of a config, then the artifact diffs',
    options: (y) =>
      fsOptions(y)
        .option('git', { type: 'string', describe: 'compare the file (or every changed .toml) at this git revision with the working tree' })
        .option('format', formatOption('diff'))
        .option('platform', { type: 'string', describe: 'only these platforms, comma-separated or repeated: macos,linux,windows' })
        .option('fail-on', { choices: ['widen'], describe: 'exit 1 when any principal gains access on a selected platform' })
        .option('artifacts', { type: 'boolean', default: true, describe: 'include the unified diffs of the emitted artifacts (--no-artifacts skips them)' }),
    run: async (args) => (await import('./diff.js')).diffCommand(args),
  },
  parse: {
    usage: 'parse [file]',
    describe: 'print a TOML document as JSON (a toml-test decoder with --tagged)',
    options: (y) => y.positional('file', { type: 'string', describe: 'TOML file (standard input when none)' }).option('tagged', { type: 'boolean', default: false, describe: "toml-test's tagged JSON" }),
    run: async (args) => (await import('./parse.js')).parseCommand(args),
  },
  schema: {
    usage: 'schema',
    describe: 'print the JSON Schema of the configs (for editors: Even Better TOML / taplo)',
    options: (y) => y.option('dialect', { choices: ['editor', 'box', 'tyba', 'manifest'], default: 'editor', describe: 'which schema: editor (both dialects), box, tyba, or the --fs manifest' }),
    run: async (args) => (await import('./schema.js')).schemaCommand(args),
  },
  rules: {
    usage: 'rules [id]',
    describe: "list the rules, or print one rule's documentation",
    options: (y) => y.positional('id', { type: 'string' }).option('format', { choices: ['text', 'markdown'], default: 'text' }),
    run: async (args) => (await import('./rules.js')).rulesCommand(args),
  },
};

function overview(argv: string[]): Argv {
  let y = yargs(argv).scriptName('boxwright').usage('$0 <command> [options]\n\nA policy compiler and linter for AI-agent sandbox configurations.');
  for (const [name, c] of Object.entries(commands)) y = y.command(c.usage, c.describe, (sub) => sub, () => undefined).alias(name, name);
  return y.demandCommand(1, `name a command: ${Object.keys(commands).join(', ')}`).strict().help().version(false);
}

export async function main(argv: string[]): Promise<number> {
  const name = argv[0];
  const command = name !== undefined ? commands[name] : undefined;
  let failure: string | undefined;
  const fail = (msg: string | null, err: Error | undefined): void => {
    if (err && !(err instanceof UsageError)) throw err;
    failure = err?.message ?? msg ?? 'invalid usage';
  };
  try {
    if (!command) {
      // No or unknown command: yargs explains (and prints --help).
      await overview(argv).fail(fail).parseAsync();
      if (failure) process.stderr.write(`boxwright: ${failure}\nRun \`boxwright --help\` for usage.\n`);
      return failure || !argv.includes('--help') ? 2 : 0;
    }
    // What follows `--` is the command to run, verbatim: yargs would turn
    // `-0` into 0 and `007` into 7 (`run … -- printf 007` printed 7).
    const dashes = argv.indexOf('--');
    const verbatim = dashes >= 0 ? argv.slice(dashes + 1) : undefined;
    const options = dashes >= 0 ? argv.slice(1, dashes) : argv.slice(1);
    const parser = command
      .options(yargs(options).scriptName(`boxwright ${name}`).usage(`boxwright ${command.usage}\n\n${command.describe}`))
      .strictOptions()
      .help()
      .version(false)
      .fail(fail);
    const args = (await parser.parseAsync()) as Record<string, unknown>;
    if (failure) {
      process.stderr.write(`boxwright ${name}: ${failure}\nRun \`boxwright ${name} --help\` for usage.\n`);
      return 2;
    }
    if (args['help']) return 0;
    const positional = (args['_'] as unknown[]).map(String);
    return await command.run({ ...args, ...positionals(command.usage, positional), ...(verbatim ? { '--': verbatim } : {}) });
  } catch (e) {
    // A usage error, or an input a target cannot lower (TargetError, from
    // targets/target.ts: checked by name so that start-up loads no target).
    if (e instanceof UsageError || (e instanceof Error && e.name === 'TargetError')) {
      process.stderr.write(`boxwright: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/** `lint [files..]` and `rules [id]`: positionals by name, as yargs commands would give them. */
function positionals(usage: string, values: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = [...usage.matchAll(/[[<](\w+)(\.\.)?[\]>]/g)];
  let i = 0;
  for (const [, key, rest] of names) {
    if (rest) {
      out[key!] = values.slice(i);
      i = values.length;
    } else if (i < values.length) out[key!] = values[i++];
  }
  if (i < values.length) throw new UsageError(`unexpected argument${values.length - i > 1 ? 's' : ''}: ${values.slice(i).join(' ')}`);
  return out;
}
