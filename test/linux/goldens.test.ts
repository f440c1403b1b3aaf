// Golden Linux artifacts for every bundled example Linux accepts (reviewed
// like code: UPDATE_SNAPSHOTS=1 rewrites them); a refused example writes none.
//
// Goldens hold what differs per example only: the principals' files in
// snapshots/linux/<example>/, and the seccomp artifacts, which every example
// shares (one policy), once in snapshots/linux/seccomp/. Each example's
// seccomp.json and .bpf programs must equal those bytes; its seccomp.txt
// must too, but for its header lines (the config's name and digest), which
// must be the ones its own <principal>.bwrap.json golden holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SECCOMP_ARCHES } from '../../targets/linux/index.js';
import { decode, disassemble, type Arch } from '../../targets/linux/seccomp/index.js';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { matchSharedSnapshot, matchSnapshot } from '../snapshot.js';

/** Where the seccomp artifacts every example shares are. */
const SHARED = 'linux/seccomp';

/** The line that stands for the config's header lines in the shared seccomp.txt. */
const HEADER_PLACEHOLDER = '# (the config\'s header lines: each example\'s <principal>.bwrap.json "header")';

/** A program as a reader sees it: its disassembly. */
function readableProgram(arch: Arch): (bytes: Buffer) => string {
  return (bytes) =>
    bytes.length % 8 === 0
      ? disassemble(decode(bytes), arch).join('\n') + '\n'
      : `${bytes.length} bytes: not whole instructions\n${bytes.toString('hex')}\n`;
}

/**
 * seccomp.txt with its header lines (`# ` + each of `header`, right after
 * the title) replaced by HEADER_PLACEHOLDER; fails unless they are there.
 */
function sharedSeccompText(text: string, header: readonly string[]): string {
  const lines = text.split('\n');
  const written = lines.slice(1, 1 + header.length);
  assert.deepEqual(
    written,
    header.map((h) => `# ${h}`),
    "seccomp.txt's header lines are not the config's (bwrap.json's \"header\")",
  );
  return [lines[0]!, HEADER_PLACEHOLDER, ...lines.slice(1 + header.length)].join('\n');
}

describe('linux goldens: every example', () => {
  it('no example is named like the shared seccomp folder', () => {
    assert.ok(
      !exampleNames.includes('seccomp.toml'),
      "examples/seccomp.toml would share snapshots/linux/seccomp/ with every example's seccomp goldens",
    );
  });

  for (const name of exampleNames) {
    it(name, async () => {
      const outcome = await compileExample(name, 'linux');
      const stem = name.replace(/\.toml$/, '');
      if (!outcome.ok) {
        assert.equal(outcome.check.verdicts.linux, 'refused', `${name}: no artifacts although linux does not refuse it: ${outcome.reason}`);
        return;
      }
      assert.notEqual(outcome.check.verdicts.linux, 'refused');
      const bwrapJson = outcome.artifacts.find((a) => a.name.endsWith('.bwrap.json'));
      assert.ok(bwrapJson, `${name}: no principal's bwrap.json`);
      const header = (JSON.parse(bwrapJson.content as string) as { header: string[] }).header;
      let shared = 0;
      for (const a of outcome.artifacts) {
        const program = /^seccomp\.(x86_64|aarch64)\.bpf$/.exec(a.name);
        if (program) matchSharedSnapshot(`${SHARED}/${a.name}`, a.content, name, { readable: readableProgram(program[1] as Arch) });
        else if (a.name === 'seccomp.json') matchSharedSnapshot(`${SHARED}/${a.name}`, a.content, name);
        else if (a.name === 'seccomp.txt') matchSharedSnapshot(`${SHARED}/${a.name}`, sharedSeccompText(a.content as string, header), name);
        else {
          assert.ok(!a.name.startsWith('seccomp'), `${name}: ${a.name} is a seccomp artifact this test does not know`);
          matchSnapshot(`linux/${stem}/${a.name}`, a.content);
          continue;
        }
        shared++;
      }
      assert.equal(shared, 2 + SECCOMP_ARCHES.length, `${name}: seccomp.json, seccomp.txt and one program per arch`);
    });
  }
});
