/**
 * learn's bounds: how much strace may write, with the list of what the run
 * changed (--max-trace), how many traced
 * calls learn reads back (--max-events), and how much the command may write
 * into the throw-away root (--max-writes). The byte bounds are tmpfs size=
 * options the throw-away helper mounts with (targets/linux/launcher/
 * throwaway.c): the kernel refuses a write past them, so nothing goes
 * beyond the bound on the host, and the helper stops the run when one is
 * full. The event bound is counted as learn reads the trace
 * (session.ts), which holds the memory its parse takes.
 */
export interface LearnBounds {
  /** Bytes strace may write (the trace tmpfs's size=). */
  readonly traceBytes: number;
  /** Traced calls learn reads back, over every process. */
  readonly events: number;
  /** Bytes the run may write into the throw-away root (the scratch tmpfs's size=; its nr_inodes: one per KiB). */
  readonly writeBytes: number;
}

/** Which bound ended a run. */
export type Bound = 'trace' | 'events' | 'writes';

const MiB = 1024 * 1024;

export const DEFAULT_BOUNDS: LearnBounds = { traceBytes: 256 * MiB, events: 500_000, writeBytes: 1024 * MiB };

/** The flag of each bound, for the messages. */
export const BOUND_FLAG: Readonly<Record<Bound, string>> = { trace: '--max-trace', events: '--max-events', writes: '--max-writes' };

const UNITS: Readonly<Record<string, number>> = { '': 1, K: 1024, M: MiB, G: 1024 * MiB };

/** `SIZE`: a whole number of bytes, or with K, M or G (binary units); undefined when it is not one, or under 1 MiB. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d{1,12})([KMG]?)$/i.exec(text.trim());
  if (!m) return undefined;
  const bytes = Number(m[1]) * UNITS[m[2]!.toUpperCase()]!;
  return Number.isSafeInteger(bytes) && bytes >= MiB ? bytes : undefined;
}

/** A size as the user would write it: the largest unit that divides it. */
export function sizeText(bytes: number): string {
  for (const [unit, n] of [
    ['G', 1024 * MiB],
    ['M', MiB],
    ['K', 1024],
  ] as const)
    if (bytes % n === 0) return `${bytes / n}${unit}`;
  return String(bytes);
}

/** What learn says when a bound ended the run: which bound, and how to raise it. */
export function boundText(bound: Bound, bounds: LearnBounds): string {
  switch (bound) {
    case 'trace':
      return (
        `the trace reached ${sizeText(bounds.traceBytes)} (--max-trace: strace's output and the list of ` +
        `what the run changed); learn stopped the command. Raise it with --max-trace SIZE`
      );
    case 'events':
      return `the trace holds more than ${bounds.events} calls (--max-events); learn read no further. Raise it with --max-events N`;
    case 'writes':
      return (
        `the command's writes into the throw-away root reached ${sizeText(bounds.writeBytes)} (--max-writes: ` +
        `that many bytes, or a file per KiB of it); learn stopped it. Raise it with --max-writes SIZE`
      );
  }
}
