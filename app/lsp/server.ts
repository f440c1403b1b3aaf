/**
 * `boxwright lsp --stdio`: the language server (issue 40), on Microsoft's
 * vscode-languageserver. Loaded only by the `lsp` command, from a bundle
 * of its own (dist/cli/lsp.cjs): a lint never reads a byte of it.
 *
 * - Diagnostics on open and on each change: the check lint makes
 *   (app/lsp/checker.ts), its spans turned into the protocol's ranges.
 * - Quick fixes from the diagnostics' fixes, judged as `lint --fix` judges
 *   them (app/fix-applicability.ts): a safe one is the preferred action,
 *   an unsafe one says in its title that it widens access.
 * - Hover: on a diagnostic, its rule's documentation (`boxwright rules
 *   ID`); on a key, its description from the dialect's schema.
 * - Completion of keys, from the same schemas (app/lsp/keys.ts).
 *
 * Positions are UTF-16 code units, the protocol's default and boxwright's
 * own offsets (compiler/span.ts): a span's offsets become line and
 * character in the editor's text by the protocol's own line breaks
 * (vscode-languageserver-textdocument), never by boxwright's 1-based
 * columns, which count lines at `\n` only.
 */
import type { Readable, Writable } from 'node:stream';
import {
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  CompletionItemKind,
  type Connection,
  createConnection,
  type Diagnostic as LspDiagnostic,
  DiagnosticSeverity,
  type Hover,
  MarkupKind,
  type Message,
  MessageType,
  type Range,
  ShowMessageNotification,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Fix } from '../../compiler/diagnostic.js';
import { isJsonText } from '../../compiler/schema/dialect.js';
import type { Dialect } from '../../compiler/schema/validate.js';
import { version } from '../../compiler/version.js';
import { allRules } from '../../rules/engine/registry.js';
import { applicabilityOfFix } from '../../rules/engine/fix.js';
import type { CheckResult } from '../check.js';
import { judgeFixes } from '../fix-applicability.js';
import { ruleDoc } from '../format/rule-doc.js';
import { MAX_INPUT_BYTES } from '../input/read-input.js';
import { type DocumentChecker, pathOf } from './checker.js';
import { boundedFraming, END_OF_INPUT, FramedMessageReader } from './framing.js';
import { keyAt, type KeyScan, scanJsonKeys } from './key-scan.js';
import { keyTree, nodeAt } from './keys.js';
import { scanTomlKeys } from './toml-keys.js';

/** One document's last check: the version it was of, and the diagnostics as boxwright and as the client got them. */
interface Checked {
  readonly version: number;
  readonly result?: CheckResult;
  readonly recheck?: (text: string) => CheckResult;
  readonly diagnostics: readonly Diagnostic[];
  readonly published: readonly LspDiagnostic[];
  /** No sandbox config: not checked (app/lsp/checker.ts). */
  readonly passedOver?: true;
  /** The diagnostics with their fixes judged, made at the first quick-fix request of this version. */
  judged?: readonly Diagnostic[];
}

const severities = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

export interface ServerStreams {
  readonly input: Readable;
  readonly output: Writable;
  /** The stream cannot be framed any more (app/lsp/framing.ts): the command stops with this reason. */
  readonly broken: (reason: string) => void;
  /** The input ended, and every message it held has been handled. */
  readonly ended?: () => void;
  /** The longest message kept (default MAX_MESSAGE_BYTES; a test's is smaller). */
  readonly maxMessageBytes?: number;
}

