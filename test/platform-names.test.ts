// Issue 38, "the shared pipeline asks, it does not name": outside a
// platform's own folder, product code asks the model which platforms
// report a fact (model/platforms-of.ts) instead of comparing a platform's
// name. The few comparisons that stay are data (test/platform-names.json),
// each with its reason, and every count is held exactly: one more fails
// here, and one fewer asks for the list to be lowered.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers.js';

interface PlatformNames {
  readonly exempt: readonly string[];
  readonly justified: readonly { readonly file: string; readonly count: number; readonly why: string }[];
}
const data = JSON.parse(readFileSync(join(repoRoot, 'test', 'platform-names.json'), 'utf8')) as PlatformNames;

const SOURCE_FOLDERS = ['compiler', 'model', 'rules', 'targets', 'app'];
const NAME = "'(?:macos|linux|windows|darwin|win32)'";
const LIST = `\\[\\s*${NAME}(?:\\s*,\\s*${NAME})*\\s*\\]`;
/**
 * A comparison with a platform's name (or Node's name for a host system),
 * a `case` of one, or a list of names looped over or asked (`for (… of
 * ['macos', 'linux'])`, `['macos', 'linux'].filter(…)`). A message's
 * declared `platforms: [...]` is its table's data, not a decision: not
 * counted.
 */
const PATTERNS: readonly RegExp[] = [
  new RegExp(`[!=]==\\s*${NAME}`, 'g'),
  new RegExp(`${NAME}\\s*[!=]==`, 'g'),
  new RegExp(`\\bcase\\s+${NAME}\\s*:`, 'g'),
  new RegExp(`\\bof\\s+\\(?${LIST}`, 'g'),
  new RegExp(`${LIST}(?:\\s*as\\s+const)?\\)?\\s*\\.(?:filter|map|flatMap|includes|some|every|forEach|find)\\(`, 'g'),
];

/** How many platform-name comparisons a source text holds. */
export function comparisons(text: string): number {
  let n = 0;
  for (const p of PATTERNS) n += text.match(p)?.length ?? 0;
  return n;
}

function productFiles(): string[] {
  const out: string[] = [];
  for (const folder of SOURCE_FOLDERS)
    for (const e of readdirSync(join(repoRoot, folder), { recursive: true, withFileTypes: true }))
      if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
        out.push(relative(repoRoot, join(e.parentPath, e.name)).split(sep).join('/'));
  return out.sort();
}

describe('the shared pipeline names no platform', () => {
  it('the scan finds each spelling of a comparison, and not a message declaration', () => {
    assert.equal(comparisons("if (platform === 'linux') x(); if ('macos' !== p) y();"), 2);
    assert.equal(comparisons("switch (p) { case 'windows': break; }"), 1);
    assert.equal(comparisons("for (const p of ['macos', 'linux'] as const) f(p);"), 1);
    assert.equal(comparisons("const ps = (['macos', 'linux'] as const).filter((p) => ok(p));"), 1);
    assert.equal(comparisons("if (process.platform !== 'darwin') return;"), 1);
    assert.equal(comparisons("messages: { a: { severity: 'info', platforms: ['macos', 'linux'], text: () => 'x' } }"), 0);
    assert.equal(comparisons('const platforms = platformsReporting(ga.notes, "exec-writable");'), 0);
  });

  it("outside the platforms' own folders, only the justified comparisons are left, each counted", () => {
    const found: Record<string, number> = {};
    for (const file of productFiles()) {
      if (data.exempt.some((folder) => file.startsWith(folder))) continue;
      const n = comparisons(readFileSync(join(repoRoot, file), 'utf8'));
      if (n) found[file] = n;
    }
    const allowed = Object.fromEntries(data.justified.map((j) => [j.file, j.count]));
    for (const j of data.justified) assert.ok(j.why.length > 20, `${j.file}: its reason`);
    assert.deepEqual(
      found,
      allowed,
      'a file compares platform names other than test/platform-names.json says: ask the model (model/platforms-of.ts), ' +
        'or lower the count there when a comparison goes',
    );
  });
});
