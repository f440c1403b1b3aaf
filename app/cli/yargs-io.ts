import yargs from 'yargs';
import type { Argv } from 'yargs';
import type { CliIo } from './io.js';
import { formatNames, type FormattedCommand } from '../format/registry.js';
import { CONFIG_OPTIONS, type OptionSpec, yargsOption } from '../run-options.js';

/**
 * A command: its usage and options (main.ts's table), and what runs it with
 * the command's io. `run` and `learn` read none of it: the command they start
 * inherits the process's own streams, environment and directory.
 */
export interface Command {
  readonly usage: string;
  readonly describe: string;
  readonly options: (y: Argv) => Argv;
  readonly run: (args: Record<string, unknown>, io: CliIo) => Promise<number>;
}

/** The options every command that reads a config shares (app/run-options.ts, the table run's fast path reads too), and the others' pieces. */
export const fsOptions = (y: Argv): Argv => withOptions(y, CONFIG_OPTIONS);

/** `y` with each option of a table (app/run-options.ts). */
export function withOptions(y: Argv, options: readonly OptionSpec[]): Argv {
  return options.reduce((acc, o) => acc.option(o.name, yargsOption(o)), y);
}

/** `--format`: the command's formats from the one table (app/format/registry.ts), its first the default. */
export const formatOption = (command: FormattedCommand) => {
  const choices = formatNames(command);
  return { alias: 'f', choices, default: choices[0], describe: 'output format' } as const;
};

export const platformOption = {
  type: 'string',
  describe: 'check only these platforms, comma-separated or repeated: macos,linux,windows (the others get no verdict)',
} as const;
export const configPositional = { type: 'string', describe: 'the config file (- reads it from standard input)' } as const;

/**
 * yargs as the command's io has it, not the process: its directory and
 * the help's width (the terminal's, at most 80). Its own words in English
 * whatever LANG says: the bundle the binary runs holds none of yargs'
 * translations (the tsc build would have found them beside yargs).
 */
export function yargsFor(argv: readonly string[], io: CliIo): Argv {
  return yargs([...argv], io.cwd)
    .wrap(io.env['YARGS_DISABLE_WRAP'] ? null : io.columns ? Math.min(80, io.columns) : 80)
    .locale('en');
}

/** yargs' help, when it printed one, caught to be written to the command's standard output, not the process's. */
export async function parseFor(
  parser: Argv,
  argv: readonly string[],
  io: CliIo,
): Promise<{ args: Record<string, unknown>; help: boolean }> {
  let help = '';
  const args = (await parser.parseAsync([...argv], {}, (_err, _argv, output) => {
    help = output;
  })) as Record<string, unknown>;
  if (help) io.stdout.write(`${help}\n`);
  return { args, help: help !== '' };
}

/** `boxwright` without a command: the overview of every command, for --help or yargs' complaint. */
export function overview(argv: string[], io: CliIo, commands: Readonly<Record<string, Command>>): Argv {
  let y = yargsFor(argv, io)
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
  // `--version` and `-V` are answered before yargs runs (main.ts). Declaring them here too had yargs warn through Node
  // ("version" is a reserved word) on every overview, on the process's stderr, and `.version(false)` took them out of the help.
  return y
    .version(false)
    .demandCommand(1, `name a command: ${Object.keys(commands).join(', ')}`)
    .strict()
    .help()
    .alias('help', 'h');
}
