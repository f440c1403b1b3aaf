// Types of the ahead-of-time validator of the project file (.boxwright.toml)
// that scripts/gen-validators.mjs writes to dist/compiler/schema/project-validator.js.
import type { StandaloneValidator } from './validators.js';

export const validateProject: StandaloneValidator;
