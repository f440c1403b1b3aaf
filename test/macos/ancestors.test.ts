// A deny inside a write tree on macOS: the profile stops the rename or unlink
// of every ancestor of the denied path up to the enclosing write root, and of
// the denied path itself (issue: `mv ~/project/a ~/project/b` would carry
// ~/project/a/secrets out from under its deny in the same run). Checked with
// the tests' own SBPL reader: the last rule that matches file-write-unlink
// at each path is a deny, as Seatbelt's "last matching rule wins" applies it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileText } from '../compile-helpers.js';
import { ruleParts } from './sbpl-reader.js';
import { artifactsOf, covers, operationsMeet, parseProfile, principalsOf, type Profile } from './support.js';

/** The action of the last file rule that matches `op` at `path` (or undefined: the default deny). */
function lastMatch(profile: Profile, op: string, path: string): string | undefined {
  let action: string | undefined;
  for (const f of profile.fileRules) {
    const r = ruleParts(f);
    if (operationsMeet(r.operations, [op]) && covers(f, path)) action = r.action;
  }
  return action;
}

const cases: { name: string; toml: string; deny: string; pinned: string[]; free: string[] }[] = [
  {
    name: 'a file two levels inside a read-write tree',
    toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\ndeny = ["~/project/src/main.py"]\n',
    deny: '/home/dev/project/src/main.py',
    pinned: ['/home/dev/project/src'],
    free: ['/home/dev/project/output', '/home/dev/project/README.md'],
  },
  {
    name: 'write-only on macOS: the tree is writable without a read, so the ancestors are pinned too',
    toml: '[agent.filesystem]\nwrite = ["~"]\ndeny = ["~/project/src/main.py"]\n',
    deny: '/home/dev/project/src/main.py',
    pinned: ['/home/dev/project', '/home/dev/project/src'],
    free: ['/home/dev/results', '/home/dev/inbox'],
  },
  {
    name: 'a denied directory in a tool tree',
    toml: '[tools.builder.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]\ndeny = ["~/project/output"]\n',
    deny: '/home/dev/project/output',
    pinned: [],
    free: ['/home/dev/project/src'],
  },
];

describe('macOS: the ancestors of a deny inside a write tree', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const outcome = await compileText(c.toml, 'macos');
      const [pa] = principalsOf(outcome);
      const ga = pa!.grants.find((g) => g.grant.path === c.deny)!;
      assert.deepEqual(ga.pinnedAncestors?.macos ?? [], c.pinned, 'the model pins exactly the ancestors whose parent is writable');
      const [profileText] = artifactsOf(outcome).map((a) => a.content);
      const profile = parseProfile(profileText!);
      for (const a of c.pinned) {
        assert.equal(lastMatch(profile, 'file-write-unlink', a), 'deny', `${a} cannot be renamed or removed`);
        const rule = profile.sections
          .get('6) denies')!
          .find((f) => ruleParts(f).operations.join(' ') === 'file-write-unlink' && covers(f, a));
        assert.ok(rule, `a (deny file-write-unlink (literal ${a})) in the denies section`);
      }
      assert.equal(lastMatch(profile, 'file-write-unlink', c.deny), 'deny', 'the denied path itself cannot be renamed');
      for (const other of c.free)
        assert.equal(lastMatch(profile, 'file-write-unlink', other), 'allow', `${other} (no deny below it) stays renameable`);
    });
  }
});
