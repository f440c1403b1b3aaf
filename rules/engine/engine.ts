/**
 * The rule engine. A rule is its metadata, a table of the messages it may
 * report (ESLint's `meta.messages`: each with its severity and platforms),
 * the model facts it explains (the footnotes of `explain`), and what it
 * judges: visitors the engine calls as it walks the model once (ESLint's
 * visitors: `principal`, `grant`, …, each with the walk's guards applied
 * here, not in every rule), and a `check` for what is about the whole
 * config. The engine knows no rule by name: it runs what the registry
 * lists, and it refuses a report the rule's table does not declare, so a
 * rule's documented severity is the one it reports.
 */
import type { Diagnostic, Fix, Platform, RelatedLocation, Severity } from '../../compiler/diagnostic.js';
import type { Entry, Grant, PolicyIR } from '../../compiler/ir/types.js';
import type { FsView } from '../../compiler/paths/view.js';
import type { Span } from '../../compiler/span.js';
import type { Dialect } from '../../compiler/schema/validate.js';
import type { TomlComment } from '../../compiler/toml/ast.js';
import type { AccessModel, Fact, FactKind, GrantAccess, PrincipalAccess } from '../../model/index.js';

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

/** Where a report is, which of the message's platforms it is for, and its suggestion as edits (rules/engine/fix.ts). */
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

/** A grant a person wrote whose path resolved: what most grant rules judge. */
export type PathGrant = Grant & { readonly path: string };
/** A grant boxwright makes itself (TYBA's session grants, sandbox-runtime's mandatory denies). */
export type ImplicitGrant = Grant & { readonly implicit: NonNullable<Grant['implicit']> };

/**
 * What a rule asks the walk for. The engine walks `ctx.access.principals`
 * once, in order, and each principal's grants in order (the model's
 * `pa.grants[i].grant` is the IR's `pa.principal.grants[i]`); for each it
 * calls the visitors of every rule that declares them. A visitor names the
 * guard it wants: `grant` sees only authored grants with a resolved path,
 * the guard (`g.implicit || !g.path`) most rules repeated.
 */
export interface Visitors<M extends Messages = Messages> {
  /** Each principal, before its grants (`pa.principal` is the IR's). */
  principal?(pa: PrincipalAccess, ctx: RuleContext<M>): void;
  /** Each authored grant whose path resolved. */
  grant?(g: PathGrant, ga: GrantAccess, pa: PrincipalAccess, ctx: RuleContext<M>): void;
  /** Each authored grant, its path resolved or not (rules about how a path is written). */
  authoredGrant?(g: Grant, ga: GrantAccess, pa: PrincipalAccess, ctx: RuleContext<M>): void;
  /** Each grant boxwright makes itself. */
  implicitGrant?(g: ImplicitGrant, ga: GrantAccess, pa: PrincipalAccess, ctx: RuleContext<M>): void;
  /** Every grant, authored or implicit. */
  anyGrant?(g: Grant, ga: GrantAccess, pa: PrincipalAccess, ctx: RuleContext<M>): void;
  /** Each path entry a person wrote: the authored grants, then the workspace (rules about how a path is spelled). */
  entry?(e: Entry, pa: PrincipalAccess, ctx: RuleContext<M>): void;
  /** Each principal, after its grants. */
  principalExit?(pa: PrincipalAccess, ctx: RuleContext<M>): void;
}

export interface Rule<Id extends string = string, M extends Messages = Messages> extends Visitors<M> {
  readonly meta: RuleMeta<Id>;
  readonly messages: M;
  readonly explains?: Explains;
  /**
   * What is about the whole config, not one principal or grant; called
   * before the walk. A rule may have neither a check nor visitors: those
   * the front end and the suppressions report (`toml-syntax`, `schema`,
   * `suppression`). Methods, so that a rule with its own message table is
   * also a `Rule` of any table (the registry's).
   */
  check?(ctx: RuleContext<M>): void;
}

const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The dialects a rule without `dialects` applies to: the rules written for Box and TYBA know nothing of the JSON dialects' grants. */
const tomlDialects: readonly Dialect[] = ['box', 'tyba'];

