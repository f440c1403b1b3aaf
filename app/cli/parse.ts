import { codeFrame } from '../format/frame.js';
import { parseToml, toPlainJsonText, toTaggedJson } from '../../compiler/toml/index.js';
import { readArg, type CliIo } from './io.js';

/** `boxwright parse [FILE] [--tagged]`: exit 1 with positioned errors on invalid TOML. */
export async function parseCommand(args: { file?: string; tagged?: boolean }, io: CliIo): Promise<number> {
  const input = readArg(io, args.file ?? '-');
  if ('error' in input) {
    io.stderr.write(`boxwright: ${input.error}\n`);
    return 2;
  }
  const name = args.file ?? '<stdin>';
  const result = parseToml(input.bytes);
  if (!result.document) {
    for (const e of result.errors) {
      io.stderr.write(
        `${name}:${e.span.start.line}:${e.span.start.column}  error  toml-syntax  ${e.message}\n${codeFrame(result.text, e.span)}\n`,
      );
    }
    return 1;
  }
  io.stdout.write(args.tagged ? JSON.stringify(toTaggedJson(result.document), null, 2) + '\n' : toPlainJsonText(result.document, 2) + '\n');
  return 0;
}
