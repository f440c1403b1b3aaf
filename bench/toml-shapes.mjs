#!/usr/bin/env node
// Parse time of boxwright's TOML parser on the large-document shapes that were
// once quadratic (issue 13 item 3), each at a size and at ten times that size:
//
//   multiline-array   one multi-line array of short strings (crosses every 64 KiB window)
//   multiline-string  one huge multi-line basic string
//   blank-lines       `a = 1`, then blank lines and no header, then `b = 2`
//   open-arrays       `a = [` lines: a syntax error on every line (error recovery)
//
// usage: node bench/toml-shapes.mjs [--runs 3] [--only NAME] [--scale 1]
//        (build first: node scripts/build.mjs)
//
// One child process per (parser, shape, size): it builds the document, parses
// it once to warm up and `--runs` more times, and reports the median.
// boxwright parses the UTF-8 bytes, smol-toml 1.9.1 (the baseline, linear on
// these shapes) the string. Linear time means time_ratio ≈ size_ratio (10);
// the figure that matters is per_size = time_ratio / size_ratio (≈ 1 when
// linear, ≈ 10 when quadratic), next to smol-toml's on the same machine in
// the same run (garbage collection of a larger heap costs both something).
// smol-toml rejects the open-arrays shape at its first error, so it has no
// baseline there.
// Prints one JSON line:
//   {"bench":"toml-shapes","shapes":{NAME:{small,large,size_ratio,time_ratio,per_size,smoltoml:{...}}}}
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, repoRoot } from './lib.mjs';

const MB = 1e6;

/** Each shape: a document of about `bytes` bytes, and whether it is valid TOML. */
const shapes = {
  'multiline-array': {
    valid: true,
    sizes: [0.94 * MB, 9.4 * MB],
    make(bytes) {
      const line = '  "item-0000000",\n';
      return 'a = [\n' + line.repeat(Math.ceil(bytes / line.length)) + ']\n';
    },
  },
  'multiline-string': {
    valid: true,
    sizes: [0.94 * MB, 9.4 * MB],
    make(bytes) {
      const line = 'lorem ipsum dolor sit amet, [not.a.header] "quoted" \\t escaped\n';
      return 's = """\n' + line.repeat(Math.ceil(bytes / line.length)) + '"""\n';
    },
  },
  'blank-lines': {
    valid: true,
    sizes: [0.8 * MB, 8 * MB],
    make(bytes) {
      return 'a = 1\n' + '\n'.repeat(bytes) + 'b = 2\n';
    },
  },
  'open-arrays': {
    valid: false,
    sizes: [0.1 * MB, 1 * MB],
    make(bytes) {
      return 'a = [\n'.repeat(Math.ceil(bytes / 6));
    },
  },
};

// ---------------------------------------------------------------- child
if (process.argv[2] === '--child') {
  const [, , , which, name, bytesText, runsText] = process.argv;
  const shape = shapes[name];
  const text = shape.make(Number(bytesText));
  const bytes = Buffer.from(text, 'utf8');
  let parse;
  if (which === 'boxwright') {
    const { parseToml } = await import(pathToFileURL(join(repoRoot, 'dist', 'compiler', 'toml', 'index.js')).href);
    parse = () => {
      const r = parseToml(bytes);
      if (shape.valid && r.errors.length > 0) throw new Error(`${name}: rejected: ${r.errors[0].message}`);
      if (!shape.valid && r.errors.length === 0) throw new Error(`${name}: accepted an invalid document`);
      return r.errors.length;
    };
  } else {
    const { parse: smolParse } = await import('smol-toml');
    parse = () => {
      smolParse(text);
      return 0;
    };
  }
  const errors = parse();
  const times = [];
  for (let i = 0; i < Number(runsText); i++) {
    const t = performance.now();
    parse();
    times.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ bytes: bytes.length, median: median(times), errors }) + '\n');
  process.exit(0);
}

// ---------------------------------------------------------------- parent
const opt = { runs: 3, only: undefined, scale: 1 };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') opt.runs = Number(args[++i]);
  else if (args[i] === '--only') opt.only = args[++i];
  else if (args[i] === '--scale') opt.scale = Number(args[++i]);
  else {
    console.error(`unknown argument ${args[i]}`);
    process.exit(2);
  }
}

const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const out = {};
for (const [name, shape] of Object.entries(shapes)) {
  if (opt.only !== undefined && name !== opt.only) continue;
  const measure = (which, size) => {
    const r = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', which, name, String(Math.round(size * opt.scale)), String(opt.runs)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    );
    if (r.status !== 0) throw new Error(`${name} child failed: ${r.stderr}`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop());
    return { bytes: m.bytes, ms: round(m.median), mb_s: round(m.bytes / MB / (m.median / 1000)), errors: m.errors };
  };
  const figures = (which) => {
    const [small, large] = shape.sizes.map((size) => measure(which, size));
    const sizeRatio = large.bytes / small.bytes;
    const timeRatio = large.ms / small.ms;
    return { small, large, size_ratio: round(sizeRatio, 2), time_ratio: round(timeRatio, 2), per_size: round(timeRatio / sizeRatio, 2) };
  };
  out[name] = figures('boxwright');
  if (shape.valid) {
    const { small, large, per_size } = figures('smol-toml');
    out[name].smoltoml = { small_ms: small.ms, large_ms: large.ms, per_size };
  }
}
process.stdout.write(JSON.stringify({ bench: 'toml-shapes', runs: opt.runs, shapes: out }) + '\n');
