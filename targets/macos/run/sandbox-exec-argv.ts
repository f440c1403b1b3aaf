/**
 * How boxwright's runner launches a command under a compiled profile on
 * macOS: `/usr/bin/sandbox-exec -f PROFILE -- CMD…`. The absolute path keeps
 * PATH out of the choice of sandbox-exec; `--` keeps a command that starts
 * with `-` from being read as an option of sandbox-exec.
 *
 * This is a pure function, unit-tested only: enforcement on macOS (that
 * sandbox-exec accepts the profiles and Seatbelt enforces them) is NOT
 * exercised in this project's CI, which runs on Linux.
 */
export function sandboxExecArgv(
  profilePath: string,
  command: readonly string[],
  /** `(param "NAME")` values of the profile, passed as `-D NAME=VALUE` (TYBA profiles use TMPDIR). */
  params: Readonly<Record<string, string>> = {},
): { file: '/usr/bin/sandbox-exec'; args: string[] } {
  if (command.length === 0) throw new Error('sandbox-exec needs a command to run: the command is empty');
  if (command[0] === '') throw new Error('sandbox-exec needs a command to run: the command name is empty');
  if (profilePath === '') throw new Error('sandbox-exec needs a profile path: it is empty');
  const defines = Object.keys(params)
    .sort()
    .flatMap((name) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a profile parameter name: ${JSON.stringify(name)}`);
      return ['-D', `${name}=${params[name]}`];
    });
  for (const arg of [profilePath, ...defines, ...command])
    if (arg.includes('\u0000')) throw new Error(`an argument holds a NUL character and cannot be passed to exec: ${JSON.stringify(arg)}`);
  return { file: '/usr/bin/sandbox-exec', args: [...defines, '-f', profilePath, '--', ...command] };
}
