// Waits inside tests. A test waits for an event (a line from a sandboxed
// command, a file, a process's end), never for an amount of time: the
// suite runs on shared 2-core machines beside other work, where a step
// that takes 10 ms when idle may take seconds. Every wait is still bounded,
// by a limit far above any honest duration, and says what it waited for
// when it expires — a hang becomes a failure that names its cause.
import { setTimeout as sleep } from 'node:timers/promises';

/** The default limit of a wait: generous, since it only turns a hang into a failure. */
export const WAIT_LIMIT_MS = 120_000;

/** Rejects with "timed out after N s waiting for WHAT" when `promise` has not settled in `ms` (and calls `onTimeout`, to stop what it waited for). */
export function within<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new Error(`timed out after ${ms / 1000} s waiting for ${what}`));
    }, ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Polls `cond` (every 20 ms) until it holds; throws "timed out after N s waiting for WHAT" when it still does not after `ms`. */
export async function until(cond: () => boolean, what: string, ms: number = WAIT_LIMIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * A spawnSync result, checked: with a `timeout`, spawnSync kills the child
 * and returns status null and error ETIMEDOUT, which a check of the status
 * alone reports as "null !== 0". This says what timed out instead.
 */
export function finished<T extends { readonly error?: Error; readonly status: number | null }>(
  r: T,
  what: string,
  ms: number = WAIT_LIMIT_MS,
): T {
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT')
    throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
  return r;
}
