/**
 * `boxwright run`'s fast path, bundled on its own (dist/cli/run-fast.cjs)
 * and tried by bin/boxwright.cjs before the CLI loads: when the cache holds
 * a sandbox compiled from this very config with these options, and every
 * machine fact its check asked still has the same answer, run the command
 * through that sandbox's launcher, loading neither yargs nor the front end.
 *
 * Anything else — an option it does not read, a missing or changed entry,
 * a changed fact, a command the view does not hold (whose message the full
 * path words) — returns undefined, and the full CLI runs, which checks,
 * compiles, caches and says whatever there is to say. It never runs a
 * command the full path would refuse: it runs only what the full path
 * wrote and would write again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// compiler/paths' modules, not its index: the index re-exports the manifest
// reader, which loads the schema's validators (test/linux/run-fast-bundle.test.ts).
import { hostView } from '../../../compiler/paths/host.js';
import { isUnder } from '../../../compiler/paths/spelling.js';
import type { FsView } from '../../../compiler/paths/view.js';
import { findCommand, parseRunView, runViewName, type RunView } from '../view.js';
import { decodeLandlockRules } from '../landlock/rules.js';
import { sandboxEnv } from '../../run/env.js';
import { artifactStem } from '../../target.js';
import { locateBwrap, lookupHomes } from './sandbox/bwrap.js';
import { cacheRoot } from '../../run/cache-dir.js';
import { changedFact } from './sandbox/facts.js';
import { probeLandlockAbi } from './sandbox/landlock-abi.js';
import { findEntry } from './sandbox/run-cache.js';
import { cacheInputs, landlockFrom, passEnvList, passFdList, principalId, type RunRequest } from './sandbox/run-request.js';
import { sha256Hex } from './sandbox/sha256.js';
import { readInput } from '../../../app/input/read-input.js';
import { runLauncher } from './sandbox/spawn.js';

// The options it reads, each taking a value (any other is the full CLI's), and those that add up: run's one option table.
import { RUN_REPEATABLE, RUN_VALUED as VALUED } from '../../../app/run-options.js';

/** `run [OPTIONS] CONFIG -- CMD ARGS…` in its plainest spellings, or undefined. */
export function parseFast(argv: readonly string[]): RunRequest | undefined {
  if (argv[0] !== 'run') return undefined;
  const dashes = argv.indexOf('--');
  if (dashes < 0 || dashes === argv.length - 1) return undefined;
  const values = new Map<string, string[]>();
  let config: string | undefined;
  let verbose = false;
  for (let i = 1; i < dashes; i++) {
    const a = argv[i]!;
    if (a === '-v' || a === '--verbose') {
      verbose = true;
      continue;
    }
    const m = /^--?([a-z-]+)(?:=(.*))?$/s.exec(a);
    if (m) {
      const name = m[1]!;
      if (!VALUED.has(name) || (name.length === 1) !== (a[1] !== '-')) return undefined;
      const value = m[2] ?? argv[++i];
      // yargs takes no option-like word as a value (`--home -x`: an empty home and an option -x).
      if (value === undefined || i >= dashes || (m[2] === undefined && value.startsWith('-'))) return undefined;
      values.set(name, [...(values.get(name) ?? []), value]);
      continue;
    }
    if (a.startsWith('-') || config !== undefined) return undefined;
    config = a;
  }
  if (!config || config === '-') return undefined; // no config (an empty name is none), or standard input
  const one = (name: string): string | undefined => {
    const v = values.get(name);
    return v === undefined ? undefined : v.length === 1 ? v[0] : undefined;
  };
  // A repeated single-valued option, or one yargs would read otherwise: the full CLI decides.
  for (const [name, v] of values) if (v.length > 1 && !RUN_REPEATABLE.has(name)) return undefined;
  if (values.has('p') && values.has('principal')) return undefined;
  const fds = values.get('pass-fd')?.map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  // Only what can be cached against (the real disk, an absolute home); the full CLI judges the rest and words its errors.
  const fs = one('fs');
  const home = one('home');
  const dialect = one('dialect');
  const socket = one('gateway-socket');
  if (
    (fs !== undefined && fs !== 'host') ||
    (home !== undefined && !home.startsWith('/')) ||
    (socket !== undefined && !socket.startsWith('/'))
  )
    return undefined;
  if (dialect !== undefined && dialect !== 'box' && dialect !== 'tyba') return undefined;
  try {
    return {
      config,
      principal: principalId(one('principal') ?? one('p')),
      command: argv.slice(dashes + 1),
      passEnv: passEnvList(values.get('pass-env')),
      passFds: passFdList(fds),
      verbose,
      fs,
      home,
      dialect,
      worktree: one('worktree'),
      tybaDataDir: one('tyba-data-dir'),
      agentDirs: values.get('agent-dir') ?? [],
      gatewaySocket: socket,
      landlock: landlockFrom(one('landlock')),
      bwrap: one('bwrap'),
    };
  } catch {
    return undefined; // a usage error: the full CLI words it
  }
}

