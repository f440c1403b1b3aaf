/**
 * The README's sample outputs are the CLI's: every code block that starts
 * with `$ boxwright …` is run (from the repository root, colours off), and
 * each line of the block after the command must appear in the output, in
 * order. `…` alone on a line skips any number of lines; a line ending in
 * ` …` is a prefix. A sample that went stale fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers.js';
import { cli, plainEnv } from '../cli-in-process.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const samples = [...readme.matchAll(/^```\n(\$ boxwright [^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  command: m[1]!.slice(2),
  expected: m[2]!.split('\n').slice(0, -1),
}));

describe('README samples', () => {
  it('there are samples to check', () => assert.ok(samples.length >= 2, String(samples.length)));
  for (const { command, expected } of samples) {
    it(command, async () => {
      const args = command.split(' ').slice(1);
      // In process (test/cli-in-process.ts): test/cli/in-process.test.ts holds it to the binary's output.
      const r = await cli(args, { env: plainEnv() });
      const actual = r.stdout.split('\n');
      let at = 0;
      let skipping = false;
      for (const line of expected) {
        if (line === '…') {
          skipping = true;
          continue;
        }
        const matches = (a: string): boolean => (line.endsWith(' …') ? a.startsWith(line.slice(0, -2)) : a === line);
        if (skipping) {
          while (at < actual.length && !matches(actual[at]!)) at++;
        }
        assert.ok(
          at < actual.length && matches(actual[at]!),
          `README line not in the output (in order): ${JSON.stringify(line)}\n--- output ---\n${r.stdout}`,
        );
        at++;
        skipping = false;
      }
    });
  }
});
