#!/usr/bin/env node
'use strict';
// The boxwright command. It loads the bundled CLI (dist/cli/boxwright.cjs)
// through a V8 code cache: start-up is most of a lint's time, and compiling
// ~1 MB of JavaScript at every run costs about a third more (bench/README.md).
//
// The cache belongs to the machine that runs boxwright, not to the one that
// built it: V8 accepts cached data only from the same V8 version and flags,
// and rejects any other (another Node version, a truncated file) — then the
// CLI compiles as usual and nothing else changes. So the package ships no
// cache: the first run of each command writes one beside the bundle (when
// the install directory is writable), from what that run compiled on top of
// the cache it found, and later runs load it. A read-only install works
// without one.
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = join(__dirname, '..', 'dist', 'cli');
/**
 * The commands that dist/cli/lint.cjs holds (scripts/bundles.mjs keeps the
 * same list): the CLI without the targets and the sandbox, ~30% smaller, so
 * that a lint reads and deserialises less. Every other command, and help,
 * loads the full dist/cli/boxwright.cjs.
 */
const LIGHT_COMMANDS = ['lint', 'parse', 'schema', 'rules'];
/**
 * A lint that fixes runs from the full bundle: lint.cjs leaves the fix loop
 * and the `diff` package out (scripts/bundles.mjs keeps the same list). Any
 * argument that could be one of them counts (`--no-diff`, `--fix=true`,
 * yargs' camel case); a file named so after `--` only costs the bigger bundle.
 */
const FIX_OPTIONS = ['--fix', '--unsafe-fixes', '--diff'];
const fixes = (args) =>
  args.some(
    (a) =>
      FIX_OPTIONS.some((o) => [o, `--no-${o.slice(2)}`].some((n) => a === n || a.startsWith(`${n}=`))) || a.startsWith('--unsafeFixes'),
  );
/** The language server's command, in dist/cli/lsp.cjs: the only bundle with vscode-languageserver (scripts/bundles.mjs). */
const LSP_COMMANDS = ['lsp'];

// `boxwright run` from the cache: dist/cli/run-fast.cjs runs a command in a
// sandbox compiled earlier from the same config, when nothing it depends on
// changed, without loading the CLI (targets/linux/run/run-fast.ts). Whenever it cannot
// (undefined, or any failure before it started the launcher), the CLI runs
// and checks the config itself.
if (process.argv[2] === 'run' && process.env.BOXWRIGHT_RUN_CACHE !== 'off') {
  let fast;
  try {
    // Through a code cache too: compiling its ~60 KB at every run cost ~2 ms of a ~35 ms run (bench/README.md).
    fast = loadBundle(join(dir, 'run-fast.cjs'));
  } catch {
    fast = undefined;
  }
  if (fast) {
    fast.runFast(process.argv.slice(2)).then(
      (code) => (code === undefined ? cli() : (process.exitCode = code)),
      () => cli(),
    );
  } else cli();
} else cli();

function cli() {
  const command = process.argv[2] ?? '';
  const light = LIGHT_COMMANDS.includes(command) && !(command === 'lint' && fixes(process.argv.slice(3)));
  if (light) writeStdioDirectly();
  const file = join(dir, light ? 'lint.cjs' : LSP_COMMANDS.includes(command) ? 'lsp.cjs' : 'boxwright.cjs');
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    process.stderr.write('boxwright: the CLI is not built; run `npm run build` (npm ci does it)\n');
    process.exit(2);
  }
  loadBundle(file, source).run(process.argv.slice(2));
}