/** Declares a rule; its metadata's severities are read off its message table. */
export function defineRule<const Id extends string, M extends Messages>(
  rule: {
    readonly meta: Omit<RuleMeta<Id>, 'severity'>;
    readonly messages: M;
    readonly explains?: Explains;
    readonly check?: (ctx: RuleContext<M>) => void;
  } & Visitors<M>,
): Rule<Id, M> {
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
  // Tested first: a global replace copies the text even where nothing matches (40,000 messages of a large config, 16 MB).
  if (!hasControl.test(text)) return text;
  return text.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => escapes.get(c) ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
const hasControl = /[\u0000-\u001f\u007f]/;
const escapes = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

type GrantVisitor = (g: Grant, ga: GrantAccess, pa: PrincipalAccess, ctx: RuleContext) => void;
type PrincipalVisitor = (pa: PrincipalAccess, ctx: RuleContext) => void;
type EntryVisitor = (e: Entry, pa: PrincipalAccess, ctx: RuleContext) => void;

/**
 * Runs `rules` over the model (rules/index.ts passes the registry): each
 * rule's check, then one walk of the principals and their grants calling
 * the rules' visitors. The diagnostics come out rule by rule, in the
 * rules' order, each rule's in the order it reported them.
 */
export function runRules(ir: PolicyIR, model: AccessModel, input: EngineInput, rules: readonly Rule[]): Diagnostic[] {
  const reported: Diagnostic[][] = [];
  const principal: [PrincipalVisitor, RuleContext][] = [];
  const grant: [GrantVisitor, RuleContext][] = [];
  const authoredGrant: [GrantVisitor, RuleContext][] = [];
  const implicitGrant: [GrantVisitor, RuleContext][] = [];
  const anyGrant: [GrantVisitor, RuleContext][] = [];
  const entry: [EntryVisitor, RuleContext][] = [];
  const principalExit: [PrincipalVisitor, RuleContext][] = [];
  for (const rule of rules) {
    if (
      !rule.check &&
      !rule.principal &&
      !rule.grant &&
      !rule.authoredGrant &&
      !rule.implicitGrant &&
      !rule.anyGrant &&
      !rule.entry &&
      !rule.principalExit
    )
      continue;
    if (!(rule.meta.dialects ?? tomlDialects).includes(ir.dialect)) continue;
    const out: Diagnostic[] = [];
    reported.push(out);
    const ctx = contextOf(rule, ir, model, input, out);
    rule.check?.(ctx);
    if (rule.principal) principal.push([rule.principal, ctx]);
    if (rule.grant) grant.push([rule.grant as GrantVisitor, ctx]);
    if (rule.authoredGrant) authoredGrant.push([rule.authoredGrant, ctx]);
    if (rule.implicitGrant) implicitGrant.push([rule.implicitGrant as GrantVisitor, ctx]);
    if (rule.anyGrant) anyGrant.push([rule.anyGrant, ctx]);
    if (rule.entry) entry.push([rule.entry, ctx]);
    if (rule.principalExit) principalExit.push([rule.principalExit, ctx]);
  }
  const visitsGrants = grant.length + authoredGrant.length + implicitGrant.length + anyGrant.length + entry.length > 0;
  // Indexed loops in the walk: a `for (const [visit, ctx] of …)` per grant made an iterator and its results for
  // every visitor of every grant (25 MB for a 40,000-grant config), all garbage.
  const visitGrant = (visitors: readonly [GrantVisitor, RuleContext][], g: Grant, ga: GrantAccess, pa: PrincipalAccess): void => {
    for (let i = 0; i < visitors.length; i++) {
      const v = visitors[i]!;
      const visit = v[0];
      visit(g, ga, pa, v[1]);
    }
  };
  for (const pa of model.principals) {
    for (const [visit, ctx] of principal) visit(pa, ctx);
    if (visitsGrants) {
      const grants = pa.grants;
      for (let k = 0; k < grants.length; k++) {
        const ga = grants[k]!;
        const g = ga.grant;
        visitGrant(anyGrant, g, ga, pa);
        if (g.implicit) {
          visitGrant(implicitGrant, g, ga, pa);
          continue;
        }
        visitGrant(authoredGrant, g, ga, pa);
        for (let i = 0; i < entry.length; i++) {
          const v = entry[i]!;
          const visit = v[0];
          visit(g, pa, v[1]);
        }
        if (g.path) visitGrant(grant, g, ga, pa);
      }
    }
    const workspace = pa.principal.workspace;
    if (workspace) for (const [visit, ctx] of entry) visit(workspace, pa, ctx);
    for (const [visit, ctx] of principalExit) visit(pa, ctx);
  }
  return reported.flat();
}

/** The context a rule reports through: its reports land in `out`, checked against its message table. */
function contextOf(rule: Rule, ir: PolicyIR, model: AccessModel, input: EngineInput, out: Diagnostic[]): RuleContext {
  return {
    ir,
    access: model,
    view: input.view,
    text: input.text,
    report(id: string, at: At, ...data: unknown[]) {
      const def = rule.messages[id] as MessageDef<unknown> | undefined;
      if (!def) throw new UndeclaredReportError(rule.meta.id, `reports message ${JSON.stringify(id)}, which its table does not declare`);
      const platforms = at.platforms ?? def.platforms;
      const extra = platforms.filter((p) => !def.platforms.includes(p));
      if (extra.length || platforms.length === 0)
        throw new UndeclaredReportError(
          rule.meta.id,
          `message ${id} is declared for ${def.platforms.join(', ')}, not for ${platforms.join(', ') || 'no platform'}`,
        );
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
        finding: id,
      });
    },
  };
}
