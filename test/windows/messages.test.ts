/**
 * The Windows plan's words live in its message table (targets/windows/messages.ts):
 * plan.ts (with plan-lower.ts) decides each entry and gives it a typed reason, and the table words
 * it. The table's type (`satisfies` over every kind) makes tsc name a kind with
 * no text; these tests hold that every text is reachable and that the plan
 * words none of its own.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Grant } from '../../compiler/ir/types.js';
import {
  planReasonTexts,
  reasonText,
  stepReasonTexts,
  stepText,
  type PlanReason,
  type PlanReasonKind,
  type StepReason,
  type StepReasonKind,
} from '../../targets/windows/messages.js';
import { repoRoot } from '../helpers.js';

// The plan's modules (plan.ts assembles, plan-lower.ts drafts, plan-shape.ts types), read as one text.
const PLAN_MODULES = ['plan.ts', 'plan-lower.ts', 'plan-shape.ts'];
const planParts = PLAN_MODULES.map((f) => ({ f, text: readFileSync(join(repoRoot, 'targets/windows', f), 'utf8') }));
const planSource = planParts.map((p) => p.text).join('');
const agent = { kind: 'agent', name: 'agent' } as const;
/** A deny grant as the label's rule reads it (its line); the rest of a Grant is not read. */
const otherDeny = { span: { start: { line: 7 } } } as unknown as Grant;

/** One reason of each kind: the mapped type makes tsc ask for a sample of a new kind. */
const planSamples: { readonly [K in PlanReasonKind]: Extract<PlanReason, { kind: K }> } = {
  'read-allow-inert': { kind: 'read-allow-inert', stillDenied: true },
  refused: { kind: 'refused', because: { kind: 'directory-as-one-file' } },
  'exec-unrestricted': { kind: 'exec-unrestricted' },
  'list-open': { kind: 'list-open' },
  'metadata-open': { kind: 'metadata-open' },
  'read-under-deny-label': { kind: 'read-under-deny-label' },
  'reads-open': { kind: 'reads-open' },
  'not-a-path': { kind: 'not-a-path', problem: undefined },
  'no-windows-path': { kind: 'no-windows-path', unmapped: { kind: 'outside-home', home: '/home/u' } },
  'nothing-to-label': { kind: 'nothing-to-label' },
  'label-of-another-principal': {
    kind: 'label-of-another-principal',
    note: { kind: 'label-of-another-principal', label: { principal: 'tool.fmt', grant: otherDeny } },
    principal: agent,
  },
  'under-deny-label': { kind: 'under-deny-label' },
  workspace: { kind: 'workspace' },
};

const stepSamples: { readonly [K in StepReasonKind]: Extract<StepReason, { kind: K }> } = {
  'grant-write-tree': { kind: 'grant-write-tree', by: { kind: 'config', list: 'write', principal: agent }, principal: agent },
  'grant-write-file': { kind: 'grant-write-file', by: { kind: 'implicit', implicit: 'scratch' }, principal: agent },
  'label-low': { kind: 'label-low', by: { kind: 'config', list: 'write', principal: agent } },
  'host-trusted-read-only': { kind: 'host-trusted-read-only', label: '.git' },
  'deny-read': { kind: 'deny-read', of: { kind: 'listed-secret' } },
  'inside-host-trusted': { kind: 'inside-host-trusted', step: { kind: 'label-low', by: { kind: 'implicit', implicit: 'scratch' } } },
};

interface Literal {
  readonly start: number;
  /** As written, quotes included. */
  readonly raw: string;
}

/**
 * The plan's modules read by a small lexer: its code with comments and the insides of
 * string literals blanked (offsets kept), and its string literals (a
 * template counts whole, its substitutions included).
 */
function lex(src: string): { code: string; literals: Literal[] } {
  const code = src.split('');
  const literals: Literal[] = [];
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  let i = 0;
  const skipString = (q: string): void => {
    // i is at the opening quote; leaves i after the closing one.
    i++;
    while (i < src.length && src[i] !== q) {
      if (src[i] === '\\') i++;
      else if (q === '`' && src[i] === '$' && src[i + 1] === '{') {
        i += 2;
        let depth = 1;
        while (i < src.length && depth) {
          const c = src[i]!;
          if (c === "'" || c === '"' || c === '`') {
            skipString(c);
            continue;
          }
          if (c === '{') depth++;
          if (c === '}') depth--;
          i++;
        }
        continue;
      }
      i++;
    }
    i++;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '/' && src[i + 1] === '/') {
      const end = src.indexOf('\n', i);
      blank(i, end < 0 ? src.length : end);
      i = end < 0 ? src.length : end;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i) + 2;
      blank(i, end);
      i = end;
    } else if (c === "'" || c === '"' || c === '`') {
      const start = i;
      skipString(c);
      literals.push({ start, raw: src.slice(start, i) });
      blank(start + 1, i - 1);
    } else i++;
  }
  return { code: code.join(''), literals };
}

/** Where an offset of planSource lies: its module and line. */
function lineOf(at: number): string {
  let start = 0;
  for (const p of planParts) {
    if (at < start + p.text.length) return `${p.f}:${p.text.slice(0, at - start).split('\n').length}`;
    start += p.text.length;
  }
  return 'the end';
}
const unquoted = (l: Literal): string => l.raw.slice(1, -1);

describe('windows plan: its message table', () => {
  it('words every reason kind and every step kind, each with a text of its own', () => {
    assert.deepEqual(Object.keys(planSamples).sort(), Object.keys(planReasonTexts).sort());
    assert.deepEqual(Object.keys(stepSamples).sort(), Object.keys(stepReasonTexts).sort());
    const texts = [...Object.values(planSamples).map(reasonText), ...Object.values(stepSamples).map(stepText)];
    for (const t of texts) assert.match(t, /\w+ \w+/);
    assert.equal(new Set(texts).size, texts.length, 'two kinds worded alike: one of them is not needed');
  });

  it('the plan produces every kind the table words (no text without a decision behind it)', () => {
    const literals = new Set(lex(planSource).literals.map(unquoted));
    const unused = [...Object.keys(planReasonTexts), ...Object.keys(stepReasonTexts)].filter((k) => !literals.has(k));
    assert.deepEqual(unused, []);
  });

  it('the plan words no reason itself: its reason and why fields come from the table, in one place each', () => {
    const { code, literals } = lex(planSource);
    // A field's value, not its type (`readonly reason: string`).
    const inline = [...code.matchAll(/(?<!readonly\s+)\b(reason|why):\s*(\S[^,\n]*)/g)]
      .filter((m) => !m[2]!.startsWith(m[1] === 'reason' ? 'reasonText(' : 'stepText('))
      .map((m) => `${lineOf(m.index)}: ${planSource.slice(m.index, m.index + 80)}`);
    assert.deepEqual(inline, []);
    assert.equal([...code.matchAll(/\breasonText\(/g)].length, 2, 'reasonText: once for leftOut, once for noEffect');
    assert.equal([...code.matchAll(/\bstepText\(/g)].length, 1, 'stepText: once, where the steps are assembled');
    // Nor any other sentence: the only words the plan writes are the TargetError it throws.
    const sentences = literals
      .filter((l) => /\w+ \w+ \w+/.test(l.raw) && !/new TargetError\(\s*$/.test(code.slice(0, l.start)))
      .map((l) => `${lineOf(l.start)}: ${l.raw.slice(0, 80)}`);
    assert.deepEqual(sentences, []);
  });
});
