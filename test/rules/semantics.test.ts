import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveAccess, legend } from '../../model/index.js';
import { platformModels } from '../../targets/units.js';
import { lintText, ruleIds } from '../lint-helpers.js';

/** The Linux cell (legend) at each grant of the agent, by the string as written. */
function linuxCells(toml: string): Record<string, string> {
  const r = lintText(toml);
  assert.ok(r.ir, `front end failed: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  const model = effectiveAccess(r.ir, platformModels);
  const out: Record<string, string> = {};
  for (const ga of model.principals[0]!.grants) out[`${ga.grant.list}:${ga.grant.written}`] = legend(ga.effective.linux);
  return out;
}

describe('coverage semantics of seed 000', () => {
  it('read on a parent + write on a child: read-write under the child, read-only elsewhere, accepted on Linux', () => {
    const r = lintText('[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n');
    assert.equal(r.verdicts.linux, 'accepted');
    const model = effectiveAccess(r.ir!, platformModels);
    const agent = model.principals[0]!;
    // Landlock (the default) grants execute on neither; with the mounts alone both are executable.
    assert.equal(legend(agent.effectiveAt('/home/dev/project/output/x', 'linux')), 'rw');
    assert.equal(legend(agent.effectiveAt('/home/dev/project/src', 'linux')), 'r');
    const mounts = effectiveAccess(
      lintText('[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]\n', 'config.toml', undefined, { landlock: false })
        .ir!,
      platformModels,
    ).principals[0]!;
    assert.equal(legend(mounts.effectiveAt('/home/dev/project/output/x', 'linux')), 'rwx');
    assert.equal(legend(mounts.effectiveAt('/home/dev/project/src', 'linux')), 'rx');
    assert.equal(legend(agent.effectiveAt('/home/dev/project/output/x', 'macos')), 'rw');
    assert.equal(legend(agent.effectiveAt('/home/dev/project/src', 'macos')), 'r');
    assert.equal(legend(agent.effectiveAt('/home/dev/other', 'linux')), '—');
  });
  it('write on a parent + read on one child: write-only elsewhere, Linux refuses', () => {
    const r = lintText('[agent.filesystem]\nwrite = ["~/project"]\nread = ["~/project/src"]\n');
    assert.equal(r.verdicts.linux, 'refused');
    assert.equal(r.verdicts.macos, 'accepted');
    const d = r.diagnostics.find((x) => x.ruleId === 'write-only' && x.severity === 'error')!;
    assert.deepEqual([d.span.start.line, d.span.start.column], [2, 10]);
    assert.equal(d.related?.[0]?.span.start.line, 3);
    const agent = effectiveAccess(r.ir!, platformModels).principals[0]!;
    assert.equal(legend(agent.effectiveAt('/home/dev/project/README.md', 'macos')), 'w');
  });
  it('read_file + write_file on the same file: read-write on that file only, no sibling access', () => {
    const r = lintText('[agent.filesystem]\nread_file = ["~/results/output.txt"]\nwrite_file = ["~/results/output.txt"]\n');
    assert.equal(r.verdicts.linux, 'accepted');
    const agent = effectiveAccess(r.ir!, platformModels).principals[0]!;
    for (const p of ['macos', 'linux'] as const) {
      assert.match(legend(agent.effectiveAt('/home/dev/results/output.txt', p)), /^rw/);
      assert.equal(legend(agent.effectiveAt('/home/dev/results/summary.txt', p)), '—');
    }
  });
  it('read on a parent directory covers a child named in write_file', () => {
    assert.equal(lintText('[agent.filesystem]\nread = ["~/results"]\nwrite_file = ["~/results/output.txt"]\n').verdicts.linux, 'accepted');
  });
  it('read_file never covers a directory named in write', () => {
    const r = lintText('[agent.filesystem]\nread_file = ["~/project/output"]\nwrite = ["~/project/output"]\n');
    assert.equal(r.verdicts.linux, 'refused');
    assert.match(
      r.diagnostics.find((d) => d.ruleId === 'write-only')!.related![0]!.message,
      /read_file entry cannot provide read access throughout a directory/,
    );
  });
  it("an exec grant never satisfies Linux's explicit read requirement", () => {
    const r = lintText('[agent.filesystem]\nexec = ["/usr/bin/python3"]\nwrite_file = ["/usr/bin/python3"]\n');
    assert.equal(r.verdicts.linux, 'refused');
    assert.match(r.diagnostics.find((d) => d.ruleId === 'write-only')!.related![0]!.message, /execute grant does not satisfy/);
  });
  it('a deny inside a granted tree: an empty file (file) or an empty tmpfs (directory) on Linux, denied on macOS', () => {
    const cells = linuxCells('[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env", "~/project/src"]\n');
    assert.equal(cells['deny:~/project/.env'], 'empty');
    assert.equal(cells['deny:~/project/src'], 'empty');
    const r = lintText('[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env", "~/project/src"]\n');
    // The file substitution is worth a warning; a directory's empty tmpfs reads as an empty directory.
    assert.equal(r.diagnostics.filter((d) => d.ruleId === 'deny-file-substitution').length, 1);
    const agent = effectiveAccess(r.ir!, platformModels).principals[0]!;
    assert.equal(legend(agent.effectiveAt('/home/dev/project/src/main.py', 'macos')), '—');
    assert.equal(legend(agent.effectiveAt('/home/dev/project/src/main.py', 'windows')), '—');
  });
  it('a deny of an absent path: refused on Linux, a warning on Windows, fine on macOS', () => {
    const r = lintText('[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env.local"]\n');
    assert.deepEqual([r.verdicts.macos, r.verdicts.linux, r.verdicts.windows], ['accepted', 'refused', 'accepted-with-warnings']);
    assert.equal(
      r.diagnostics.find((d) => d.ruleId === 'deny-absent-path' && d.severity === 'error')!.message,
      'Linux cannot deny /home/dev/project/.env.local: it does not exist yet',
    );
  });
});

describe("the seeds' quoted texts, byte for byte", () => {
  it('write-only', () => {
    const r = lintText('[agent.filesystem]\nwrite_file = ["~/results/output.txt"]\n');
    assert.equal(
      r.diagnostics.find((d) => d.ruleId === 'write-only' && d.severity === 'error')!.message,
      'Linux cannot enforce write-only access for `write_file` at /home/dev/results/output.txt. Add an explicit `read` or `read_file` grant covering the entire write scope to request read-write access, or remove the write grant',
    );
  });
  it('list, with the caution on its suggestion', () => {
    const d = lintText('[agent.filesystem]\nlist = ["~/project"]\n').diagnostics.find((x) => x.ruleId === 'list-without-content')!;
    assert.ok(
      d.message.endsWith(
        'cannot be listed without its contents on Linux: the namespace backend has no lowering for `list`; grant `read` instead',
      ),
    );
    assert.ok(d.suggestion!.includes('That suggested change exposes file contents. Apply it only if that read access is acceptable.'));
  });
});

describe('--fs none: existence-dependent rules become one info each, verdicts unchanged', () => {
  it('missing-path and deny-absent-path', async () => {
    const { noneView } = await import('../../compiler/paths/index.js');
    const r = lintText('[agent.filesystem]\nread = ["~/nothing"]\ndeny = ["~/nothing/x"]\n', 'c.toml', noneView('/home/dev'));
    assert.equal(r.verdicts.linux, 'accepted');
    assert.equal(r.verdicts.macos, 'accepted');
    const infos = r.diagnostics.filter((d) => d.message.startsWith('depends on the machine'));
    assert.deepEqual(
      infos.map((d) => [d.ruleId, d.severity]),
      [
        ['windows-open-reads', 'info'],
        ['missing-path', 'info'],
        ['socket-in-read-grant', 'info'],
        ['deny-absent-path', 'info'],
      ],
    );
    assert.ok(
      infos.every((d) => d.machineDependent),
      'each is marked machine-dependent: the text format collapses them',
    );
    assert.deepEqual(
      r.diagnostics.filter((d) => d.machineDependent && !infos.includes(d)),
      [],
    );
  });
});

describe('suppression', () => {
  it('silences a warning for the entry below, with a reason', () => {
    const r = lintText(
      '[agent.filesystem]\nread = ["~/project"]\n# boxwright-ignore deny-file-substitution: empty .env is fine\ndeny = ["~/project/.env"]\n',
    );
    assert.ok(!ruleIds(r).includes('deny-file-substitution'));
    assert.ok(!ruleIds(r).includes('suppression'));
  });
  it('without a reason it is reported and silences nothing', () => {
    const r = lintText('[agent.filesystem]\nread = ["~/project"]\n# boxwright-ignore deny-file-substitution\ndeny = ["~/project/.env"]\n');
    assert.ok(ruleIds(r).includes('deny-file-substitution'));
    assert.match(r.diagnostics.find((d) => d.ruleId === 'suppression')!.message, /has no reason/);
  });
  it('an unused suppression is reported', () => {
    const r = lintText('[agent.filesystem]\n# boxwright-ignore write-only: never mind\nread = ["~/project"]\n');
    assert.match(r.diagnostics.find((d) => d.ruleId === 'suppression')!.message, /silences nothing/);
  });
  it('an error cannot be silenced', () => {
    const r = lintText('[agent.filesystem]\n# boxwright-ignore list-without-content: we know\nlist = ["~/inbox"]\n');
    assert.equal(r.verdicts.linux, 'refused');
    assert.match(r.diagnostics.find((d) => d.ruleId === 'suppression')!.message, /cannot silence the error/);
  });
  it('an unknown rule id is reported', () => {
    const r = lintText('[agent.filesystem]\n# boxwright-ignore no-such-rule: x\nread = ["~/project"]\n');
    assert.match(r.diagnostics.find((d) => d.ruleId === 'suppression')!.message, /unknown rule/);
  });
});

describe('write naming a file', () => {
  it('a read_file of the same file covers a `write` that names a file (one file either way)', () => {
    const r = lintText('[agent.filesystem]\nread_file = ["~/results/output.txt"]\nwrite = ["~/results/output.txt"]\n');
    assert.equal(r.verdicts.linux, 'accepted');
  });
  it('but not a `write` that names a directory', () => {
    assert.equal(
      lintText('[agent.filesystem]\nread_file = ["~/project/output"]\nwrite = ["~/project/output"]\n').verdicts.linux,
      'refused',
    );
  });
});
