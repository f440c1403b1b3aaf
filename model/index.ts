export {
  effectiveAccess,
  type AccessModel,
  type ClosedSecret,
  type ReadableCredential,
  type PrincipalAccess,
  type GrantAccess,
  type TrustedAccess,
  type WindowsLabels,
} from './model.js';
export type { TrustedNamesAccess } from './trusted-names.js';
export {
  FACT_KINDS,
  type AbstractSockets,
  type DenyOpenTo,
  type Fact,
  type LinuxNoMount,
  type FactKind,
  type HostTrustedHold,
  type RewriteInPlace,
  type Mechanism,
  type OtherLabel,
  type Refusal,
} from './facts.js';
export { access, absent, denied, empty, scratch, legend, sameCell, type Cell } from './cell.js';
export { requestedAccess, type RequestedAccess } from './requested.js';
