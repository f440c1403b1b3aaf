/**
 * Codex's config.toml through the pipeline: TOML → Codex's own schema
 * (compiler/schema/codex.ts) → IR (compiler/ir/codex.ts) → model
 * (model/codex.ts) → rules, as checkConfig does for Box and TYBA. Its own
 * module, so that the Codex front end stays out of the way of the others.
 */
import type { Diagnostic } from '../compiler/diagnostic.js';
import { compareDiagnostics, PLATFORMS, verdictsOf } from '../compiler/diagnostic.js';
import { credentialFacts, linuxFacts } from '../compiler/ir/build.js';
import { buildCodexIR } from '../compiler/ir/codex.js';
import { validateCodex } from '../compiler/schema/codex.js';
import type { TomlParseResult } from '../compiler/toml/ast.js';
import { parseToml } from '../compiler/toml/index.js';
import { effectiveAccess } from '../model/index.js';
import { platformModels } from '../targets/units.js';
import { checkRules } from '../rules/index.js';
import { syntaxDiagnostics } from '../rules/toml-syntax.js';
import { pathsTooLong } from '../rules/unrepresentable-path.js';
import type { PolicyIR, TrustedFile } from '../compiler/ir/types.js';
import type { FsView } from '../compiler/paths/view.js';
import type { AccessModel } from '../model/index.js';
import type { Platform, Verdict } from '../compiler/diagnostic.js';
import type { TomlComment } from '../compiler/toml/ast.js';

/** What checkConfig passes on (app/check.ts's CheckOptions, the part a Codex config reads). */
export interface CodexCheckOptions {
  readonly file: string;
  readonly view: FsView;
  readonly worktree: string;
  readonly platforms?: readonly Platform[];
  readonly trustedFiles?: readonly TrustedFile[];
  readonly tmpdir?: string;
}

/** checkConfig's CheckResult, for a Codex config. */
export interface CodexChecked {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly dialect: 'codex';
  readonly diagnostics: readonly Diagnostic[];
  readonly verdicts: Record<Platform, Verdict>;
  readonly comments: readonly TomlComment[];
  readonly ir?: PolicyIR;
  readonly model?: AccessModel;
}

export function checkCodex(bytes: Uint8Array, options: CodexCheckOptions, parsed: TomlParseResult = parseToml(bytes)): CodexChecked {
  const { file } = options;
  const platforms = options.platforms ?? PLATFORMS;
  const finish = (diagnostics: Diagnostic[], checked?: { ir: PolicyIR; model: AccessModel }): CodexChecked => {
    const kept = diagnostics
      .map((d) => ({ ...d, platforms: d.platforms.filter((p) => platforms.includes(p)) }))
      .filter((d) => d.platforms.length > 0)
      .sort(compareDiagnostics);
    const base = {
      file,
      bytes,
      text: parsed.text,
      dialect: 'codex' as const,
      diagnostics: kept,
      verdicts: verdictsOf(kept),
      comments: parsed.comments,
    };
    return checked ? { ...base, ir: checked.ir, model: checked.model } : base;
  };
  if (!parsed.document) return finish(syntaxDiagnostics(parsed.errors, file));
  const schema = validateCodex(parsed.document, file);
  if (schema.some((d) => d.severity === 'error')) return finish(schema);
  // The caller's environment (the CLI passes its io's); a library caller without one gets the process's.
  const tmpdir = options.tmpdir ?? process.env['TMPDIR'];
  const ir = buildCodexIR(parsed.document, {
    file,
    view: options.view,
    worktree: options.worktree,
    ...(tmpdir ? { tmpdir } : {}),
    knownCredentials: credentialFacts(options.view),
    linux: linuxFacts(options.view, 'codex', false),
    ...(options.trustedFiles ? { trustedFiles: options.trustedFiles } : {}),
  });
  const tooLong = pathsTooLong(ir);
  if (tooLong.length) return finish([...schema, ...tooLong]);
  const model = effectiveAccess(ir, platformModels);
  return finish([...schema, ...checkRules(ir, model, { view: options.view, comments: parsed.comments, text: parsed.text })], { ir, model });
}
