// Where the TOML compliance tests find the official suite, and what they
// say when it is not there. The suite is toml-lang/toml-test's data (the
// `.toml` cases, their tagged-JSON answers, the per-version file lists),
// which this repository does not vendor: CI lays a copy at ../shared/toml-test
// beside the checkout (/work/shared/toml-test/README.md says what it holds);
// elsewhere BOXWRIGHT_TOML_TEST names one, such as upstream's own tests/.
// Without either, the tests skip with this banner, and under CI they fail,
// as every test missing what it needs does (test/helpers.ts requireOrSkip).
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { requireOrSkip, sharedDir } from '../helpers.js';

export const TOML_TEST_ENV = 'BOXWRIGHT_TOML_TEST';
/** The upstream commit the copy in ../shared/toml-test was taken at (`git describe`: v2.2.0-12-gd168c2a, 2026-08-16). */
export const TOML_TEST_COMMIT = 'd168c2a4f539a5219c804055af1600b8cf9ca6d7';

const WHAT = `the toml-test suite (${TOML_TEST_ENV}, or ../shared/toml-test beside the checkout)`;
const HOW =
  `It is the official TOML compliance suite, https://github.com/toml-lang/toml-test at commit ${TOML_TEST_COMMIT.slice(0, 12)} (v2.2.0 and 12 commits), its tests/ directory: ` +
  `git clone https://github.com/toml-lang/toml-test && git -C toml-test checkout ${TOML_TEST_COMMIT.slice(0, 12)}, then ${TOML_TEST_ENV}=$PWD/toml-test/tests npm test`;

/**
 * The directory that holds the suite (files-toml-1.0.0, valid/, invalid/):
 * $BOXWRIGHT_TOML_TEST when set — which must then hold it: a wrong path is an
 * error, never a skip — else ../shared/toml-test when it holds it.
 */
export function tomlTestDir(): string | undefined {
  const named = process.env[TOML_TEST_ENV];
  if (named) {
    const dir = isAbsolute(named) ? named : resolve(named);
    if (!existsSync(join(dir, 'files-toml-1.0.0')))
      throw new Error(`${TOML_TEST_ENV}=${named} holds no files-toml-1.0.0: it names the toml-test suite's tests/ directory`);
    return dir;
  }
  const shared = sharedDir();
  const dir = shared === undefined ? undefined : join(shared, 'toml-test');
  return dir !== undefined && existsSync(join(dir, 'files-toml-1.0.0')) ? dir : undefined;
}

/** The suite's directory, and the skip reason (a banner on stderr; under CI a throw) when it has none. */
export interface TomlTestSuite {
  readonly dir: string | undefined;
  /** requireOrSkip's answer (test/suite.test.ts reads every `skip` of the sources for that). */
  readonly skipReason: string | undefined;
}

export function tomlTestSuite(): TomlTestSuite {
  const dir = tomlTestDir();
  const skipReason = requireOrSkip(dir !== undefined, WHAT, HOW);
  return { dir, skipReason };
}
