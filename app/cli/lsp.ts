import { Readable, Writable } from 'node:stream';
import { documentChecker, type LspArgs } from '../lsp/checker.js';
import type { CliIo } from './io.js';
import { UsageError } from './options.js';

/**
 * `boxwright lsp --stdio`: the language server on standard input and
 * output, until the client ends it. Exit 0 after the protocol's shutdown,
 * 1 when the input ends without one (the protocol's rule), 2 for a usage
 * error or a stream that is no longer framed.
 *
 * The server and vscode-languageserver are imported here, on demand; the
 * build gives the command a bundle of its own (scripts/bundles.mjs), so no
 * other command loads them.
 */
export async function lspCommand(args: LspArgs & { stdio?: boolean }, io: CliIo): Promise<number> {
  if (!args.stdio)
    throw new UsageError('--stdio is required: the server speaks the protocol on standard input and output, its only transport');
  const checker = documentChecker(args, io);
  const { startServer } = await import('../lsp/server.js');
  const input = 'fd' in io.stdin ? process.stdin : Readable.from([Buffer.from(io.stdin.bytes)]);
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      io.stdout.write(chunk);
      done();
    },
  });
  const status = await new Promise<number>((resolve) => {
    let shutdown = false;
    const connection = startServer(
      {
        input,
        output,
        broken: (reason) => {
          io.stderr.write(`boxwright lsp: ${reason}\n`);
          resolve(2);
        },
        // The client closed its end without the protocol's `exit`, once every message before has been handled and answered.
        ended: () => resolve(shutdown ? 0 : 1),
      },
      checker,
    );
    connection.onShutdown(() => {
      shutdown = true;
    });
  });
  // vscode-languageserver ends the process itself at the protocol's `exit` (process.exit); at the end of the input, or a broken
  // stream, so does the command: the library's timers (the watch on the client's process) would otherwise keep it running.
  if ('fd' in io.stdin) process.exit(status);
  return status;
}
