import type { Diagnostic, Platform, Verdict } from '../../compiler/diagnostic.js';
import type { Dialect } from '../../compiler/schema/validate.js';

/** What every output format renders: one entry per linted file. */
export interface FileReport {
  readonly path: string;
  readonly text: string;
  readonly dialect?: Dialect;
  readonly verdicts: Readonly<Record<Platform, Verdict>>;
  readonly diagnostics: readonly Diagnostic[];
}

export interface Totals {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export function totals(files: readonly FileReport[]): Totals {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const f of files)
    for (const d of f.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      else infos++;
    }
  return { errors, warnings, infos };
}
