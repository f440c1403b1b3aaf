import { codeFrame } from '../format/frame.js';
import { parseToml, toPlainJsonText, toTaggedJson } from '../../compiler/toml/index.js';
import { readInput } from '../input/read-input.js';

/** `boxwright parse [FILE] [--tagged]`: exit 1 with positioned errors on invalid TOML. */
export async function parseCommand(args: { file?: string; tagged?: boolean }): Promise<number> {
  const input = readInput(args.file ?? '-');
  if ('error' in input) {
    process.stderr.write(`boxwright: ${input.error}\n`);
    return 2;
  }
  const name = args.file ?? '<stdin>';
  const result = parseToml(input.bytes);
  if (!result.document) {
    for (const e of result.errors) {
      process.stderr.write(
        `${name}:${e.span.start.line}:${e.span.start.column}  error  toml-syntax  ${e.message}\n${codeFrame(result.text, e.span)}\n`,
      );
    }
    return 1;
  }
  process.stdout.write(
    args.tagged ? JSON.stringify(toTaggedJson(result.document), null, 2) + '\n' : toPlainJsonText(result.document, 2) + '\n',
  );
  return 0;
}