/** Whether the Landlock rules grant execute on `path` (a rule on it, or on a directory above it). */
function executableUnder(rules: Uint8Array, path: string): boolean {
  try {
    return decodeLandlockRules(rules).fs.some((r) => r.rights.includes('execute') && isUnder(path, r.path));
  } catch {
    return false;
  }
}

/** Runs the command from the cache, or undefined: the full CLI takes over. */
export async function runFast(argv: readonly string[]): Promise<number | undefined> {
  if (process.platform !== 'linux') return undefined;
  const req = parseFast(argv);
  if (!req) return undefined;
  // The full path's reader: a FIFO or a device is refused there at once, never read here.
  const input = readInput(req.config);
  if (!('bytes' in input)) return undefined;
  const bytes = input.bytes;
  // The bubblewrap the full path would resolve (the same lookup): part of the key; the launcher checks it is root's.
  const bwrap = locateBwrap({ option: req.bwrap, homes: lookupHomes(req.home) });
  if (!bwrap.found) return undefined;
  const inputs = cacheInputs(req, sha256Hex(bytes), bwrap.path);
  const found = findEntry(cacheRoot(), inputs);
  const why = (reason: string): undefined => {
    if (req.verbose) process.stderr.write(`boxwright run: the cached sandbox is not used: ${reason}; checking the config\n`);
    return undefined;
  };
  if (!found.hit) return found.why === 'no entry' ? undefined : why(found.why);
  const { dir, entry } = found;
  if (!entry.principals.includes(req.principal)) return undefined;
  if (entry.worktree !== null && entry.worktree !== (inputs.worktreeOption ?? process.cwd())) return why('another session worktree');
  const disk: FsView = hostView(inputs.home, { landlockAbi: probeLandlockAbi });
  const changed = changedFact(entry.facts, disk);
  if (changed) return why(changed);
  // The command must be in the view, and executable there: else the full path says why, with its hint.
  let stem: string;
  let view: RunView;
  let rules: Buffer | undefined;
  try {
    stem = artifactStem(req.principal);
    // What the launcher reads must be among the stamped files (a run from a directory that lacks one would refuse, not re-check).
    for (const f of [`${stem}.bwrap.args`, `${stem}.launch`, `${stem}.run`, runViewName(stem)])
      if (!entry.files[f]) return why(`the entry has no ${f}`);
    // The plan's view, kept by the run that wrote the entry: the one the launcher's argv spells.
    view = parseRunView(readFileSync(join(dir, runViewName(stem)), 'utf8'));
    rules = entry.files[`${stem}.landlock`] ? readFileSync(join(dir, `${stem}.landlock`)) : undefined;
  } catch {
    return undefined;
  }
  const env = sandboxEnv(process.env, req.passEnv).env;
  const command = findCommand(view.mounts, req.command[0]!, env, view.chdir ?? process.cwd(), disk);
  if (!command.found || (rules && !executableUnder(rules, command.sandboxPath))) return undefined;
  if (req.verbose) process.stderr.write(`boxwright run: the sandbox cached in ${dir}\n`);
  // Moved aside by a run that rewrote the entry meanwhile: the full path runs it instead.
  return runLauncher({
    launcher: join(dir, `${stem}.run`),
    expect: entry.files[`${stem}.run`],
    command: req.command,
    passEnv: req.passEnv,
    passFds: req.passFds,
    verbose: req.verbose,
    fallback: true,
    argv,
  });
}
