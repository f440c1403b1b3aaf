/**
 * One decision for lint and explain (issue 36, Done-when 2): for generated
 * sandbox-runtime and Claude Code settings over a generated tree, every
 * per-path claim lint makes is held to the cell explain shows at that path,
 * both ways. `deny-read-reopened` [macos] says a write root is write-only:
 * explain's macOS cell there has `w` and no `r`, and every write root inside
 * a read deny whose macOS cell is write-only is named. [linux] says the
 * write root is readable on Linux and not on macOS: the two cells say so.
 * `read-deny-scratch` says a read-denied directory is a tmpfs on Linux:
 * explain's Linux cell is `scratch`, and every `scratch` deny row is named.
 * `absent-path` says an absent write root is not writable on Linux (and,
 * where it says so, writable on macOS), an absent read deny readable on
 * Linux (and denied on macOS): the cells agree, and every such row is named.
 * Each entry is on a line of its own, so a diagnostic's line is its row's.
 * Its budget is test/budget.ts's `runs(150)`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkConfig } from '../../app/check.js';
import { explainMatrix, type MatrixRow } from '../../app/views/matrix.js';
import { manifestView } from '../../compiler/paths/index.js';
import { runs } from '../budget.js';

const HOME = '/Users/dev';
/** The tree: home-relative, every kind of nesting a deny and an allow can have. */
const DIRS = ['Codespace', 'Codespace/app', 'Codespace/app/out', 'Codespace/secret', '.aws', '.ssh', 'notes', 'notes/old'];
const FILES = ['Codespace/app/main.ts', 'Codespace/secret/key.pem', '.aws/credentials', '.ssh/id_rsa', 'notes/todo.md'];
const NAMES = [...DIRS, ...FILES, 'Codespace/gone', 'absent-dir'];
const manifest = JSON.stringify({
  home: HOME,
  entries: Object.fromEntries([...DIRS.map((d) => [`${HOME}/${d}`, 'dir']), ...FILES.map((f) => [`${HOME}/${f}`, 'file'])]),
});
const view = manifestView(manifest, 'tree.json');
/** The paths that exist: a read deny of an absent path hides nothing (sandbox-runtime skips it). */
const existing = new Set([HOME, ...DIRS.map((d) => `${HOME}/${d}`), ...FILES.map((f) => `${HOME}/${f}`)]);

/** A path as people write it: `~/`, `~/name`, or absolute. */
const spelling = fc.oneof(
  fc.constantFrom(...NAMES).chain((n) => fc.constantFrom(`~/${n}`, `${HOME}/${n}`)),
  fc.constant('~/'),
);
const list = fc.array(spelling, { maxLength: 3 });
const settings = fc.record({
  dialect: fc.constantFrom('srt', 'claude'),
  denyRead: list,
  allowRead: list,
  allowWrite: list,
  denyWrite: fc.array(spelling, { maxLength: 1 }),
});

/** JSON with each list entry on a line of its own. */
function render(s: { dialect: string; denyRead: string[]; allowRead: string[]; allowWrite: string[]; denyWrite: string[] }): string {
  const lines = (xs: string[]) => (xs.length ? `[\n${xs.map((x) => `      ${JSON.stringify(x)}`).join(',\n')}\n    ]` : '[]');
  const lists = [`"denyRead": ${lines(s.denyRead)}`, `"allowRead": ${lines(s.allowRead)}`, `"allowWrite": ${lines(s.allowWrite)}`];
  const fs = `{\n    ${[...lists, `"denyWrite": ${lines(s.denyWrite)}`].join(',\n    ')}\n  }`;
  if (s.dialect === 'srt') return `{\n  "filesystem": ${fs},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}\n`;
  return `{\n  "sandbox": {\n  "enabled": true,\n  "filesystem": ${fs}\n  }\n}\n`;
}

const isUnder = (p: string, root: string): boolean => root === '/' || p === root || p.startsWith(`${root}/`);
const reads = (legend: string): boolean => legend.includes('r');
const writes = (legend: string): boolean => legend.includes('w');

