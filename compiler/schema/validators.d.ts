// Types of the ahead-of-time validators that scripts/gen-validators.mjs
// writes to dist/compiler/schema/validators.js at build.
export interface AjvError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}
export const validateBox: StandaloneValidator;
export const validateTyba: StandaloneValidator;
export const validateManifest: StandaloneValidator;
