/**
 * The argv read back into mount operations: the cross-check of the plan.
 * The product never reads an argv back (run's view is the plan's,
 * targets/linux/view.ts runView); tests read the compiled `.bwrap.args`
 * with this and hold what bubblewrap will do to what the plan says
 * (test/linux/plan-argv.test.ts), and the differential tests find the
 * descriptors an argv reads.
 */
import { isUnder } from '../../compiler/paths/spelling.js';
import { SANDBOX_EXEC_PATH } from '../../targets/linux/launcher/index.js';
import type { ViewMount } from '../../targets/linux/view.js';
import { splitOptions } from './bwrap-options.js';

/** A mount read back; an empty file with the descriptor it reads. */
export type ReadMount = ViewMount | { readonly kind: 'empty-file'; readonly path: string; readonly fd: number };

/** What an argv (a `.bwrap.args` read back) does to the view: its mount operations, `--chdir` and the empty-data fds. */
export interface ParsedView {
  readonly ops: ReadMount[];
  readonly chdir?: string;
  /** The fds `--ro-bind-data` and `--bind-data` read: each must read as empty. */
  readonly dataFds: number[];
  readonly seccompFd?: number;
  /** The fd the in-sandbox step (boxwright-sandbox, at SANDBOX_EXEC_PATH) is read from: not part of the view. */
  readonly execFd?: number;
}

/**
 * Reads bubblewrap options back into mount operations, in argv order (which
 * is bubblewrap's order). Options that take no part in the view are skipped
 * with their operands; an option the table (./bwrap-options.ts, the C launcher's own table's twin) does not know
 * is an error, so a view is never guessed.
 */
export function viewFromArgv(argv: readonly string[]): ParsedView {
  const ops: ReadMount[] = [];
  const dataFds: number[] = [];
  let chdir: string | undefined;
  let seccompFd: number | undefined;
  let execFd: number | undefined;
  for (const {
    option,
    operands: [a = '', b = ''],
  } of splitOptions(argv)) {
    switch (option) {
      case '--bind':
      case '--ro-bind':
      case '--dev-bind':
      case '--bind-fd':
      case '--ro-bind-fd':
        if (!option.endsWith('-fd') && a !== b) throw new Error(`${option} ${a} ${b}: boxwright's views bind each path onto itself`);
        ops.push({ kind: 'bind', path: b, write: option === '--bind' || option === '--dev-bind' || option === '--bind-fd' });
        break;
      case '--ro-bind-try':
        if (a !== b || !isUnder(a, '/proc'))
          throw new Error(`${option} ${a} ${b}: boxwright's views use it only for /proc entries onto themselves`);
        ops.push({ kind: 'proc-readonly', path: b });
        break;
      case '--ro-bind-data':
      case '--bind-data':
      case '--file':
        if (option === '--ro-bind-data' && b === SANDBOX_EXEC_PATH) {
          execFd = Number(a);
          break;
        }
        dataFds.push(Number(a));
        ops.push({ kind: 'empty-file', path: b, fd: Number(a) });
        break;
      case '--tmpfs':
        ops.push({ kind: 'tmpfs', path: a });
        break;
      case '--remount-ro': {
        // `--tmpfs D --remount-ro D` is a denied directory's empty cover.
        let i = ops.length - 1;
        while (i >= 0 && ops[i]!.path !== a) i--;
        if (i >= 0 && ops[i]!.kind === 'tmpfs') ops[i] = { kind: 'empty-dir', path: a };
        break;
      }
      case '--dir':
        ops.push({ kind: 'dir', path: a });
        break;
      case '--symlink':
        ops.push({ kind: 'symlink', path: b, target: a });
        break;
      case '--proc':
        ops.push({ kind: 'proc', path: a });
        break;
      case '--dev':
        ops.push({ kind: 'dev', path: a });
        break;
      case '--chdir':
        chdir = a;
        break;
      case '--seccomp':
        seccompFd = Number(a);
        break;
      default:
        break; // no part in the view
    }
  }
  return {
    ops,
    ...(chdir !== undefined ? { chdir } : {}),
    dataFds,
    ...(seccompFd !== undefined ? { seccompFd } : {}),
    ...(execFd !== undefined ? { execFd } : {}),
  };
}
