// Build in a source checkout: npm runs `prepare` after `npm ci` or
// `npm install` in a clone, and when it prepares a git dependency
// (`npm install -g github:…`, `git+file://…`) before packing it. An
// installed package (from the registry or a tarball) runs no script at all:
// it ships the built CLI, so npm 11's install-script policy has nothing to
// warn about.
//
// npm prints a lifecycle script's banner on stdout inside `npm pack`, and
// pre-commit takes `npm pack`'s stdout as the tarball's name: the
// repository's .npmrc sets `foreground-scripts=false`, so that `npm pack`
// prints the name alone (test/precommit.test.ts installs the hook for real).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'tsconfig.json')) || !existsSync(join(root, 'compiler'))) process.exit(0);

// A git dependency is prepared in two steps: pacote runs `npm install` in
// its clone (with _PACOTE_NO_PREPARE_ set), then packs the clone, running
// `prepare` again there. The first step inherits the outer command's
// configuration, `global=true` included (npm/cli#8440, fixed in pacote by
// passing --global=false): npm then installs no devDependencies in the
// clone, so the build has no tsc; and it links the clone into the global
// node_modules, over the directory the outer install is about to extract
// the packed tarball into, which then lands in the clone and is deleted
// with it (npm/cli#3692: a dangling global install). So, in that first
// step: put the directory back, install the devDependencies into the clone,
// and leave the build to the second step.
const firstStepOfGitDependency = process.env._PACOTE_NO_PREPARE_ !== undefined;
if (firstStepOfGitDependency && process.env.npm_config_global === 'true') {
  const prefix = process.env.npm_config_global_prefix ?? process.env.npm_config_prefix;
  const name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
  const linked = prefix && join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', name);
  try {
    if (linked && lstatSync(linked).isSymbolicLink() && realpathSync(linked) === realpathSync(root)) {
      unlinkSync(linked);
      mkdirSync(linked);
    }
  } catch {
    // Nothing linked there: nothing to put back.
  }
}
// The devDependencies, as a local install into this directory, from the
// same cache and with the same offline settings (npm passes them down in
// the environment).
if (!existsSync(join(root, 'node_modules', 'typescript', 'package.json'))) {
  const npm = process.env.npm_execpath;
  const [cmd, pre] = npm && /\.[cm]?js$/.test(npm) ? [process.execPath, [npm]] : ['npm', []];
  const args = [
    ...pre,
    'ci',
    '--global=false',
    '--location=project',
    `--prefix=${root}`,
    '--include=dev',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
  ];
  process.stderr.write(`boxwright: installing the build's devDependencies in ${root}\n`);
  // Not the outer command's --allow-scripts either, which npm refuses in a project install (this one runs no script).
  const { npm_config_allow_scripts: _allowed, ...env } = process.env;
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 2, 2], env: { ...env, npm_config_global: 'false' } });
  if (r.status !== 0) {
    process.stderr.write(
      `boxwright: cannot install the build's devDependencies (npm ${args.slice(pre.length).join(' ')} exited ${r.status ?? r.signal})\n`,
    );
    process.exit(1);
  }
}
// A build of these very sources already in dist/ (npm install, then npm pack) is not made again;
// a publish always builds from scratch: what goes to the registry is built from the sources there and then.
if (!firstStepOfGitDependency) {
  if (process.env.npm_command !== 'publish') process.argv.push('--if-changed');
  await import('./build.mjs');
}
