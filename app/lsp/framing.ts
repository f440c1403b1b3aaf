/**
 * How the language server reads its client. The protocol frames each
 * message with a `Content-Length` header; vscode-jsonrpc's own reader
 * buffers a whole body before it decodes it, however long the header says
 * it is, so a client (or a stray writer on the pipe) that announces
 * gigabytes would grow the server without end. This reader frames the
 * messages itself: a body longer than `maxBody` is read past without being
 * kept (the server says so, and goes on with the next message), a header
 * that never ends stops the server (nothing after it can be framed again),
 * and a body that is no JSON is an error the connection reports, not a
 * crash.
 *
 * And it says where the input ended, in order: after the last message it
 * delivers a notification of its own (END_OF_INPUT), which the connection
 * handles after every message before it. A client that writes its
 * messages and closes the pipe (`… | boxwright lsp --stdio`) has each of
 * them handled before the server ends, and the server still ends.
 */
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message, type MessageReader } from 'vscode-languageserver/node';
import { MAX_INPUT_BYTES } from '../input/read-input.js';

/**
 * The longest message read: a document of MAX_INPUT_BYTES (16 MiB) as a
 * JSON string in a didOpen, with room for escapes (a tab or a quote takes
 * two bytes), and the rest of the message.
 */
export const MAX_MESSAGE_BYTES = 3 * MAX_INPUT_BYTES;
/** The header part of a message: a `Content-Length` and perhaps a `Content-Type` line. */
export const MAX_HEADER_BYTES = 8192;

const END = Buffer.from('\r\n\r\n');

export interface FramingEvents {
  /** A message was dropped (its length, in bytes): the server tells the user. */
  readonly dropped: (bytes: number) => void;
  /** The stream cannot be framed any more: the server stops with this reason. */
  readonly broken: (reason: string) => void;
}

/** The bodies of the messages, one Buffer each (an object stream), those too long left out. */
export function boundedFraming(events: FramingEvents, maxBody = MAX_MESSAGE_BYTES): Transform {
  let header = Buffer.alloc(0);
  /** Bytes of the current body still to come, and whether they are passed on. */
  let body = 0;
  let keep = true;
  let broken = false;
  let kept: Buffer[] = [];
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let data = chunk;
      while (data.length > 0 && !broken) {
        if (body > 0) {
          const take = Math.min(body, data.length);
          if (keep) kept.push(data.subarray(0, take));
          body -= take;
          data = data.subarray(take);
          if (body === 0 && keep) {
            this.push(Buffer.concat(kept));
            kept = [];
          }
          continue;
        }
        header = Buffer.concat([header, data]);
        data = Buffer.alloc(0);
        const end = header.indexOf(END);
        if (end < 0) {
          if (header.length > MAX_HEADER_BYTES) {
            broken = true;
            events.broken(`a message header runs past ${MAX_HEADER_BYTES} bytes without its blank line: not the protocol's framing`);
          }
          break;
        }
        const head = header.subarray(0, end + END.length);
        data = header.subarray(end + END.length);
        header = Buffer.alloc(0);
        const length = contentLength(head.toString('ascii'));
        // No length: an empty body, which is no JSON (the connection reports it); the next header follows, as vscode-jsonrpc reads it.
        body = length ?? 0;
        keep = body <= maxBody;
        if (!keep) events.dropped(body);
        else if (body === 0) this.push(Buffer.alloc(0));
      }
      done();
    },
  });
}

/** The Content-Length of a header block, as vscode-jsonrpc reads it (case-insensitive name, a decimal number). */
function contentLength(head: string): number | undefined {
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = Number.parseInt(line.slice(colon + 1).trim(), 10);
    return Number.isNaN(value) || value < 0 ? undefined : value;
  }
  return undefined;
}

/** The notification the reader delivers after the last message of its input. */
export const END_OF_INPUT = '$/boxwright/endOfInput';

/** A MessageReader of the framed bodies (JSON, UTF-8: the protocol's only encoding), then END_OF_INPUT. */
export class FramedMessageReader extends AbstractMessageReader implements MessageReader {
  constructor(private readonly bodies: Readable) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const data = (body: Buffer): void => {
      let message: unknown;
      try {
        message = JSON.parse(body.toString('utf8'));
      } catch (e) {
        this.fireError(new Error(`a message that is no JSON (${(e as Error).message}) was passed over`));
        return;
      }
      callback(message as Message);
    };
    const end = (): void => callback({ jsonrpc: '2.0', method: END_OF_INPUT } as Message);
    this.bodies.on('data', data);
    this.bodies.on('end', end);
    return { dispose: () => void this.bodies.off('data', data).off('end', end) };
  }
}