export function startServer(streams: ServerStreams, checker: DocumentChecker): Connection {
  const framed = streams.input.pipe(
    boundedFraming(
      {
        // A notification: the user is told, and no answer is awaited.
        dropped: (bytes) =>
          void connection.sendNotification(ShowMessageNotification.type, {
            type: MessageType.Error,
            message:
              `boxwright lsp: a message of ${bytes} bytes was dropped: ` +
              `longer than any holding a document of ${MAX_INPUT_BYTES / 1024 / 1024} MiB, the most boxwright reads`,
          }),
        broken: streams.broken,
      },
      streams.maxMessageBytes,
    ),
  );
  const writer = new WrittenWriter(streams.output);
  const connection = createConnection(new FramedMessageReader(framed), writer);
  // After every message the input held (app/lsp/framing.ts) was handled, and what answered them written.
  connection.onNotification(END_OF_INPUT, () => void writer.written.then(() => streams.ended?.()));
  const documents = new TextDocuments(TextDocument);
  const checked = new Map<string, Checked>();
  /** The dialect each document was last checked as: what hover and completion use while its text does not parse. */
  const dialects = new Map<string, Dialect>();
  const pending = new Set<string>();

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      completionProvider: { triggerCharacters: ['.', '"', '['] },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'boxwright', version },
  }));

  const validate = (uri: string): void => {
    pending.delete(uri);
    const doc = documents.get(uri);
    // Gone, or checked already at this version (a request came first and asked for it).
    if (!doc || checked.get(uri)?.version === doc.version) return;
    const c = checkDocument(doc, checker, (m) => connection.console.log(m));
    checked.set(uri, c);
    if (c.result?.dialect) dialects.set(uri, c.result.dialect);
    void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: [...c.published] });
  };
  // Changes that arrive together are checked once, at their last version.
  documents.onDidChangeContent(({ document }) => {
    if (pending.has(document.uri)) return;
    pending.add(document.uri);
    setImmediate(() => validate(document.uri));
  });
  documents.onDidClose(({ document }) => {
    checked.delete(document.uri);
    dialects.delete(document.uri);
    void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
  });

  /** The check of the document as the client has it now (a request may come before the scheduled check ran). */
  const current = (uri: string): { doc: TextDocument; c: Checked } | undefined => {
    const doc = documents.get(uri);
    if (!doc) return undefined;
    if (checked.get(uri)?.version !== doc.version) validate(uri);
    const c = checked.get(uri);
    return c ? { doc, c } : undefined;
  };

  connection.onCodeAction(({ textDocument, range }) => {
    const now = current(textDocument.uri);
    if (!now?.c.result || !now.c.recheck) return [];
    const { doc, c } = now;
    const result = c.result!;
    c.judged ??= result.diagnostics.some((d) => d.fix) ? judgeFixes(result, c.recheck!) : result.diagnostics;
    const actions: CodeAction[] = [];
    const seen = new Set<string>();
    c.judged.forEach((d, i) => {
      if (!d.fix || !overlaps(c.published[i]!.range, range)) return;
      const key = JSON.stringify(d.fix.edits);
      if (seen.has(key)) return;
      seen.add(key);
      const safe = applicabilityOfFix(d.fix) === 'safe';
      actions.push({
        title: fixTitle(d, safe),
        kind: CodeActionKind.QuickFix,
        diagnostics: [c.published[i]!],
        isPreferred: safe,
        edit: { changes: { [doc.uri]: fixEdits(doc, result.text, d.fix) } },
      });
    });
    return actions;
  });

  connection.onHover(({ textDocument, position }): Hover | null => {
    const now = current(textDocument.uri);
    if (!now) return null;
    const { doc, c } = now;
    const offset = doc.offsetAt(position);
    const parts: string[] = [];
    const rules = new Set(c.diagnostics.filter((_, i) => contains(doc, c.published[i]!.range, offset)).map((d) => d.ruleId));
    for (const id of rules) {
      const rule = allRules.find((r) => r.meta.id === id);
      if (rule) parts.push(ruleDoc(rule, 'markdown').trimEnd());
    }
    const text = doc.getText();
    const keys = Buffer.byteLength(text) <= MAX_INPUT_BYTES ? scan(doc, text, offset) : undefined;
    if (keys && !othersFile(c, keys)) {
      const key = keyAt(keys, offset);
      const node = key && nodeAt(keyTree(dialectOf(doc, text, dialects)), key.path);
      if (key && node?.doc) parts.push(`\`${key.path.join('.')}\`\n\n${node.doc}`);
    }
    return parts.length ? { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') } } : null;
  });

  connection.onCompletion(({ textDocument, position }): CompletionItem[] => {
    const now = current(textDocument.uri);
    if (!now) return [];
    const { doc, c } = now;
    const text = doc.getText();
    if (Buffer.byteLength(text) > MAX_INPUT_BYTES) return [];
    const keys = scan(doc, text, doc.offsetAt(position));
    if (othersFile(c, keys)) return [];
    const context = keys.context;
    const node = context && nodeAt(keyTree(dialectOf(doc, text, dialects)), context.parent);
    if (!context || !node) return [];
    const range = { start: doc.positionAt(context.start), end: doc.positionAt(context.end) };
    return [...node.keys]
      .filter(([, n]) => !context.header || n.table)
      .map(([key, n]) => {
        const newText = context.json ? JSON.stringify(key) : tomlKey(key);
        return {
          label: key,
          kind: n.table ? CompletionItemKind.Module : CompletionItemKind.Property,
          ...(n.doc ? { documentation: { kind: MarkupKind.Markdown, value: n.doc } } : {}),
          filterText: newText,
          textEdit: { range, newText },
        };
      });
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

/** The connection's writer, with its last write: vscode-jsonrpc writes each message a turn of the event loop after it is sent. */
class WrittenWriter extends StreamMessageWriter {
  written: Promise<unknown> = Promise.resolve();

  override write(message: Message): Promise<void> {
    const done = super.write(message);
    this.written = done.catch(() => undefined);
    return done;
  }
}

/**
 * Whether a document is someone else's file (a `Cargo.toml`, a
 * `package.json`): passed over by the check and holding keys already. A
 * new file, with no key yet, is offered the keys of a config.
 */
function othersFile(c: Checked, keys: KeyScan): boolean {
  return c.passedOver === true && keys.keys.length > 0;
}

/** Checks one document, never throwing: a document too large, or a check that fails, is one diagnostic that says so. */
function checkDocument(doc: TextDocument, checker: DocumentChecker, log: (message: string) => void): Checked {
  const text = doc.getText();
  const whole = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const refused = (message: string): Checked => ({
    version: doc.version,
    diagnostics: [],
    published: [{ range: whole, severity: DiagnosticSeverity.Error, source: 'boxwright', message }],
  });
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_INPUT_BYTES)
    return refused(
      `not checked: the document is ${bytes} bytes, larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB, the most boxwright reads`,
    );
  try {
    const out = checker.check(text, doc.uri);
    if ('passedOver' in out) {
      log(`boxwright: passed over ${out.passedOver}`);
      return { version: doc.version, diagnostics: [], published: [], passedOver: true };
    }
    const { result } = out;
    return {
      version: doc.version,
      result,
      recheck: out.recheck,
      diagnostics: result.diagnostics,
      published: result.diagnostics.map((d) => toLsp(doc, result.text, d)),
    };
  } catch (e) {
    log(`boxwright: ${doc.uri}: ${(e as Error)?.stack ?? String(e)}`);
    return refused(`boxwright could not check this document: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * An offset of the checked text as an offset of the document: the same,
 * but for a TOML file's byte order mark, which the parser drops
 * (compiler/toml/utf8.ts) and the editor's text may keep.
 */
function docOffset(doc: TextDocument, checkedText: string, offset: number): number {
  const text = doc.getText();
  return offset + (text.length > checkedText.length && text.endsWith(checkedText) ? text.length - checkedText.length : 0);
}

function rangeOf(doc: TextDocument, checkedText: string, start: number, end: number): Range {
  return { start: doc.positionAt(docOffset(doc, checkedText, start)), end: doc.positionAt(docOffset(doc, checkedText, end)) };
}

function toLsp(doc: TextDocument, checkedText: string, d: Diagnostic): LspDiagnostic {
  const platforms = d.platforms.length === 3 ? '' : ` [${d.platforms.join(', ')}]`;
  return {
    range: rangeOf(doc, checkedText, d.span.start.offset, d.span.end.offset),
    severity: severities[d.severity],
    source: 'boxwright',
    code: d.ruleId,
    message: `${d.message}${platforms}${d.suggestion ? `\nsuggestion: ${d.suggestion}` : ''}`,
    ...(d.related?.length
      ? {
          relatedInformation: d.related.map((r) => ({
            location: { uri: doc.uri, range: rangeOf(doc, checkedText, r.span.start.offset, r.span.end.offset) },
            message: r.message,
          })),
        }
      : {}),
  };
}

function fixEdits(doc: TextDocument, checkedText: string, fix: Fix) {
  return fix.edits.map((e) => ({ range: rangeOf(doc, checkedText, e.start, e.end), newText: e.text }));
}

/** A quick fix's title: the suggestion it carries out, and whether it widens access (unsafe: not shown to keep access as it is). */
export function fixTitle(d: Diagnostic, safe: boolean): string {
  const what = d.suggestion ? d.suggestion.replace(/\.$/, '') : `Apply the fix of ${d.ruleId}`;
  return safe ? what : `${what} (widens access)`;
}

const before = (a: { line: number; character: number }, b: { line: number; character: number }): boolean =>
  a.line < b.line || (a.line === b.line && a.character < b.character);

/** Whether two ranges share a position (an empty range touches its neighbours). */
function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function contains(doc: TextDocument, r: Range, offset: number): boolean {
  return offset >= doc.offsetAt(r.start) && offset <= doc.offsetAt(r.end);
}

function scan(doc: TextDocument, text: string, offset: number): KeyScan {
  return isJsonText(text, pathOf(doc.uri) ?? doc.uri) ? scanJsonKeys(text, offset) : scanTomlKeys(text, offset);
}

/** The dialect whose keys a document is offered: its last check's, else every dialect of its syntax. */
function dialectOf(doc: TextDocument, text: string, known: ReadonlyMap<string, Dialect>): Dialect | 'toml' | 'json' {
  return known.get(doc.uri) ?? (isJsonText(text, pathOf(doc.uri) ?? doc.uri) ? 'json' : 'toml');
}

/** A key as TOML writes it: bare where it can be, else quoted. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}
