/** boxwright's own package, as the files a run trusts (trusted-files.ts): not in the lint bundle, which needs none of the targets. */
import { join } from 'node:path';
import type { Platform } from '../compiler/diagnostic.js';
import type { TrustedFile } from '../compiler/ir/types.js';
import { packageRoot } from '../targets/linux/launcher/index.js';
import { trustedFile } from './trusted-files.js';

/**
 * boxwright itself, as a run trusts it: what the next command executes
 * outside any sandbox — the entry point (bin/), the bundles, their code
 * caches and boxwright-sandbox (dist/), and package.json (which says what
 * the entry point is). Not the rest of the package directory: a grant of a
 * directory beside them (a scratch directory in a checkout) changes none.
 */
export function boxwrightFiles(platform: Platform): TrustedFile[] {
  const root = packageRoot();
  return root
    ? [
        trustedFile(join(root, 'bin'), 'boxwright', [platform]),
        trustedFile(join(root, 'dist'), 'boxwright', [platform]),
        { ...trustedFile(join(root, 'package.json'), 'boxwright', [platform]), tree: false },
      ]
    : [];
}
