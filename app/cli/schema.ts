import { boxSchema, editorSchema, manifestSchema, tybaSchema } from '../../compiler/schema/schemas.js';

export async function schemaCommand(args: { dialect?: 'box' | 'tyba' | 'editor' | 'manifest' }): Promise<number> {
  const schemas = { box: boxSchema, tyba: tybaSchema, editor: editorSchema, manifest: manifestSchema };
  process.stdout.write(JSON.stringify(schemas[args.dialect ?? 'editor'], null, 2) + '\n');
  return 0;
}
