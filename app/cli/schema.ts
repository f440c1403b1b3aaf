import type { CliIo } from './io.js';
import { boxSchema, editorSchema, manifestSchema, tybaSchema } from '../../compiler/schema/schemas.js';
import { projectSchema } from '../../compiler/schema/project-schema.js';

export async function schemaCommand(args: { dialect?: 'box' | 'tyba' | 'editor' | 'manifest' | 'project' }, io: CliIo): Promise<number> {
  const schemas = { box: boxSchema, tyba: tybaSchema, editor: editorSchema, manifest: manifestSchema, project: projectSchema };
  io.stdout.write(JSON.stringify(schemas[args.dialect ?? 'editor'], null, 2) + '\n');
  return 0;
}
