/** What `boxwright doctor` reports: one finding per thing it tried or read, rendered here. */
export type Status = 'ok' | 'warn' | 'fail' | 'info';

export interface Finding {
  readonly id: string;
  readonly status: Status;
  readonly title: string;
  readonly detail: string;
  readonly fix?: string;
}

export interface DoctorReport {
  readonly platform: NodeJS.Platform;
  /** Every finding passes (none is `fail`). */
  readonly ok: boolean;
  readonly findings: readonly Finding[];
}

const mark: Record<Status, string> = { ok: '✓', warn: '!', fail: '✗', info: '·' };

export function doctorText(r: DoctorReport): string {
  const width = Math.max(...r.findings.map((f) => f.title.length));
  let out = '';
  for (const f of r.findings) {
    out += `${mark[f.status]} ${f.title.padEnd(width)}  ${f.detail}\n`;
    if (f.fix) out += `  ${' '.repeat(width)}  fix: ${f.fix}\n`;
  }
  return (
    out +
    (r.ok
      ? '\nthis machine can run `boxwright run`\n'
      : '\nthis machine cannot run `boxwright run` until the findings marked ✗ are fixed\n')
  );
}

/** Versioned, for scripts: `{version: 1, platform, ok, findings}`. */
export function doctorJson(r: DoctorReport): string {
  return JSON.stringify({ version: 1, platform: r.platform, ok: r.ok, findings: r.findings }, null, 2) + '\n';
}
