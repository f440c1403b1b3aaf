// Property tests: hostile path spellings can never become SBPL syntax. Paths
// built from quotes, backslashes, parentheses, semicolons, spaces, `#` and
// non-ASCII are granted in every list; each profile is read back with the
// tests' own reader: the file rules name exactly the granted paths, the
// profile has the same shape as one compiled with tame paths, and denies
// stay last. A control character makes macOS refuse, and the emitter throws.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CompileOutcome } from '../../app/cli/compile.js';
import { baselinePaths } from '../../targets/macos/baseline.js';
import { BANNER } from '../../targets/macos/profile.js';
import { compileText } from '../compile-helpers.js';
import { shape, stringsOf, pathFilters } from './sbpl-reader.js';
import { artifactsOf, assertDeniesLast, assertNoContentRead, expectedFilePaths, parseProfile, principalsOf } from './support.js';
import { runs } from '../budget.js';

const LISTS = ['read', 'write', 'read_file', 'write_file', 'list', 'metadata', 'exec', 'deny'] as const;
type List = (typeof LISTS)[number];

/** Characters that mean something in SBPL, Scheme, TOML or a shell, and some non-ASCII; no control characters. */
const HOSTILE = [
  '"',
  '\\',
  '(',
  ')',
  ';',
  ' ',
  '#',
  '|',
  '$',
  '*',
  '[',
  ']',
  '{',
  '}',
  "'",
  '`',
  '.',
  '-',
  'é',
  'ß',
  '日',
  '本',
  '🙂',
  '\u00a0',
  '\u2028',
  '\u0085',
  '\u00ad',
  'a',
  'b',
  'Z',
  '0',
];
const segment = fc.string({ unit: fc.constantFrom(...HOSTILE), minLength: 1, maxLength: 6 }).filter((s) => s !== '.' && s !== '..');
const hostilePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segs) => `/home/dev/p/${segs.join('/')}`);
const grants = fc.array(fc.record({ list: fc.constantFrom(...LISTS), path: hostilePath }), { minLength: 1, maxLength: 7 });

/**
 * A TOML basic string: JSON.stringify escapes `"`, `\\` and C0 controls in
 * ways TOML shares; DEL, which JSON leaves raw and TOML forbids raw, is
 * escaped too. (No lone surrogates are ever generated.)
 */
const tomlString = (s: string): string => JSON.stringify(s).replace(/\u007f/g, '\\u007F');

/** A Box config granting the paths. */
function configText(gs: readonly { list: List; path: string }[]): string {
  const byList = new Map<List, string[]>();
  for (const g of gs) byList.set(g.list, [...(byList.get(g.list) ?? []), g.path]);
  const lines = ['[agent.filesystem]'];
  for (const list of LISTS) if (byList.has(list)) lines.push(`${list} = [${byList.get(list)!.map(tomlString).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

const compileNone = (text: string, force = false): Promise<CompileOutcome> =>
  compileText(text, 'macos', { fs: 'none', home: '/home/dev', ...(force ? { force: true } : {}) });

const ancestors = (p: string): string[] => {
  const parts = p.split('/').filter(Boolean);
  return ['/', ...parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
};

describe('macos: hostile paths (property)', () => {
  it('every granted path round-trips exactly, and nothing else becomes syntax', async () => {
    await fc.assert(
      fc.asyncProperty(grants, async (gs) => {
        const outcome = await compileNone(configText(gs));
        assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
        assert.notEqual(outcome.check.verdicts.macos, 'refused');
        const [artifact] = artifactsOf(outcome);
        assert.equal(artifact!.name, 'agent.sb');
        const profile = parseProfile(artifact!.content);

        // The file rules name exactly the granted paths (and the host-trusted names inside the write trees, which the model derives from them).
        const granted = new Set(gs.map((g) => g.path));
        assert.deepEqual(new Set(profile.fileRules.flatMap(stringsOf)), expectedFilePaths(outcome, outcome.check.model!.principals[0]!));

        // Path resolution names exactly / and the directories leading to non-deny grants (and the baseline's).
        const expectedDirs = new Set([...baselinePaths, ...gs.filter((g) => g.list !== 'deny').map((g) => g.path)].flatMap(ancestors));
        assert.deepEqual(
          new Set(
            profile.sections
              .get('resolution')!
              .flatMap(pathFilters)
              .map((f) => f.path),
          ),
          expectedDirs,
        );

        // The same shape as the profile of tame paths: a hostile path adds no form and changes no structure.
        const tame = new Map([...granted].map((p, i) => [p, `/home/dev/p/${'t'.repeat(i + 1)}`]));
        const tameOutcome = await compileNone(configText(gs.map((g) => ({ list: g.list, path: tame.get(g.path)! }))));
        const tameProfile = parseProfile(artifactsOf(tameOutcome)[0]!.content);
        assert.equal(profile.forms.length, tameProfile.forms.length);
        // A path derived from a granted one (a host-trusted name inside a write tree) is renamed by its granted prefix.
        const tamed = (s: string): string => {
          if (tame.has(s)) return tame.get(s)!;
          const base = [...tame.keys()].filter((p) => s.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0];
          return base ? tame.get(base)! + s.slice(base.length) : s;
        };
        const rename = (n: unknown): unknown =>
          Array.isArray(n)
            ? n.map(rename)
            : typeof n === 'object' && n !== null && 'string' in n
              ? { string: tamed((n as { string: string }).string) }
              : n;
        assert.deepEqual(
          profile.fileRules.map((f) => rename(shape(f))),
          tameProfile.fileRules.map(shape),
        );
        const fileComments = (p: typeof profile): number => {
          const start = p.comments.find((c) => c.text === BANNER.files)!.line;
          return p.comments.filter((c) => c.line >= start).length;
        };
        assert.equal(fileComments(profile), fileComments(tameProfile), 'a path cannot end a comment early');

        // Denies last; write-only stays write-only.
        assertDeniesLast(profile, 'agent.sb');
        for (const ga of principalsOf(outcome)[0]!.grants) {
          const cell = ga.effective.macos;
          if (ga.grant.path && cell.kind === 'access' && cell.write && !cell.read)
            assertNoContentRead(profile, ga.grant.path, 'agent.sb', cell.names);
        }
      }),
      { numRuns: runs(150) },
    );
  });

  it('a control character makes macOS refuse, and the emitter throws even with --force', async () => {
    const control = fc.integer({ min: 0, max: 0x20 }).map((c) => String.fromCharCode(c === 0x20 ? 0x7f : c));
    await fc.assert(
      fc.asyncProperty(hostilePath, control, fc.constantFrom(...LISTS), fc.nat(), async (path, c, list, at) => {
        const points = Array.from(path); // cut between code points, never inside a surrogate pair
        const cut = 12 + (at % (points.length - 11));
        const bad = points.slice(0, cut).join('') + c + points.slice(cut).join('');
        const text = configText([{ list, path: bad }]);
        const outcome = await compileNone(text);
        assert.equal(outcome.ok, false);
        assert.equal(outcome.check.verdicts.macos, 'refused');
        await assert.rejects(compileNone(text, true), /control character/);
      }),
      { numRuns: runs(60) },
    );
  });
});
