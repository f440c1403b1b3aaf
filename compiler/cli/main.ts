import yargs from 'yargs';
import type { Argv } from 'yargs';
import { UsageError } from './options.js';

// Each command's module is imported when the command runs, so start-up
// pays only for what it uses.

const fsOptions = (y: Argv) =>
  y
    .option('fs', { type: 'string', describe: 'filesystem facts: host (the real disk), none (unknown), or a manifest FILE.json', default: undefined })
    .option('home', { type: 'string', describe: 'where ~ points (default: your home, or the manifest\'s)' })
    .option('dialect', { choices: ['box', 'tyba'] as const, describe: 'override dialect detection' })
    .option('worktree', { type: 'string', describe: 'TYBA: the session worktree (default: the current directory)' })
    .option('tyba-data-dir', { type: 'string', describe: "TYBA: its data directory (default ~/.tyba)" })
    .option('agent-dir', { type: 'string', array: true, describe: "TYBA: the agent's own directories (repeatable)" });

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const cli = yargs(argv)
    .scriptName('boxwright')
    .usage('$0 <command> [options]\n\nA policy compiler and linter for AI-agent sandbox configurations.')
    .command(
      'lint [files..]',
      'check configs and print per-platform diagnostics and verdicts',
      (y) =>
        fsOptions(y)
          .positional('files', { type: 'string', array: true, describe: 'config files (standard input when none)' })
          .option('format', { alias: 'f', choices: ['text', 'json', 'sarif', 'github', 'markdown'] as const, default: 'text' as const })
          .option('platform', { type: 'string', array: true, describe: 'only these platforms: macos,linux,windows' })
          .option('max-warnings', { type: 'number', describe: 'exit 1 when there are more warnings than this' }),
      async (args) => {
        exitCode = await (await import('./lint.js')).lintCommand(args);
      },
    )
    .command(
      'parse [file]',
      'print a TOML document as JSON (a toml-test decoder with --tagged)',
      (y) => y.positional('file', { type: 'string', describe: 'TOML file (standard input when none)' }).option('tagged', { type: 'boolean', default: false, describe: "toml-test's tagged JSON" }),
      async (args) => {
        exitCode = await (await import('./parse.js')).parseCommand(args);
      },
    )
    .command(
      'schema',
      'print the JSON Schema of the configs (for editors: Even Better TOML / taplo)',
      (y) => y.option('dialect', { choices: ['box', 'tyba', 'editor', 'manifest'] as const, default: 'editor' as const, describe: 'which schema: editor (both dialects), box, tyba, or the --fs manifest' }),
      async (args) => {
        exitCode = await (await import('./schema.js')).schemaCommand(args);
      },
    )
    .command(
      'rules [id]',
      'list the rules, or print one rule\'s documentation',
      (y) => y.positional('id', { type: 'string' }).option('format', { choices: ['text', 'markdown'] as const, default: 'text' as const }),
      async (args) => {
        exitCode = await (await import('./rules.js')).rulesCommand(args);
      },
    )
    .demandCommand(1, 'name a command: lint, parse, schema, rules')
    .strict()
    .help()
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err && !(err instanceof UsageError)) throw err;
      process.stderr.write(`boxwright: ${err?.message ?? msg}\nRun \`boxwright --help\` for usage.\n`);
      exitCode = 2;
    });
  try {
    await cli.parseAsync();
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`boxwright: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  return exitCode;
}
