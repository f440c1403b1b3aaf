import type { Diagnostic, Platform, Verdict } from '../compiler/diagnostic.js';
import { compareDiagnostics, PLATFORMS, verdictsOf } from '../compiler/diagnostic.js';
import { buildIR, credentialFacts, linuxFacts } from '../compiler/ir/build.js';
import { buildSettingsIR } from '../compiler/ir/settings.js';
import { parseJson } from '../compiler/json/index.js';
import type { PolicyIR, TrustedFile } from '../compiler/ir/types.js';
import type { HostTrustedInput } from '../compiler/paths/host-trusted.js';
import type { FsView } from '../compiler/paths/view.js';
import { detectDialect, isJsonText } from '../compiler/schema/dialect.js';
import { peerBeforeParse, peerOfDocument, type PeerFile } from '../compiler/schema/peers.js';
import { validateJsonDocument } from '../compiler/schema/validate-json.js';
import { isProjectFilePath, PROJECT_FILE_NAME } from '../compiler/schema/project-name.js';
import { isJsonDialect, validateDocument, type Dialect, type JsonDialect } from '../compiler/schema/validate.js';
import type { TomlComment } from '../compiler/toml/ast.js';
import { parseToml } from '../compiler/toml/index.js';
import { effectiveAccess, type AccessModel } from '../model/index.js';
import { platformModels } from '../targets/units.js';
import { checkRules } from '../rules/index.js';
import { checkCodex } from './check-codex.js';
import { checkPeerSettings, hasVscodeSandbox } from './check-peers.js';
import { jsonSyntax } from '../rules/json-syntax.js';
import { pathsTooLong } from '../rules/unrepresentable-path.js';
import { syntaxDiagnostics } from '../rules/toml-syntax.js';

export interface CheckOptions {
  readonly file: string;
  /** Where the file is in the project when `file` is only its label (`HEAD:.claude/settings.json`): settings paths resolve from here. */
  readonly location?: string;
  readonly view: FsView;
  readonly dialect?: Dialect;
  readonly worktree: string;
  readonly tybaDataDir?: string;
  readonly agentDirs?: readonly string[];
  /** Linux execute confinement of a Box config: Landlock (true) or mounts alone (false). */
  readonly landlock?: boolean;
  /** Only these platforms' diagnostics are kept (all by default). */
  readonly platforms?: readonly Platform[];
  /** boxwright's own files this command trusts after a run (`trusted-file-writable`). */
  readonly trustedFiles?: readonly TrustedFile[];
  /**
   * boxwright's own inputs and outputs for this command (the config file, a
   * manifest, compile's --out, run's cache): host-trusted paths, read-only
   * inside every write grant like the data file's (host-trusted-path).
   */
  readonly hostTrusted?: readonly HostTrustedInput[];
  /** Codex configs: `$TMPDIR` as Codex's commands see it (Codex makes it writable); the environment's by default. */
  readonly tmpdir?: string;
}

interface CheckedText {
  readonly file: string;
  /** The config's bytes, as read (artifact headers hash them). */
  readonly bytes: Uint8Array;
  /** The decoded text, for code frames. */
  readonly text: string;
  readonly dialect?: Dialect;
  readonly diagnostics: readonly Diagnostic[];
  readonly verdicts: Record<Platform, Verdict>;
  readonly comments: readonly TomlComment[];
  /** Another agent's own file (issue 36): not read as a dialect of boxwright's; lint passes it over or refuses it. */
  readonly peer?: PeerFile;
}

/**
 * One config checked: what every command that reads a config works from.
 * When the front end succeeded it carries the IR and the one
 * effective-access model built from it, which the rules judged and which
 * explain, diff and the targets take as they are: no command builds
 * either again.
 */
export type CheckResult = CheckedText &
  ({ readonly ir: PolicyIR; readonly model: AccessModel } | { readonly ir?: undefined; readonly model?: undefined });

/** A check whose front end succeeded: it has the IR and the model. */
export type CheckedPolicy = Extract<CheckResult, { readonly ir: PolicyIR }>;

/**
 * The whole front end, the model and the rules, one direction: TOML →
 * schema → IR → model → rules. Each stage stops the pipeline when it finds
 * errors, since later stages would only repeat them in other words.
 */
