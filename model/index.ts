export { effectiveAccess, type AccessModel, type PrincipalAccess, type GrantAccess, type Note } from './model.js';
export { access, absent, denied, empty, legend, sameCell, type Cell } from './cell.js';
