/**
 * What `boxwright learn` runs with, read before it runs anything: its
 * bounds and timeout from the command line (a usage error, 2, for one it
 * cannot keep), and its tools, found and vetted on the host (why not: it
 * then runs nothing, 125).
 */
import { hostArch } from '../../targets/linux/index.js';
import { launcherPath } from '../../targets/linux/launcher/index.js';
import { DEFAULT_BOUNDS, parseSize, type LearnBounds } from '../learn/bounds.js';
import { lookOnPath } from '../host-programs.js';
import { bwrapOrigin, locateBwrap, lookupHomes } from '../../targets/linux/run/sandbox/bwrap.js';
import { vet, VetError, type VetFinding } from '../../targets/linux/run/sandbox/vet.js';
import type { LearnArgs, Tools } from './learn-common.js';
import { UsageError } from './options.js';

/** --max-trace, --max-events, --max-writes: each a usage error (2) when it is not a bound learn can keep. */
export function boundsFrom(args: LearnArgs): LearnBounds {
  const size = (flag: 'max-trace' | 'max-writes', dflt: number): number => {
    const v = args[flag];
    if (v === undefined) return dflt;
    const bytes = parseSize(String(v));
    if (bytes === undefined)
      throw new UsageError(`--${flag} takes a size of at least 1M (bytes, or with K, M or G), not ${JSON.stringify(v)}`);
    return bytes;
  };
  const events = args['max-events'];
  if (events !== undefined && (!/^\d{1,12}$/.test(String(events)) || Number(events) < 1))
    throw new UsageError(`--max-events takes a whole number above 0, not ${JSON.stringify(events)}`);
  return {
    traceBytes: size('max-trace', DEFAULT_BOUNDS.traceBytes),
    events: events === undefined ? DEFAULT_BOUNDS.events : Number(events),
    writeBytes: size('max-writes', DEFAULT_BOUNDS.writeBytes),
  };
}

export function timeoutFrom(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(String(v)) || Number(v) <= 0)
    throw new UsageError(`--timeout takes a number of seconds above 0, not ${JSON.stringify(v)}`);
  return Number(v);
}

/**
 * What learn runs with, or why it cannot (it then runs nothing: 125).
 * bubblewrap and strace run on the host with the user's every right, so
 * they are found as every host program boxwright executes (never in a
 * PATH directory under a home, where a sandboxed run may have planted
 * one: issue 21, attack 5) and must be root's alone (vet.ts).
 */
export function tools(home: string): Tools | string {
  if (process.platform !== 'linux') return `learn traces a run under bubblewrap, which needs Linux; this is ${process.platform}`;
  const arch = hostArch();
  const helper = arch ? launcherPath(arch) : undefined;
  if (!helper) return 'boxwright-sandbox is not built for this machine (npm run build needs a C compiler)';
  const homes = lookupHomes(home);
  const bwrap = locateBwrap({ homes });
  if (!bwrap.found) return `no bubblewrap to learn with (${bwrapOrigin(bwrap)}): ${bwrap.why} (Debian: apt-get install bubblewrap)`;
  const strace = lookOnPath('strace', process.env, homes);
  if (!strace.path)
    return (
      `strace is not installed in the PATH directories outside your home${strace.skipped.length ? ` (passed over: ${strace.skipped.join(', ')})` : ''}: ` +
      `learn traces the command with it (Debian: apt-get install strace)`
    );
  let findings: VetFinding[];
  try {
    findings = vet({ rootOwned: [bwrap.path, strace.path] });
  } catch (e) {
    if (!(e instanceof VetError)) throw e;
    return `cannot check who could change bubblewrap and strace: ${e.message}`;
  }
  const untrusted = findings.find((f) => f.kind === 'untrusted');
  if (untrusted && untrusted.kind === 'untrusted')
    return (
      `${untrusted.path} is not root's alone: ${untrusted.reason}. learn runs it outside any sandbox: ` +
      `install it where only root writes (your distribution's package)`
    );
  return { helper, bwrap: bwrap.path, strace: strace.path };
}
