/**
 * The launcher's own argv rewrite (targets/linux/launcher/bwrap-argv.c),
 * built with gcc beside a small driver (rewrite-argv.c) and run on a
 * compiled argv: what the tests hold to the plan, and what the race test
 * attacks. The C file is the one the launcher is built from, not a copy.
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers.js';
import { onPath } from './support.js';

export const cc = onPath('gcc') ?? onPath('cc');

export type Rewritten =
  | { readonly ok: true; readonly argv: readonly string[] }
  | { readonly ok: false; readonly changed: boolean; readonly message: string };

export interface RewriteDriver {
  rewrite(argv: readonly string[]): Rewritten;
  cleanup(): void;
}

/** Builds the driver with the launcher's bwrap-argv.c (needs a C compiler). */
export function rewriteDriver(): RewriteDriver {
  const dir = mkdtempSync(join(tmpdir(), 'boxwright-rewrite-'));
  const launcher = join(repoRoot, 'targets', 'linux', 'launcher');
  const exe = join(dir, 'rewrite-argv');
  execFileSync(cc!, [
    '-O1',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-I',
    launcher,
    '-o',
    exe,
    join(repoRoot, 'test', 'linux', 'rewrite-argv.c'),
    join(launcher, 'bwrap-argv.c'),
  ]);
  let n = 0;
  return {
    rewrite(argv) {
      const file = join(dir, `args-${n++}`);
      writeFileSync(file, Buffer.from(argv.map((a) => `${a}\0`).join('')));
      const r = spawnSync(exe, [file], { encoding: 'utf8' });
      if (r.status === 0) return { ok: true, argv: r.stdout === '' ? [] : r.stdout.slice(0, -1).split('\0') };
      if (r.status === 3 || r.status === 4) return { ok: false, changed: r.status === 3, message: r.stderr.trim() };
      throw new Error(`the rewrite driver failed (status ${r.status}): ${r.stderr}`);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
