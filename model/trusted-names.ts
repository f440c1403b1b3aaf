export type { TrustedNamesAccess } from './access.js';