/** Loads one of the bundles (CommonJS) through its code cache, as the comment at the top says; returns its exports. */
function loadBundle(file, source = readFileSync(file, 'utf8')) {
  // Required here, not above: the cheapest start loads only what it uses.
  const { Script } = require('node:vm');
  const Module = require('node:module');
  const cacheFile = `${file}.cache`;
  /** The commands whose runs the cache holds, for this Node: a first run of another one adds what it compiles. */
  const coverageFile = `${cacheFile}.json`;
  // BOXWRIGHT_CODE_CACHE=off: neither read nor write one (bench/code-cache.mjs measures what it saves).
  // NODE_OPTIONS is for the programs boxwright runs (`NODE_OPTIONS=--jitless
  // boxwright run --pass-env NODE_OPTIONS …`), not for boxwright: V8 accepts
  // a cache only under the flags it was made with, and checking one under
  // others prints V8's flag warnings on every call ("disabling flag
  // --expose_wasm due to conflicting flags"), so with NODE_OPTIONS set there
  // is none, read or written; the CLI compiles as it does without a cache.
  const useCache = process.env.BOXWRIGHT_CODE_CACHE !== 'off' && !process.env.NODE_OPTIONS;
  let cachedData;
  try {
    cachedData = useCache ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  const command = process.argv[2] ?? '';
  const node = `${process.version} ${process.arch}`;
  let covered = [];
  if (accepted) {
    try {
      const c = JSON.parse(readFileSync(coverageFile, 'utf8'));
      if (c.node === node && Array.isArray(c.commands)) covered = c.commands;
    } catch {
      covered = [];
    }
  }
  const refresh = useCache && (!accepted || !covered.includes(command) || process.env.BOXWRIGHT_WRITE_CODE_CACHE === '1');
  const mod = { exports: {}, filename: file, id: file };
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, dir);
  if (refresh) {
    process.once('exit', () => {
      // Written aside and renamed, so that a run starting meanwhile reads the old cache or the new one, never half of one.
      const write = (target, data) => {
        const aside = `${target}.${process.pid}.tmp`;
        try {
          writeFileSync(aside, data);
          renameSync(aside, target);
        } catch (e) {
          rmSync(aside, { force: true });
          throw e;
        }
      };
      try {
        write(cacheFile, script.createCachedData());
        write(coverageFile, JSON.stringify({ node, commands: [...new Set([...covered, command])].sort() }) + '\n');
      } catch {
        // A read-only install keeps working without a cache.
      }
    });
  }
  return mod.exports;
}

/**
 * process.stdout and process.stderr for the light commands, when they are a
 * pipe, a file, a socket or /dev/null (a hook's, CI's, `| grep`): each write goes to the
 * descriptor at once with fs.writeSync, as Node's own streams do there on
 * Linux and macOS (synchronous for files, pipes and sockets), without loading
 * them. Node's stream for a pipe is a net.Socket: the first touch of
 * process.stdout loaded net, the streams and their bindings, ~4 ms of CPU of
 * a ~25 ms Node start (bench/README.md), and yargs and kleur touch it at
 * import. A terminal keeps Node's own stream (colours, columns, TTY
 * handling); so does Windows, where pipes are asynchronous.
 *
 * Only what the CLI and Node's console use of a stream: write (string or
 * bytes, an optional encoding and callback), end, the events ('error' as a stream emits it:
 * app/cli/entry.ts drops a closed pipe's EPIPE quietly, anything else
 * throws). A full non-blocking pipe (EAGAIN) is waited on, never dropped.
 */
function writeStdioDirectly() {
  if (process.platform === 'win32') return;
  const { fstatSync, statSync, writeSync } = require('node:fs');
  const EventEmitter = require('node:events');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  // A character device is a terminal unless it is /dev/null (`lint … >/dev/null`, to keep the exit status only).
  let devNull;
  const isDevNull = (stat) => {
    if (!stat.isCharacterDevice()) return false;
    try {
      devNull ??= statSync('/dev/null').rdev;
    } catch {
      return false;
    }
    return stat.rdev === devNull;
  };
  class DescriptorWriter extends EventEmitter {
    constructor(fd) {
      super();
      this.fd = fd;
      this.writable = true;
      this.failed = false;
      // What Node's console reads of a stream when a write's callback reports an error.
      this._writableState = { errorEmitted: false };
    }
    write(chunk, encoding, callback) {
      if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
      let failure = null;
      if (!this.failed) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : chunk;
        for (let at = 0; at < bytes.length; ) {
          try {
            at += writeSync(this.fd, bytes, at, bytes.length - at);
          } catch (e) {
            if (e.code === 'EAGAIN') {
              Atomics.wait(pause, 0, 0, 1);
              continue;
            }
            this.failed = true;
            this.writable = false;
            failure = e;
            break;
          }
        }
      }
      // As Node's Writable: the callback first (null after a write that succeeded: console.log tests
      // `err !== null`, and on an error it adds a listener so that its own writes do not throw), then
      // the 'error' event; the rest goes nowhere (the reader closed the pipe: EPIPE).
      if (callback) process.nextTick(callback, failure);
      if (failure)
        process.nextTick(() => {
          this._writableState.errorEmitted = true;
          this.emit('error', failure);
        });
      return true;
    }
    end(chunk, encoding, callback) {
      if (typeof chunk === 'function') [callback, chunk] = [chunk, undefined];
      if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
      this.writable = false;
      process.nextTick(() => {
        this.emit('finish');
        if (callback) callback();
      });
      return this;
    }
  }
  for (const [name, fd] of [
    ['stdout', 1],
    ['stderr', 2],
  ]) {
    let stat;
    try {
      stat = fstatSync(fd);
    } catch {
      continue; // closed: Node's own stream says so
    }
    if (!stat.isFIFO() && !stat.isFile() && !stat.isSocket() && !isDevNull(stat)) continue;
    const writer = new DescriptorWriter(fd);
    Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => writer });
  }
}