export function checkConfig(bytes: Uint8Array, options: CheckOptions): CheckResult {
  const { file } = options;
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8');
  // A peer's own file by its place or a Seatbelt start, before either syntax reads it (issue 36); --dialect says otherwise.
  const placed = options.dialect ? undefined : peerBeforeParse(head, file);
  // The project file is never read as a config (issue 40): lint reads it as what it is; explain, compile and run refuse it.
  if (!options.dialect && isProjectFilePath(options.location ?? file)) return projectFileChecked(bytes, file);
  // Codex's config.toml is a dialect of its own (issue 39): found by its place, its keys, or --dialect codex.
  if (placed?.format === 'codex' || options.dialect === 'codex') return checkCodex(bytes, options);
  // Cursor's sandbox.json and VS Code's agent sandbox settings: linted (issue 39); VS Code settings without them are passed over.
  if (placed?.format === 'cursor' || options.dialect === 'cursor') return checkPeerSettings(bytes, options, 'cursor');
  if ((placed?.format === 'vscode' && hasVscodeSandbox(bytes)) || options.dialect === 'vscode')
    return checkPeerSettings(bytes, options, 'vscode');
  if (placed) return peerChecked(bytes, file, placed);
  // JSON by its dialect, its name or its first character; a TOML dialect asked of a JSON text is an error checkSettings words.
  if (isJsonDialect(options.dialect) || isJsonText(head, file)) return checkSettings(bytes, options);
  const parsed = parseToml(bytes);
  const finish = (diagnostics: Diagnostic[], dialect?: Dialect, checked?: { ir: PolicyIR; model: AccessModel }): CheckResult => {
    const platforms = options.platforms ?? PLATFORMS;
    const kept = diagnostics
      .map((d) => ({ ...d, platforms: d.platforms.filter((p) => platforms.includes(p)) }))
      .filter((d) => d.platforms.length > 0)
      .sort(compareDiagnostics);
    const text: CheckedText = {
      file,
      bytes,
      text: parsed.text,
      ...(dialect ? { dialect } : {}),
      diagnostics: kept,
      verdicts: verdictsOf(kept),
      comments: parsed.comments,
    };
    return checked ? { ...text, ir: checked.ir, model: checked.model } : text;
  };
  if (!parsed.document) {
    return finish(syntaxDiagnostics(parsed.errors, file));
  }
  // Codex's config by its keys, with the one parse: never read as a Box or TYBA config.
  const codex = options.dialect ? undefined : peerOfDocument({ syntax: 'toml', table: parsed.document });
  if (codex?.format === 'codex') return checkCodex(bytes, options, parsed);
  const detected = detectDialect(parsed.document, file, options.dialect);
  if ('diagnostic' in detected) return finish([detected.diagnostic]);
  const { dialect } = detected;
  if (dialect !== 'box' && dialect !== 'tyba')
    return finish([
      {
        ruleId: 'schema',
        severity: 'error',
        platforms: PLATFORMS,
        file,
        message: `--dialect ${dialect} reads JSON settings, and this file is TOML`,
        span: { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
      },
    ]);
  const schemaDiagnostics = validateDocument(parsed.document, dialect, file);
  if (schemaDiagnostics.length) return finish(schemaDiagnostics, dialect);
  const ir = buildIR(parsed.document, {
    file,
    dialect,
    view: options.view,
    worktree: options.worktree,
    ...(options.tybaDataDir ? { tybaDataDir: options.tybaDataDir } : {}),
    ...(options.agentDirs ? { agentDirs: options.agentDirs } : {}),
    ...(options.landlock !== undefined ? { landlock: options.landlock } : {}),
    ...(options.trustedFiles ? { trustedFiles: options.trustedFiles } : {}),
    ...(options.hostTrusted ? { hostTrusted: options.hostTrusted } : {}),
  });
  // A path no platform takes stops here: the model would ask about each of its ancestors.
  const tooLong = pathsTooLong(ir);
  if (tooLong.length) return finish(tooLong, dialect);
  const model = effectiveAccess(ir, platformModels);
  return finish(checkRules(ir, model, { view: options.view, comments: parsed.comments, text: parsed.text }), dialect, { ir, model });
}

/** A file that is no config of a dialect boxwright checks: one `schema` error at its start that says what it is. */
function notAConfig(bytes: Uint8Array, file: string, message: string): CheckResult {
  const start = { offset: 0, line: 1, column: 1 };
  const diagnostics: Diagnostic[] = [
    { ruleId: 'schema', severity: 'error', platforms: PLATFORMS, file, message, span: { start, end: start } },
  ];
  return { file, bytes, text: Buffer.from(bytes).toString('utf8'), diagnostics, verdicts: verdictsOf(diagnostics), comments: [] };
}

/** A peer's file, checked no further: one error that says what it is, and the peer for lint to pass over or refuse. */
function peerChecked(bytes: Uint8Array, file: string, peer: PeerFile): CheckResult {
  return { ...notAConfig(bytes, file, `this file ${peerMessage(peer.what)}`), peer };
}

/** The project file given where a config belongs: one error that says what it is. */
function projectFileChecked(bytes: Uint8Array, file: string): CheckResult {
  return notAConfig(
    bytes,
    file,
    `this file is boxwright's project file (${PROJECT_FILE_NAME}: ignores and lint defaults), not a sandbox config; \`boxwright lint\` checks it`,
  );
}

/** Why a peer's file is not checked: what lint prints when it is named, and check's diagnostic for the other commands. */
export function peerMessage(what: string): string {
  return `is ${what}, which boxwright has no dialect for yet: it is not read as a Box, TYBA, sandbox-runtime or Claude Code config`;
}

/** The diagnostics kept for the selected platforms, sorted, and the verdicts they give. */
function kept(diagnostics: readonly Diagnostic[], platforms: readonly Platform[] = PLATFORMS): Diagnostic[] {
  return diagnostics
    .map((d) => ({ ...d, platforms: d.platforms.filter((p) => platforms.includes(p)) }))
    .filter((d) => d.platforms.length > 0)
    .sort(compareDiagnostics);
}

/**
 * What an absent settings file means to its tool: sandbox-runtime runs
 * with its built-in defaults (cli.js, getDefaultConfig: no network, no
 * writes but its own, reads open); Claude Code with no settings at all.
 * What `diff` compares a config added or deleted with.
 */
const absentSettings: Record<JsonDialect, string> = {
  srt: '{"network":{"allowedDomains":[],"deniedDomains":[]},"filesystem":{"denyRead":[],"allowRead":[],"allowWrite":[],"denyWrite":[]}}',
  claude: '{}',
};

/**
 * The JSON dialects: JSON with spans → dialect → the settings schema →
 * IR → model → rules, as checkConfig does for TOML.
 */
function checkSettings(bytes: Uint8Array, options: CheckOptions): CheckResult {
  const { file } = options;
  const override = options.dialect && isJsonDialect(options.dialect) ? options.dialect : undefined;
  const input = bytes.length === 0 && override ? Buffer.from(absentSettings[override]) : bytes;
  const parsed = parseJson(input);
  const finish = (diagnostics: Diagnostic[], dialect?: Dialect, checked?: { ir: PolicyIR; model: AccessModel }): CheckResult => {
    const k = kept(diagnostics, options.platforms);
    const text: CheckedText = {
      file,
      bytes,
      text: parsed.text,
      ...(dialect ? { dialect } : {}),
      diagnostics: k,
      verdicts: verdictsOf(k),
      comments: [],
    };
    return checked ? { ...text, ir: checked.ir, model: checked.model } : text;
  };
  if (!parsed.document) {
    return finish(
      parsed.errors.map((e) => ({
        ruleId: jsonSyntax.meta.id,
        severity: jsonSyntax.messages.syntax.severity,
        platforms: jsonSyntax.messages.syntax.platforms,
        message: jsonSyntax.messages.syntax.text({ message: e.message }),
        file,
        span: e.span,
      })),
    );
  }
  if (options.dialect && !isJsonDialect(options.dialect))
    return finish([
      {
        ruleId: 'schema',
        severity: 'error',
        platforms: PLATFORMS,
        file,
        message: `--dialect ${options.dialect} reads TOML, and this file is JSON (sandbox-runtime or Claude Code settings: --dialect srt|claude)`,
        span: parsed.document.span,
      },
    ]);
  const cursor = options.dialect ? undefined : peerOfDocument({ syntax: 'json', value: parsed.document });
  if (cursor) return checkPeerSettings(bytes, options, 'cursor');
  const detected = detectDialect({ syntax: 'json', value: parsed.document }, file, override);
  if ('diagnostic' in detected) return finish([detected.diagnostic]);
  const dialect = detected.dialect as JsonDialect;
  const schemaDiagnostics = validateJsonDocument(parsed.document, dialect, file, parsed.duplicates);
  if (schemaDiagnostics.some((d) => d.severity === 'error')) return finish(schemaDiagnostics, dialect);
  const ir = buildSettingsIR(parsed.document, {
    file,
    ...(options.location ? { location: options.location } : {}),
    dialect,
    view: options.view,
    worktree: options.worktree,
    knownCredentials: credentialFacts(options.view),
    linux: linuxFacts(options.view, dialect, false),
    ...(options.trustedFiles ? { trustedFiles: options.trustedFiles } : {}),
  });
  const tooLong = pathsTooLong(ir);
  if (tooLong.length) return finish([...schemaDiagnostics, ...tooLong], dialect);
  const model = effectiveAccess(ir, platformModels);
  return finish([...schemaDiagnostics, ...checkRules(ir, model, { view: options.view, comments: [], text: parsed.text })], dialect, {
    ir,
    model,
  });
}
