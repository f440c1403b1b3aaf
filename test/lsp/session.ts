/**
 * A language-server session in this process: app/lsp/server.ts on one end
 * of two in-memory pipes, vscode-languageserver's own protocol connection
 * (the client side of the same library) on the other. What a test sends is
 * framed and parsed exactly as between two processes.
 */
import { PassThrough } from 'node:stream';
import {
  createProtocolConnection,
  type Diagnostic,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver/node';
import { documentChecker, type LspArgs } from '../../app/lsp/checker.js';
import { startServer } from '../../app/lsp/server.js';
import { repoRoot } from '../helpers.js';

export interface Session {
  readonly client: ProtocolConnection;
  /** What the client writes to the server, raw (framing tests write bytes of their own). */
  readonly toServer: PassThrough;
  /** The next diagnostics published for `uri` (those already published and not yet taken first). */
  diagnostics(uri: string): Promise<Diagnostic[]>;
  /** Messages the server showed the user (window/showMessage). */
  readonly shown: string[];
  /** Why the server stopped reading, if it did. */
  broken?: string;
  end(): void;
}

/** A session of a server started with `args` (default: the machine of examples/machine.json), initialized. */
export async function session(args: LspArgs = { fs: 'examples/machine.json' }, maxMessageBytes?: number): Promise<Session> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const published = new Map<string, Diagnostic[][]>();
  const waiting = new Map<string, (d: Diagnostic[]) => void>();
  const s: Session = {
    client: createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer)),
    toServer,
    shown: [],
    diagnostics: (uri) =>
      new Promise((resolve) => {
        const queued = published.get(uri)?.shift();
        if (queued) resolve(queued);
        else waiting.set(uri, resolve);
      }),
    end: () => {
      s.client.dispose();
      toServer.end();
      toClient.end();
    },
  };
  startServer(
    {
      input: toServer,
      output: toClient,
      broken: (reason) => {
        s.broken = reason;
      },
      ...(maxMessageBytes ? { maxMessageBytes } : {}),
    },
    documentChecker(args, { cwd: repoRoot, env: process.env }),
  );
  s.client.onNotification(PublishDiagnosticsNotification.type, ({ uri, diagnostics }) => {
    const w = waiting.get(uri);
    waiting.delete(uri);
    if (w) w(diagnostics);
    else published.set(uri, [...(published.get(uri) ?? []), diagnostics]);
  });
  s.client.onNotification('window/showMessage', (m: { message: string }) => void s.shown.push(m.message));
  s.client.listen();
  await s.client.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
  await s.client.sendNotification('initialized', {});
  return s;
}
