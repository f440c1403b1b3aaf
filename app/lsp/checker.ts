/**
 * How the language server checks a document: as `boxwright lint` checks the
 * file at the document's path, with the options the server was started
 * with (`--fs`, `--home`, `--platform`…; the host view by default), but the
 * text the editor holds, not the bytes on disk. The path still matters:
 * it picks the dialect (`.claude/settings.json`, `.codex/config.toml`),
 * and the file there is the config whose writers are judged.
 *
 * A document that is no sandbox config (a `Cargo.toml`, a `package.json`:
 * an editor starts the server for every TOML and JSON file) is passed
 * over, as lint passes over the files a directory holds; `--dialect`
 * checks every document as that dialect.
 */
import { fileURLToPath } from 'node:url';
import { sandboxConfigKind } from '../../compiler/schema/dialect.js';
import type { CheckResult } from '../check.js';
import { type ConfigArgs, configReader, platformsFrom, type ReaderPlace } from '../cli/options.js';

export interface LspArgs extends ConfigArgs {
  platform?: string | string[];
}

export type Checked =
  | { readonly result: CheckResult; readonly recheck: (text: string) => CheckResult }
  /** Not a sandbox config: why, for the server's log. */
  | { readonly passedOver: string };

export interface DocumentChecker {
  check(text: string, uri: string): Checked;
}

/** A file URI's path; another scheme's document (an unsaved buffer) has none, and its URI is its name. */
export function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The checker for these options; a bad option (an unreadable `--fs` manifest) is a usage error now, not at the first document. */
export function documentChecker(args: LspArgs, place: ReaderPlace): DocumentChecker {
  const platforms = platformsFrom(args.platform);
  configReader(args, undefined, undefined, undefined, place);
  return {
    check(text, uri) {
      const path = pathOf(uri);
      const name = path ?? uri;
      const bytes = Buffer.from(text, 'utf8');
      if (!args.dialect) {
        const kind = sandboxConfigKind(bytes, name);
        if ('peer' in kind) return { passedOver: `${name} is ${kind.peer.what}, which boxwright has no dialect for yet` };
        if (!kind.config) return { passedOver: `${name} holds no sandbox config (no key of a dialect boxwright reads)` };
      }
      // A reader per check: the facts of the disk as they are now (a server runs for hours), shared by the check and its fixes' rechecks.
      const reader = configReader(args, undefined, undefined, undefined, place);
      const run = (b: Uint8Array): CheckResult => (path ? reader.checkRead(b, path, platforms) : reader.check(b, uri, platforms));
      return { result: run(bytes), recheck: (t) => run(Buffer.from(t, 'utf8')) };
    },
  };
}
