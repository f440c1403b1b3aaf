/**
 * Which is right where lint and explain disagreed (issue 36): sandbox-runtime
 * 0.0.83's own macOS profile for `denyRead: ["~/"]`, `allowRead:
 * ["~/Codespace"]`, `allowWrite: ["~/Codespace"]`, made by the library
 * itself (macos-sandbox-utils.js, wrapCommandWithSandboxMacOS, the profile
 * it hands sandbox-exec) and read by the tests' SBPL evaluator. Its
 * generateReadRules emits the `allowRead` allows after the `denyRead`
 * denies, and Seatbelt's last matching rule decides: `~/Codespace` is
 * readable and writable (explain's `rwx`), not write-only. Without the
 * allowRead (the control) the deny holds and the root is write-only. The
 * model's macOS cell is held to both.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { checkConfig } from '../../app/check.js';
import { legend } from '../../model/cell.js';
import { manifestView } from '../../compiler/paths/index.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { SbplProfile } from './sbpl-eval.js';
import { readSbpl } from './sbpl-reader.js';

const utils = join(repoRoot, 'node_modules/@anthropic-ai/sandbox-runtime/dist/sandbox/macos-sandbox-utils.js');
const skip = requireOrSkip(existsSync(utils), 'the @anthropic-ai/sandbox-runtime devDependency (npm ci)');
const HOME = '/Users/dev';

/** The words of a POSIX shell command line as sandbox-runtime quotes it: single quotes, double quotes, backslashes. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ') {
      if (word !== undefined) out.push(word);
      word = undefined;
      continue;
    }
    word ??= '';
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') word += line[++i];
    else if (c === '"') {
      for (i++; line[i] !== '"'; i++) word += line[i] === '\\' ? line[++i] : line[i];
    } else word += c;
  }
  if (word !== undefined) out.push(word);
  return out;
}

/**
 * The profile's file rules: `(version 1)`, `default`, and every rule whose
 * operations are all file operations, in their order. The others (process,
 * mach, sysctl, network, with filters this evaluator does not read) decide
 * no file operation: Seatbelt matches a rule only for the operations it names.
 */
function fileRules(profile: string): string {
  const lines = profile.split('\n');
  const { forms } = readSbpl(profile);
  const kept: string[] = [];
  forms.forEach((form, i) => {
    const ops = form.items.slice(1).flatMap((n) => (n.type === 'symbol' ? [n.value] : []));
    const head = form.items[0]?.type === 'symbol' ? form.items[0].value : '';
    const keep = head === 'version' || ops.includes('default') || (ops.length > 0 && ops.every((op) => op.startsWith('file-')));
    const end = i + 1 < forms.length ? forms[i + 1]!.line - 1 : lines.length;
    if (keep) kept.push(...lines.slice(form.line - 1, end));
  });
  // sandbox-runtime writes its regexes as string literals (`(regex "^…\\.git…$")`), which Seatbelt reads as the string's
  // value; the evaluator takes only the raw `#"…"` form, so each is rewritten to it, its escapes undone.
  return kept.join('\n').replace(/\(regex "((?:[^"\\]|\\.)*)"\)/g, (_, body: string) => `(regex #"${body.replace(/\\(.)/g, '$1')}")`);
}

/** sandbox-runtime's macOS profile for these read and write configs (what its sandbox manager hands the wrapper). */
async function srtProfile(denyOnly: string[], allowWithinDeny: string[], allowOnly: string[]): Promise<SbplProfile> {
  const { wrapCommandWithSandboxMacOS } = (await import(pathToFileURL(utils).href)) as {
    wrapCommandWithSandboxMacOS: (p: object) => string;
  };
  const line = wrapCommandWithSandboxMacOS({
    command: 'true',
    needsNetworkRestriction: false,
    readConfig: { denyOnly, allowWithinDeny },
    writeConfig: { allowOnly, denyWithinAllow: [] },
    binShell: 'sh',
  });
  const argv = words(line);
  // Each rule carries `(with message "LOGTAG")`, an action modifier that names the violation in the log (sandbox-runtime
  // attributes violations to commands by it) and does not take part in the decision. The evaluator reads no modifier,
  // so they are taken out here, each one by its exact shape: anything else it does not know still fails the load.
  const profile = argv[argv.indexOf('-p') + 1]!;
  const modifier = /[ \n]*\(with message "CMD64_[A-Za-z0-9+/=_]*_SBX"\)/g;
  assert.match(profile, modifier);
  return new SbplProfile(fileRules(profile.replace(modifier, '')));
}

function modelCell(allowRead: string[]): string {
  const text = JSON.stringify({
    filesystem: { denyRead: ['~/'], allowRead, allowWrite: ['~/Codespace'], denyWrite: [] },
    network: { allowedDomains: [], deniedDomains: [] },
  });
  const view = manifestView(JSON.stringify({ home: HOME, entries: { [`${HOME}/Codespace`]: 'dir' } }), 'm.json');
  const r = checkConfig(Buffer.from(text), { file: 'srt-settings.json', view, worktree: `${HOME}/Codespace` });
  const row = r.model!.principals[0]!.grants.find((g) => g.grant.access === 'read-write' && g.grant.path === `${HOME}/Codespace`);
  return legend(row!.effective.macos);
}

describe("sandbox-runtime's own macOS profile decides the reopened cell (issue 36)", { skip }, () => {
  const file = `${HOME}/Codespace/main.ts`;
  it('an allowRead at the write root re-opens reading after the deny: rwx, as explain says', async () => {
    const p = await srtProfile([HOME], [`${HOME}/Codespace`], [`${HOME}/Codespace`]);
    assert.equal(p.allows({ operation: 'file-read-data', path: file, vnode: 'REGULAR-FILE' }), true);
    assert.equal(p.allows({ operation: 'file-write-data', path: file, vnode: 'REGULAR-FILE' }), true);
    assert.equal(modelCell(['~/Codespace']), 'rwx');
  });
  it('control: without the allowRead the deny holds: write-only, as deny-read-reopened [macos] says', async () => {
    const p = await srtProfile([HOME], [], [`${HOME}/Codespace`]);
    assert.equal(p.allows({ operation: 'file-read-data', path: file, vnode: 'REGULAR-FILE' }), false);
    assert.equal(p.allows({ operation: 'file-write-data', path: file, vnode: 'REGULAR-FILE' }), true);
    assert.equal(modelCell([]), 'w');
  });
});
