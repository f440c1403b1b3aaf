// boxwright as another user runs it. A test that switches to uid 65534
// cannot run the checkout's own bin/: in a checkout under a 0700 directory
// (root's /root, a `mktemp -d`) that user cannot even reach it, and the run
// fails with "Cannot find module" before boxwright starts. So such a run
// gets an install of its own: the files the package holds (package.json's
// `files`, and the manifest) copied into a directory of the run's temporary
// directory, readable by everyone, made once per test process and removed
// when it ends. test/linux/private-checkout.test.ts runs those tests from a
// checkout under a 0700 directory.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../helpers.js';

const installs = new Map<number, string>();
process.on('exit', () => {
  for (const dir of installs.values()) rmSync(dir, { recursive: true, force: true });
});

/** Every file and directory under `p` readable by all, directories and executables searchable (a checkout made under umask 077 is not). */
function openToAll(p: string): void {
  const st = statSync(p);
  const mode = st.mode & 0o7777;
  const wanted = mode | 0o044 | (st.isDirectory() || mode & 0o100 ? 0o011 : 0);
  if (wanted !== mode) chmodSync(p, wanted);
  if (st.isDirectory()) for (const e of readdirSync(p)) openToAll(join(p, e));
}

/**
 * The first directory on the way to `path` (itself included when it is
 * one) that `uid` (and its group, of the same number) cannot search, or
 * undefined when it reaches it.
 */
export function blockingDirectory(path: string, uid: number): string | undefined {
  const dirs: string[] = [];
  let p = realpathSync(path);
  if (statSync(p).isDirectory()) dirs.push(p);
  while (dirname(p) !== p) dirs.push((p = dirname(p)));
  for (const d of dirs.reverse()) {
    const st = statSync(d);
    const bit = st.uid === uid ? 0o100 : st.gid === uid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) return d;
  }
  return undefined;
}

/** Throws, naming the directory in the way, unless `uid` reaches every one of `paths`. */
export function assertReachable(uid: number, paths: Readonly<Record<string, string>>): void {
  for (const [what, path] of Object.entries(paths)) {
    const blocked = blockingDirectory(path, uid);
    if (blocked !== undefined)
      throw new Error(
        `uid ${uid} cannot reach ${what} (${path}): it cannot enter ${blocked} (mode ${(statSync(blocked).mode & 0o777).toString(8)}); put it where other users can (TMPDIR for the tests' scratch, Node.js installed system-wide)`,
      );
  }
}

/**
 * bin/boxwright.cjs of an install that `uid` can run: this checkout's
 * package files, copied under the run's temporary directory (so a run as
 * that user cannot write it: the code cache is skipped, as in a read-only
 * install).
 */
export function boxwrightFor(uid: number): string {
  let dir = installs.get(uid);
  if (dir === undefined) {
    dir = mkdtempSync(join(tmpdir(), `boxwright-install-for-${uid}-`));
    installs.set(uid, dir);
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    for (const f of ['package.json', ...manifest.files])
      if (existsSync(join(repoRoot, f))) cpSync(join(repoRoot, f), join(dir, f), { recursive: true });
    openToAll(dir);
  }
  const bin = join(dir, 'bin', 'boxwright.cjs');
  assertReachable(uid, { 'the copy of boxwright': bin, node: process.execPath });
  return bin;
}
