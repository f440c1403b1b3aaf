import kleur from 'kleur';

/**
 * Colours on or off for what the text formats paint next. kleur decides
 * once, at import, from the process's environment and standard output; a
 * command decides from its own (app/cli/io.ts `colourOf`), so that a CLI
 * run in process (a test's) paints as the same command line run alone.
 */
export function useColour(on: boolean): void {
  kleur.enabled = on;
}
