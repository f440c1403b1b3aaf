import { controlCharacter } from './spelling.js';

const reservedNames = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(\.[^.]*)?$/i;
const forbidden = /[<>:"|?*\\]/;

/**
 * Why a path component has no faithful Windows spelling, or undefined when it
 * has one. Windows file names cannot hold `< > : " | ? * \`, lose a trailing
 * dot or space, and `NUL`, `COM1`… name devices: mapping such a name would
 * label or grant some other object, so it is left out, never guessed.
 */
export function windowsNameProblem(component: string): string | undefined {
  const control = controlCharacter(component);
  if (control) return `a path component holds the control character ${control}`;
  const bad = forbidden.exec(component);
  if (bad) return `a path component holds \`${bad[0]}\`, which Windows file names cannot hold`;
  if (/[ .]$/.test(component)) return 'a path component ends with a dot or a space, which Windows strips from file names';
  if (reservedNames.test(component)) return `\`${component}\` is a reserved device name on Windows`;
  return undefined;
}

