// Types of the ahead-of-time validator of acl-plan.schema.json that
// scripts/gen-validators.mjs writes to dist/targets/windows/plan-validator.js.
import type { StandaloneValidator } from '../../compiler/schema/validators.js';
export const validateAclPlan: StandaloneValidator;
