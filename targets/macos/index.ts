import type { Artifact, CompileInput, Target } from '../target.js';
import { principalProfile, profileName } from './profile.js';

/**
 * macOS: one Seatbelt (SBPL) profile per principal — `agent.sb`,
 * `tool.NAME.sb`, `mcp.NAME.sb` — each the lowering of that principal's
 * effective access (model/) for the macos platform. See
 * targets/macos/README.md for the layout of a profile and the choices made.
 */
export const target: Target = {
  platform: 'macos',
  compile(input: CompileInput): Artifact[] {
    return input.access.principals.map((pa) => ({ name: profileName(pa.principal.id), content: principalProfile(input, pa) }));
  },
};

export { sbplString, UnrepresentableError } from './sbpl.js';
export { DEFAULT_GATEWAY_PORT, FILE_SECTIONS, BANNER } from './profile.js';
