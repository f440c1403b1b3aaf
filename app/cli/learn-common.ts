/** What learn.ts and learn-check.ts share: the arguments, the tools, the statuses, the voice, where the run may write. */
import type { ConfigArgs } from './options.js';

export interface LearnArgs extends ConfigArgs {
  principal?: string;
  out?: string;
  network?: boolean;
  check?: boolean;
  timeout?: string;
  'pass-env'?: string | string[];
  'max-trace'?: string;
  'max-events'?: string;
  'max-writes'?: string;
  '--'?: unknown[];
}

export interface Tools {
  readonly helper: string;
  readonly bwrap: string;
  readonly strace: string;
}

/** learn could not run the command at all. */
export const NOT_RUN = 125;
/** --timeout ended the command. */
export const TIMED_OUT = 124;

export const say = (msg: string): void => void process.stderr.write(`boxwright learn: ${msg}\n`);

/** Where strace and the throw-away root may write without root: the directories a command usually writes. */
export function writableDirs(cwd: string, home: string): string[] {
  return [...new Set([cwd, home, process.env['TMPDIR'] ?? '/tmp', '/tmp', '/var/tmp'].filter((d) => d.startsWith('/')))];
}
