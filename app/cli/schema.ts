import type { CliIo } from './io.js';
import { boxSchema, editorSchema, manifestSchema, tybaSchema } from '../../compiler/schema/schemas.js';

export async function schemaCommand(args: { dialect?: 'box' | 'tyba' | 'editor' | 'manifest' }, io: CliIo): Promise<number> {
  const schemas = { box: boxSchema, tyba: tybaSchema, editor: editorSchema, manifest: manifestSchema };
  io.stdout.write(JSON.stringify(schemas[args.dialect ?? 'editor'], null, 2) + '\n');
  return 0;
}
