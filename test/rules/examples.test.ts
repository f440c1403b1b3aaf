import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatJson } from '../../app/format/json.js';
import { formatText } from '../../app/format/text.js';
import { repoRoot } from '../helpers.js';
import { lintExample, machine, ruleIds } from '../lint-helpers.js';
import { checkConfig } from '../../app/check.js';
import { judgeFixes } from '../../app/fix-applicability.js';
import { matchSnapshot } from '../snapshot.js';

type V = 'refused' | 'accepted-with-warnings' | 'accepted';
const R: V = 'refused';
const W: V = 'accepted-with-warnings';
const A: V = 'accepted';

/**
 * Each example's verdicts [macos, linux, windows] and the rules it must
 * trigger, from the design's catalog and the seeds' "startup result" column.
 */
const expected: Record<string, { verdicts: [V, V, V]; rules: string[] }> = {
  'read-only-content.toml': { verdicts: [A, A, W], rules: ['exec-not-confined', 'windows-open-reads'] },
  'read-write-overlap.toml': { verdicts: [A, W, W], rules: ['deny-file-substitution', 'low-label-exposure'] },
  'read-write-file.toml': { verdicts: [A, A, W], rules: ['windows-open-reads'] },
  'write-file-under-read.toml': { verdicts: [A, A, W], rules: ['windows-open-reads'] },
  'write-only.toml': { verdicts: [A, R, W], rules: ['write-only'] },
  'read-file-cannot-cover-dir.toml': { verdicts: [W, R, W], rules: ['write-only', 'file-entry-on-directory'] },
  'write-file-on-directory.toml': { verdicts: [W, R, R], rules: ['file-entry-on-directory'] },
  'exec-does-not-satisfy-read.toml': { verdicts: [W, R, W], rules: ['write-only', 'no-windows-path', 'write-exec-overlap'] },
  'list-without-content.toml': { verdicts: [A, R, W], rules: ['list-without-content'] },
  'deny-absent-path.toml': { verdicts: [A, R, W], rules: ['deny-absent-path'] },
  'deny-existing-file.toml': { verdicts: [A, W, W], rules: ['deny-file-substitution'] },
  'deny-label-shared.toml': { verdicts: [W, W, W], rules: ['deny-label-shared', 'deny-file-substitution', 'deny-open-to-others'] },
  'deny-in-write-tree.toml': { verdicts: [A, W, W], rules: ['deny-ancestors-pinned', 'deny-file-substitution', 'low-label-exposure'] },
  'metadata-agent.toml': { verdicts: [A, W, W], rules: ['metadata-tree'] },
  'metadata-tool.toml': { verdicts: [R, R, R], rules: ['metadata-in-tool'] },
  'helper-execution.toml': { verdicts: [A, W, W], rules: ['tool-exec-widening', 'exec-dependencies'] },
  'loader-directory.toml': { verdicts: [A, A, W], rules: ['loader-dir-exec'] },
  'workspace.toml': { verdicts: [A, A, W], rules: ['workspace-no-content'] },
  'symlink-entry.toml': { verdicts: [R, R, R], rules: ['symlink-entry'] },
  'noncanonical-path.toml': { verdicts: [R, R, R], rules: ['noncanonical-path'] },
  'missing-path.toml': { verdicts: [R, R, R], rules: ['missing-path'] },
  'protected-path.toml': { verdicts: [R, R, R], rules: ['protected-path'] },
  'direct-network.toml': { verdicts: [W, W, W], rules: ['direct-network', 'ipv6-socket'] },
  'agent-network-table.toml': { verdicts: [R, R, R], rules: ['agent-network-table'] },
  'ipv6-sockets.toml': { verdicts: [W, W, W], rules: ['direct-network', 'ipv6-socket'] },
  'process-information.toml': { verdicts: [A, W, W], rules: ['process-info'] },
  'executable-memory.toml': { verdicts: [A, W, W], rules: ['exec-memory'] },
  'jit-under-read-tree.toml': { verdicts: [A, W, W], rules: ['exec-memory', 'exec-not-confined', 'tool-exec-widening'] },
  'socket-in-read-grant.toml': { verdicts: [W, W, W], rules: ['socket-in-read-grant', 'direct-network'] },
  'native-filesystem-policy.toml': { verdicts: [W, R, W], rules: ['native-fs-policy'] },
  'namespace-setup.toml': { verdicts: [A, A, W], rules: ['windows-open-reads'] },
  'coding-agent.toml': { verdicts: [A, W, W], rules: ['deny-file-substitution', 'exec-not-confined'] },
  'tyba-user-config.toml': { verdicts: [A, A, W], rules: ['metadata-everywhere', 'read-allow-inert', 'windows-open-reads'] },
  'tyba-read-allow-secret.toml': { verdicts: [W, W, W], rules: ['secret-not-grantable'] },
  'suppression.toml': { verdicts: [W, W, W], rules: ['process-info', 'suppression'] },
  'unrepresentable-path.toml': { verdicts: [R, R, R], rules: ['unrepresentable-path'] },
  'windows-path.toml': { verdicts: [A, A, W], rules: ['no-windows-path'] },
  'exec-dependencies.toml': { verdicts: [A, W, W], rules: ['exec-dependencies'] },
  'write-exec-overlap.toml': { verdicts: [W, W, W], rules: ['write-exec-overlap', 'exec-not-confined'] },
  // A temp directory of the agent's own: nothing to warn of (shared-temp-write stays quiet); explain says it.
  'private-temp.toml': { verdicts: [A, A, W], rules: ['windows-open-reads'] },
};

const examples = readdirSync(join(repoRoot, 'examples'))
  .filter((f) => f.endsWith('.toml'))
  .sort();

describe('examples: verdicts and rules', () => {
  it('every example has an expectation', () => {
    assert.deepEqual(examples, Object.keys(expected).sort());
  });
  for (const name of examples) {
    it(name, () => {
      const r = lintExample(name);
      const want = expected[name]!;
      assert.deepEqual(
        [r.verdicts.macos, r.verdicts.linux, r.verdicts.windows],
        want.verdicts,
        formatText([{ path: name, text: r.text, verdicts: r.verdicts, diagnostics: r.diagnostics }]),
      );
      const got = ruleIds(r);
      for (const id of want.rules) assert.ok(got.includes(id), `${name}: expected rule ${id}, got ${got.join(', ')}`);
      assert.ok(got.includes('windows-open-reads'), 'windows-open-reads fires on every config');
    });
  }
});

describe('examples: golden lint output', () => {
  for (const name of examples) {
    it(name, () => {
      const r = lintExample(name);
      // The fixes judged as `lint --format json` judges them (issue 40): each fixed text checked the way the example was.
      const recheck = (text: string) =>
        checkConfig(Buffer.from(text, 'utf8'), { file: r.file, view: machine, worktree: '/home/dev/project' });
      const report = {
        path: r.file,
        text: r.text,
        ...(r.dialect ? { dialect: r.dialect } : {}),
        verdicts: r.verdicts,
        diagnostics: judgeFixes(r, recheck),
      };
      matchSnapshot(`lint/${name.replace(/\.toml$/, '.txt')}`, formatText([report]));
      matchSnapshot(`lint/${name.replace(/\.toml$/, '.json')}`, formatJson([report]));
    });
  }
});
