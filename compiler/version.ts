/** boxwright's version, written into every artifact header and SARIF log. Kept in step with package.json by a test. */
export const version = '0.1.0';
