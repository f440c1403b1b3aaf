/**
 * The rule engine. A rule is its metadata, a table of the messages it may
 * report (ESLint's `meta.messages`: each with its severity and platforms),
 * the model facts it explains (the footnotes of `explain`), and a check
 * that judges the model and reports messages by id. The engine knows no
 * rule by name: it runs what the registry lists, and it refuses a report
 * the rule's table does not declare, so a rule's documented severity is
 * the one it reports.
 */
import type { Diagnostic, Fix, Platform, RelatedLocation, Severity } from '../compiler/diagnostic.js';
import type { PolicyIR } from '../compiler/ir/types.js';
import type { FsView } from '../compiler/paths/view.js';
import type { Span } from '../compiler/span.js';
import type { Dialect } from '../compiler/schema/validate.js';
import type { TomlComment } from '../compiler/toml/ast.js';
import type { AccessModel, Fact, FactKind } from '../model/index.js';

/**
 * A doc example and what linting it (against examples/machine.json) must
 * report for this rule, exactly, in order: `LINE:COLUMN SEVERITY
 * PLATFORM[,PLATFORM…]` (the passing example's list is usually empty).
 */
export interface DocExample {
  readonly toml: string;
  readonly expect: readonly string[];
  /** Lint it as if examples/machine.json's kernel had this Landlock ABI (a machine fact the example is about). */
  readonly landlockAbi?: number;
  /** Lint it as if it had been read from this file (what a rule about boxwright's own files is about). */
  readonly readFrom?: string;
}

export interface RuleDocs {
  /** One line, for `boxwright rules` and SARIF's shortDescription. */
  readonly summary: string;
  /** One paragraph: what happens on each platform and why. */
  readonly details: string;
  /** A config that triggers the rule, and one that does not (a prose example has no toml). */
  readonly bad: DocExample;
  readonly good: DocExample;
}

export interface MessageDef<D> {
  readonly severity: Severity;
  /** The platforms it is reported for; a report may name a subset. */
  readonly platforms: readonly Platform[];
  readonly text: (data: D) => string;
  /** The platform document's "available alternative", with a caution where it widens access. */
  readonly suggestion?: string | ((data: D) => string);
  /** The message says only that the result depends on machine facts the view lacks (an info of `--fs none`). */
  readonly machineDependent?: true;
}

/** A rule's message table: id → definition. */
export type Messages = Readonly<Record<string, MessageDef<never>>>;

type DataOf<M> = M extends MessageDef<infer D> ? D : never;

/** Where a report is, which of the message's platforms it is for, and its suggestion as edits (rules/fix.ts). */
export interface At {
  readonly span: Span;
  readonly related?: readonly RelatedLocation[];
  readonly platforms?: readonly Platform[];
  readonly fix?: Fix | undefined;
}

export interface RuleMeta<Id extends string = string> {
  readonly id: Id;
  /** The platform-document row (or design row) the rule implements. */
  readonly seedRow: string;
  /** Dialects it applies to; the two TOML dialects (Box, TYBA) when absent. */
  readonly dialects?: readonly Dialect[];
  readonly docs: RuleDocs;
  /** Derived from the message table: the worst severity on each platform. */
  readonly severity: Readonly<Partial<Record<Platform, Severity>>>;
}

/** The footnote text of each model fact this rule explains. */
export type Explains = { readonly [K in FactKind]?: (fact: Extract<Fact, { kind: K }>) => string };

export interface RuleContext<M extends Messages = Messages> {
  readonly ir: PolicyIR;
  /** The one effective-access model; rules judge it, they never recompute access. */
  readonly access: AccessModel;
  readonly view: FsView;
  /** The config as decoded: what a fix's offsets index. */
  readonly text: string;
  /** Reports message `id` of the rule's table; its data is what the message's text takes (none for a fixed text). */
  report<K extends keyof M & string>(id: K, at: At, ...data: unknown extends DataOf<M[K]> ? [] : [DataOf<M[K]>]): void;
}

