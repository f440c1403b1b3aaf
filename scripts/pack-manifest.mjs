// `npm pack` and `npm publish`: the packed package.json carries no
// `prepare` script. The package ships the built CLI and needs no script at
// install, but npm 11's install-script policy names a `prepare` of a
// package installed from a tarball (pre-commit installs one) as an install
// script "not yet covered by allowScripts". So prepack builds (npm reads
// the scripts again after prepack, and would find no `prepare` to run), sets
// the manifest aside and writes it without `prepare`, and postpack puts it
// back. A manifest left aside by an interrupted pack is put back first.
//
//   node scripts/pack-manifest.mjs strip     (prepack, after scripts/prepare.mjs)
//   node scripts/pack-manifest.mjs restore   (postpack)
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const aside = join(root, '.package.json.unpacked');

if (existsSync(aside)) renameSync(aside, manifest);
if (process.argv[2] === 'strip') {
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(aside, text);
  writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
} else if (process.argv[2] !== 'restore') {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exit(2);
}
