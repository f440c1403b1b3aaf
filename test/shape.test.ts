// Issue 38, "Shape": modules under 400 lines, lines under 160 characters.
// What is still over is counted and held to the ceilings recorded in
// test/shape.json, exactly: a module or a long line more fails here, and
// one fewer asks for the ceiling to come down with it, so that the counts
// only go down.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers.js';

interface Shape {
  readonly maxFileLines: number;
  readonly maxLineChars: number;
  readonly filesOver: number;
  readonly linesOver: number;
}
const shape = JSON.parse(readFileSync(join(repoRoot, 'test', 'shape.json'), 'utf8')) as Shape;

const SOURCE_FOLDERS = ['compiler', 'model', 'rules', 'targets', 'app'];

/** A module's length in lines (a last line without its newline counts) and its lines longer than `max` characters. */
export function measure(text: string, max: number): { lines: number; long: number[] } {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const long: number[] = [];
  lines.forEach((l, i) => {
    if (l.length > max) long.push(i + 1);
  });
  return { lines: lines.length, long };
}

function productFiles(): string[] {
  const out: string[] = [];
  for (const folder of SOURCE_FOLDERS)
    for (const e of readdirSync(join(repoRoot, folder), { recursive: true, withFileTypes: true }))
      if (e.isFile() && e.name.endsWith('.ts')) out.push(relative(repoRoot, join(e.parentPath, e.name)).split(sep).join('/'));
  return out.sort();
}

describe("the product's shape", () => {
  it('measures lines and long lines', () => {
    assert.deepEqual(measure('a\nbb\n', 1), { lines: 2, long: [2] });
    assert.deepEqual(measure('a\nbb', 2), { lines: 2, long: [] });
    assert.deepEqual(measure(`${'x'.repeat(161)}\n`, 160), { lines: 1, long: [1] });
  });

  it('the modules over the line limit and the lines over the width are held to their ceilings', () => {
    const big: string[] = [];
    const long: string[] = [];
    for (const file of productFiles()) {
      const m = measure(readFileSync(join(repoRoot, file), 'utf8'), shape.maxLineChars);
      if (m.lines > shape.maxFileLines) big.push(`${file} (${m.lines} lines)`);
      for (const line of m.long) long.push(`${file}:${line}`);
    }
    const lower = 'fewer than test/shape.json records: lower the ceiling there in this change';
    const split = `split one by concern (under ${shape.maxFileLines} lines each)`;
    const wrap = 'wrap it (a long text: concatenated pieces)';
    assert.ok(big.length <= shape.filesOver, `${big.length} modules over ${shape.maxFileLines} lines, ${split}: ${big.join(', ')}`);
    assert.ok(long.length <= shape.linesOver, `${long.length} lines over ${shape.maxLineChars} characters, ${wrap}: ${long.join(', ')}`);
    assert.equal(big.length, shape.filesOver, `modules over ${shape.maxFileLines} lines: ${lower}`);
    assert.equal(long.length, shape.linesOver, `lines over ${shape.maxLineChars} characters: ${lower}`);
  });
});