export interface Rule<Id extends string = string, M extends Messages = Messages> {
  readonly meta: RuleMeta<Id>;
  readonly messages: M;
  readonly explains?: Explains;
  /**
   * Absent for the rules the front end and the suppressions report
   * (`toml-syntax`, `schema`, `suppression`). A method, so that a rule with
   * its own message table is also a `Rule` of any table (the registry's).
   */
  check?(ctx: RuleContext<M>): void;
}

const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The dialects a rule without `dialects` applies to: the rules written for Box and TYBA know nothing of the JSON dialects' grants. */
const tomlDialects: readonly Dialect[] = ['box', 'tyba'];

/** Declares a rule; its metadata's severities are read off its message table. */
export function defineRule<const Id extends string, M extends Messages>(rule: {
  readonly meta: Omit<RuleMeta<Id>, 'severity'>;
  readonly messages: M;
  readonly explains?: Explains;
  readonly check?: (ctx: RuleContext<M>) => void;
}): Rule<Id, M> {
  const severity: Partial<Record<Platform, Severity>> = {};
  for (const m of Object.values(rule.messages) as MessageDef<never>[])
    for (const p of m.platforms) if (severity[p] === undefined || rank[m.severity] < rank[severity[p]!]) severity[p] = m.severity;
  return { ...rule, meta: { ...rule.meta, severity } };
}

export interface EngineInput {
  readonly view: FsView;
  readonly comments: readonly TomlComment[];
  readonly text: string;
}

/** A report the rule's message table does not allow: a bug in the rule, never shown as a diagnostic. */
export class UndeclaredReportError extends Error {
  constructor(ruleId: string, detail: string) {
    super(`rule ${ruleId}: ${detail}`);
    this.name = 'UndeclaredReportError';
  }
}

/**
 * A message is one line: a control character in it came from the config (a
 * path holding a newline or an escape sequence) and would break the line or
 * act on the terminal, so it is shown escaped, as a TOML basic string
 * writes it (`\n`, `\u001B`). The texts the platform documents quote have
 * none, so they stay exact.
 */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => escapes.get(c) ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
const escapes = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

/** Runs `rules` over the model. The rules are given (rules/index.ts passes the registry). */
export function runRules(ir: PolicyIR, model: AccessModel, input: EngineInput, rules: readonly Rule[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const check = rule.check;
    if (!check) continue;
    if (!(rule.meta.dialects ?? tomlDialects).includes(ir.dialect)) continue;
    const ctx: RuleContext = {
      ir,
      access: model,
      view: input.view,
      text: input.text,
      report(id: string, at: At, ...data: unknown[]) {
        const def = rule.messages[id] as MessageDef<unknown> | undefined;
        if (!def) throw new UndeclaredReportError(rule.meta.id, `reports message ${JSON.stringify(id)}, which its table does not declare`);
        const platforms = at.platforms ?? def.platforms;
        const extra = platforms.filter((p) => !def.platforms.includes(p));
        if (extra.length || platforms.length === 0) throw new UndeclaredReportError(rule.meta.id, `message ${id} is declared for ${def.platforms.join(', ')}, not for ${platforms.join(', ') || 'no platform'}`);
        const suggestion = typeof def.suggestion === 'function' ? def.suggestion(data[0]) : def.suggestion;
        out.push({
          ruleId: rule.meta.id,
          severity: def.severity,
          platforms,
          message: oneLine(def.text(data[0])),
          file: ir.file,
          span: at.span,
          ...(at.related?.length ? { related: at.related.map((r) => ({ ...r, message: oneLine(r.message) })) } : {}),
          ...(suggestion ? { suggestion: oneLine(suggestion) } : {}),
          ...(at.fix ? { fix: at.fix } : {}),
          ...(def.machineDependent ? { machineDependent: true as const } : {}),
        });
      },
    };
    check(ctx);
  }
  return out;
}
