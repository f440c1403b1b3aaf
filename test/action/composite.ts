/**
 * Runs a composite action's `run:` steps as the Actions runner would, so
 * that a test exercises the real commands of action.yml: each script with
 * `bash --noprofile --norc -eo pipefail` (the runner's `shell: bash`), its
 * `env:` and `if:` expressions evaluated, a GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY file per step, outputs passed on through `steps.*`.
 * A `uses:` step cannot run here (no runner, no network): it is recorded
 * with its evaluated `with:`, so a test checks what it would have received.
 *
 * action.yml is read by a strict reader of the YAML it is written in
 * (block mappings, sequences of mappings, plain, quoted and `|` scalars,
 * comments). Anything else throws, never read in part: no YAML parser is a
 * dependency, and this one refuses what it does not know.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  readonly no: number;
  indent: number;
  text: string;
}

/** The subset of YAML action.yml uses, as nested objects, arrays and strings. */
export function readYaml(source: string): Yaml {
  const raw = source.split('\n');
  const lines: Line[] = raw.map((l, i) => ({ no: i + 1, indent: l.length - l.trimStart().length, text: l.trim() }));
  let at = 0;
  const significant = (l: Line) => l.text !== '' && !l.text.startsWith('#');
  const skip = () => {
    while (at < lines.length && !significant(lines[at]!)) at++;
  };
  const fail = (l: Line | undefined, why: string): never => {
    throw new Error(`action.yml line ${l?.no ?? raw.length}: ${why}`);
  };
  if (raw.some((l) => l.includes('\t')))
    fail(
      lines.find((l) => raw[l.no - 1]!.includes('\t')),
      'a tab',
    );

  function scalar(v: string, l: Line): string {
    if (v.startsWith('"')) {
      const end = v.indexOf('"', 1);
      if (end < 0 || v.slice(1, end).includes('\\') || !/^\s*(#.*)?$/.test(v.slice(end + 1)))
        fail(l, 'a double-quoted scalar this reader does not take');
      return v.slice(1, end);
    }
    if (v.startsWith("'")) {
      const m = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(v);
      if (!m) fail(l, 'a single-quoted scalar this reader does not take');
      return m![1]!.replace(/''/g, "'");
    }
    const plain = v.replace(/\s+#.*$/, '');
    if (/^[[{&*!>%@`|]/.test(plain) || plain.includes(': ')) fail(l, `a scalar this reader does not take: ${v}`);
    return plain;
  }

  /** A `|` block: the more-indented lines after `l`, blank ones kept, with one final newline (clip). */
  function literal(l: Line): string {
    const body: string[] = [];
    let indent = -1;
    while (at < lines.length) {
      const next = lines[at]!;
      if (next.text === '') {
        body.push('');
        at++;
        continue;
      }
      if (next.indent <= l.indent) break;
      if (indent < 0) indent = next.indent;
      if (next.indent < indent) fail(next, 'a block scalar line less indented than its first');
      body.push(raw[next.no - 1]!.slice(indent));
      at++;
    }
    while (body.length && body[body.length - 1] === '') body.pop();
    return body.length ? `${body.join('\n')}\n` : '';
  }

  function block(indent: number): Yaml {
    skip();
    const first = lines[at];
    if (!first || first.indent !== indent) return fail(first, `expected a block at indentation ${indent}`);
    return first.text.startsWith('- ') ? sequence(indent) : mapping(indent);
  }

  function mapping(indent: number): Yaml {
    const out: { [key: string]: Yaml } = {};
    for (skip(); at < lines.length && lines[at]!.indent === indent && !lines[at]!.text.startsWith('- '); skip()) {
      const l = lines[at++]!;
      const m = /^([A-Za-z0-9_-]+):(?: +(.*))?$/.exec(l.text);
      if (!m) fail(l, `not a "key: value" line: ${l.text}`);
      const [, key, value] = m!;
      if (Object.hasOwn(out, key!)) fail(l, `the key ${key} twice`);
      if (value === undefined || value.startsWith('#')) {
        skip();
        const next = lines[at];
        if (!next || next.indent <= indent) fail(l, `${key} has no value`);
        out[key!] = block(next!.indent);
      } else if (/^\|\s*(#.*)?$/.test(value)) out[key!] = literal(l);
      else out[key!] = scalar(value, l);
    }
    skip();
    if (at < lines.length && lines[at]!.indent > indent) fail(lines[at], 'unexpected indentation');
    return out;
  }

  function sequence(indent: number): Yaml {
    const out: Yaml[] = [];
    for (skip(); at < lines.length && lines[at]!.indent === indent && lines[at]!.text.startsWith('- '); skip()) {
      // `- key: value` opens a mapping whose keys line up after the dash.
      const l = lines[at]!;
      l.text = l.text.slice(2).trimStart();
      l.indent += 2;
      out.push(mapping(l.indent));
    }
    return out;
  }

  const doc = block(0);
  skip();
  if (at < lines.length) fail(lines[at], 'text after the document');
  return doc;
}

/** The expression context: `inputs`, `github`, `steps` (each `{outputs, outcome}`). */
export type Context = Record<string, unknown>;

/**
 * A GitHub Actions expression (the body of `${{ }}`): `||`, `&&`, `!`, `==`,
 * `!=` (strings compared ignoring case, as Actions does), '…' literals,
 * property paths, `success()`, `failure()`, `always()`, `cancelled()`.
 */
export function evaluate(expr: string, ctx: Context, failed: boolean): unknown {
  const tokens = expr.match(/\s*(\|\||&&|==|!=|!|\(|\)|'(?:[^']|'')*'|[A-Za-z_][\w.-]*\(\)|[A-Za-z_][\w.-]*|\S)/g) ?? [];
  let i = 0;
  const peek = () => tokens[i]?.trim();
  const next = () => tokens[i++]?.trim();
  const truthy = (v: unknown) => v !== '' && v !== false && v !== undefined && v !== null && v !== 0;
  const or = (): unknown => {
    let v = and();
    while (peek() === '||') {
      next();
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  };
  const and = (): unknown => {
    let v = unary();
    while (peek() === '&&') {
      next();
      const w = unary();
      v = truthy(v) ? w : v;
    }
    return v;
  };
  const unary = (): unknown => {
    if (peek() !== '!') return comparison();
    next();
    return !truthy(unary());
  };
  const comparison = (): unknown => {
    const a = primary();
    const op = peek();
    if (op !== '==' && op !== '!=') return a;
    next();
    const b = primary();
    const same = String(a ?? '').toLowerCase() === String(b ?? '').toLowerCase();
    return op === '==' ? same : !same;
  };
  const primary = (): unknown => {
    const t = next();
    if (t === undefined) throw new Error(`expression ends early: ${expr}`);
    if (t === '(') {
      const v = or();
      if (next() !== ')') throw new Error(`no closing parenthesis: ${expr}`);
      return v;
    }
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    const calls: Record<string, boolean> = { 'success()': !failed, 'failure()': failed, 'always()': true, 'cancelled()': false };
    if (t.endsWith('()')) {
      if (!(t in calls)) throw new Error(`an unknown function: ${t}`);
      return calls[t];
    }
    if (!/^[A-Za-z_]/.test(t)) throw new Error(`unexpected ${t} in ${expr}`);
    return t.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), ctx);
  };
  const value = or();
  if (i !== tokens.length) throw new Error(`text after the expression: ${expr}`);
  return value;
}

/** A string with each `${{ }}` replaced by its value. */
export function interpolate(text: string, ctx: Context, failed = false): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => {
    const v = evaluate(e, ctx, failed);
    return v === undefined || v === null ? '' : String(v);
  });
}

export interface StepRecord {
  readonly name: string;
  /** `skipped` when its `if:` was false, `not-run-here` for a `uses:` step that would have run. */
  readonly outcome: 'success' | 'failure' | 'skipped' | 'not-run-here';
  readonly status?: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly uses?: string;
  readonly with?: Record<string, string>;
}

export interface ActionRun {
  readonly steps: StepRecord[];
  readonly outputs: Record<string, string>;
  /** The job summary: every step's GITHUB_STEP_SUMMARY, in order. */
  readonly summary: string;
  readonly failed: boolean;
}

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
export function readOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(l);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: ${heredoc[1]} has no end delimiter`);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = l.indexOf('=');
      if (eq < 1) throw new Error(`GITHUB_OUTPUT: not name=value: ${l}`);
      out[l.slice(0, eq)] = l.slice(eq + 1);
    }
  }
  return out;
}

export interface RunOptions {
  /** The parsed action.yml. */
  readonly action: Yaml;
  /** Given inputs; the others take action.yml's defaults. */
  readonly inputs: Record<string, string>;
  /** The `github` context (action_path, workspace, event, …). */
  readonly github: Record<string, unknown>;
  /** The environment every step starts from (the runner's GITHUB_* variables included). */
  readonly env: Record<string, string>;
  readonly cwd: string;
}

const object = (y: Yaml | undefined, what: string): { [key: string]: Yaml } => {
  if (y === undefined) return {};
  if (typeof y !== 'object' || Array.isArray(y)) throw new Error(`${what} is not a mapping`);
  return y;
};
const text = (y: Yaml | undefined, what: string): string | undefined => {
  if (y !== undefined && typeof y !== 'string') throw new Error(`${what} is not a scalar`);
  return y;
};

/** The `run:` scripts of a composite action, in order, by step name. */
export function runScripts(action: Yaml): { name: string; run: string }[] {
  const steps = object(action, 'action.yml').runs;
  const list = object(steps, 'runs').steps;
  if (!Array.isArray(list)) throw new Error('runs.steps is not a sequence');
  return list.flatMap((s, i) => {
    const step = object(s, `step ${i + 1}`);
    const run = text(step.run, 'run');
    return run === undefined ? [] : [{ name: text(step.name, 'name') ?? `step ${i + 1}`, run }];
  });
}

/** Runs every step of the composite action in `options.action`, as the runner would. */
export function runAction(options: RunOptions): ActionRun {
  const action = object(options.action, 'action.yml');
  const declared = object(action.inputs, 'inputs');
  for (const name of Object.keys(options.inputs)) if (!Object.hasOwn(declared, name)) throw new Error(`the action has no input ${name}`);
  const steps: Record<string, { outputs: Record<string, string>; outcome: string }> = {};
  const ctx: Context = { github: options.github, steps, inputs: {} };
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(declared))
    inputs[name] = options.inputs[name] ?? interpolate(text(object(spec, name).default, name) ?? '', ctx);
  ctx.inputs = inputs;
  const list = object(action.runs, 'runs').steps;
  if (!Array.isArray(list)) throw new Error('runs.steps is not a sequence');
  const records: StepRecord[] = [];
  const summary: string[] = [];
  let failed = false;
  const scratch = mkdtempSync(join(tmpdir(), 'boxwright-action-run-'));
  try {
    list.forEach((s, n) => {
      const step = object(s, `step ${n + 1}`);
      const name = text(step.name, 'name') ?? `step ${n + 1}`;
      const id = text(step.id, 'id');
      const condition = text(step.if, 'if')?.replace(/^\$\{\{(.*)\}\}$/s, '$1') ?? 'success()';
      const runs = evaluate(condition, ctx, failed);
      const record = (r: StepRecord, outputs: Record<string, string> = {}) => {
        records.push(r);
        if (id) steps[id] = { outputs, outcome: r.outcome === 'not-run-here' ? 'success' : r.outcome };
      };
      if (!(runs !== '' && runs !== false && runs !== undefined)) return record({ name, outcome: 'skipped', stdout: '', stderr: '' });
      const uses = text(step.uses, 'uses');
      if (uses !== undefined) {
        const withs = Object.fromEntries(
          Object.entries(object(step.with, 'with')).map(([k, v]) => [k, interpolate(text(v, k) ?? '', ctx, failed)]),
        );
        return record({ name, outcome: 'not-run-here', uses, with: withs, stdout: '', stderr: '' });
      }
      const run = text(step.run, 'run');
      if (run === undefined || text(step.shell, 'shell') !== 'bash') throw new Error(`${name}: neither uses: nor run: with shell: bash`);
      const files = { GITHUB_OUTPUT: join(scratch, `output-${n}`), GITHUB_STEP_SUMMARY: join(scratch, `summary-${n}`) };
      for (const f of Object.values(files)) writeFileSync(f, '');
      const script = join(scratch, `step-${n}.sh`);
      writeFileSync(script, run);
      const env: Record<string, string> = { ...options.env, ...files };
      for (const [k, v] of Object.entries(object(step.env, 'env'))) env[k] = interpolate(text(v, k) ?? '', ctx, failed);
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: options.cwd, env, encoding: 'utf8' });
      if (r.error) throw r.error;
      const outcome = r.status === 0 ? 'success' : 'failure';
      if (outcome === 'failure') failed = true;
      summary.push(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'));
      record(
        { name, outcome, status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr },
        readOutputFile(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
      );
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const outputs = Object.fromEntries(
    Object.entries(object(action.outputs, 'outputs')).map(([k, v]) => [k, interpolate(text(object(v, k).value, k) ?? '', ctx, failed)]),
  );
  return { steps: records, outputs, summary: summary.join(''), failed };
}