describe('lint agrees with explain on generated settings (issue 36)', () => {
  it('deny-read-reopened, read-deny-scratch and absent-path claim exactly what the cells show', () => {
    const count = runs(150);
    let claims = 0;
    fc.assert(
      fc.property(settings, (s) => {
        const text = render(s);
        const file = s.dialect === 'srt' ? 'srt-settings.json' : '.claude/settings.json';
        const r = checkConfig(Buffer.from(text), { file, view, worktree: `${HOME}/Codespace` });
        assert.ok(r.model, `no model:\n${text}\n${r.diagnostics.map((d) => d.message).join('\n')}`);
        const matrix = explainMatrix(r.model, r.diagnostics, r.verdicts);
        const rows = matrix.principals
          .flatMap((p) => p.rows)
          .filter((row): row is MatrixRow & { line: number; path: string } => !!row.line && !!row.path);
        const at = (line: number): MatrixRow & { path: string } => {
          const row = rows.find((x) => x.line === line);
          assert.ok(row, `no explain row at line ${line}:\n${text}`);
          return row;
        };
        const said = (rule: string, platform: string, line: number): boolean =>
          r.diagnostics.some((d) => d.ruleId === rule && d.platforms.includes(platform as 'macos') && d.span.start.line === line);
        const denies = rows.filter((x) => x.list === 'denyRead' || x.list === 'filesystem.denyRead');
        // Lint ⇒ explain.
        for (const d of r.diagnostics.filter((x) => ['deny-read-reopened', 'read-deny-scratch', 'absent-path'].includes(x.ruleId))) {
          const row = at(d.span.start.line);
          const mac = row.cells.macos.legend;
          const linux = row.cells.linux.legend;
          if (d.ruleId === 'deny-read-reopened' && d.platforms.includes('macos')) {
            claims++;
            assert.ok(writes(mac) && !reads(mac), `macOS write-only claimed at ${row.path}, explain shows ${mac}:\n${text}`);
          }
          if (d.ruleId === 'deny-read-reopened' && d.platforms.includes('linux')) {
            claims++;
            assert.ok(
              reads(linux) && writes(linux) && !reads(mac),
              `Linux re-opened claimed at ${row.path}: Linux ${linux}, macOS ${mac}:\n${text}`,
            );
          }
          // absent-path: an absent allowWrite "nothing there becomes writable" on Linux; an absent denyRead "a file created there is readable".
          if (d.ruleId === 'absent-path' && d.finding === 'allowWrite') {
            claims++;
            assert.ok(!writes(linux), `absent ${row.path} claimed unwritable on Linux, explain shows ${linux}:\n${text}`);
            if (d.message.includes('(macOS lets it be created and written)'))
              assert.ok(writes(mac), `absent ${row.path} claimed writable on macOS, explain shows ${mac}:\n${text}`);
          }
          if (d.ruleId === 'absent-path' && d.finding === 'denyRead') {
            claims++;
            assert.ok(reads(linux), `absent ${row.path} claimed readable on Linux, explain shows ${linux}:\n${text}`);
            if (d.message.includes('(macOS denies it whenever it appears)'))
              assert.ok(!reads(mac), `absent ${row.path} claimed denied on macOS, explain shows ${mac}:\n${text}`);
          }
          if (d.ruleId === 'read-deny-scratch') {
            claims++;
            assert.equal(linux, 'scratch', `scratch claimed at ${row.path}, explain shows ${linux}:\n${text}`);
          }
        }
        // Explain ⇒ lint: each cell of those kinds is named.
        for (const row of rows) {
          const mac = row.cells.macos.legend;
          const linux = row.cells.linux.legend;
          const inDeny = denies.some((d) => isUnder(row.path, d.path) && existing.has(d.path));
          if (row.list === 'allowWrite' && inDeny && writes(mac) && !reads(mac)) {
            assert.ok(said('deny-read-reopened', 'macos', row.line!), `write-only at ${row.path} on macOS, not named:\n${text}`);
            if (reads(linux) && writes(linux))
              assert.ok(said('deny-read-reopened', 'linux', row.line!), `Linux reads ${row.path}, not named:\n${text}`);
          }
          // An absent path the Linux cell leaves as its parents do: named (or, in Claude Code, named as a one-slash path).
          const absent = !existing.has(row.path);
          if (absent && row.list === 'allowWrite' && !writes(linux) && linux !== 'refused')
            assert.ok(
              r.diagnostics.some((x) => x.ruleId === 'absent-path' && x.span.start.line === row.line),
              `absent write root ${row.path} not named:\n${text}`,
            );
          if (absent && row.list === 'denyRead' && reads(linux))
            assert.ok(
              r.diagnostics.some((x) => x.ruleId === 'absent-path' && x.span.start.line === row.line),
              `absent read deny ${row.path} not named:\n${text}`,
            );
          if (row.list === 'denyRead' && linux === 'scratch')
            assert.ok(said('read-deny-scratch', 'linux', row.line!), `scratch at ${row.path}, not named:\n${text}`);
        }
      }),
      { numRuns: count, seed: 36 },
    );
    assert.ok(claims > 0, 'the generated settings made no claim to hold');
  });

  it('the case of the issue: ~/ denied, ~/Codespace allowed to read and write is rwx on macOS, and lint says nothing else', () => {
    const s = { dialect: 'srt', denyRead: ['~/'], allowRead: ['~/Codespace'], allowWrite: ['~/Codespace'], denyWrite: [] };
    const r = checkConfig(Buffer.from(render(s)), { file: 'srt-settings.json', view, worktree: `${HOME}/Codespace` });
    assert.ok(r.model);
    const row = explainMatrix(r.model, r.diagnostics, r.verdicts)
      .principals.flatMap((p) => p.rows)
      .find((x) => x.list === 'allowWrite');
    assert.equal(row?.cells.macos.legend, 'rwx');
    assert.deepEqual(
      r.diagnostics.filter((d) => d.ruleId === 'deny-read-reopened'),
      [],
    );
    // Control: without the allowRead, macOS keeps the read deny, explain shows `w`, and lint says write-only.
    const control = checkConfig(Buffer.from(render({ ...s, allowRead: [] })), {
      file: 'srt-settings.json',
      view,
      worktree: `${HOME}/Codespace`,
    });
    assert.ok(control.model);
    const controlRow = explainMatrix(control.model, control.diagnostics, control.verdicts)
      .principals.flatMap((p) => p.rows)
      .find((x) => x.list === 'allowWrite');
    assert.equal(controlRow?.cells.macos.legend, 'w');
    assert.ok(control.diagnostics.some((d) => d.ruleId === 'deny-read-reopened' && d.platforms.includes('macos')));
  });
});
