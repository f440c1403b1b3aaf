/**
 * The shell probe the peers' differential tests run inside a peer's sandbox
 * (codex-differential, vscode-srt-differential): one line a path, `PATH R W`
 * (R and W each 1 or 0), found by listing or reading it and by making or
 * appending to it; a write it makes is removed. The paths are the tests' own
 * generated ones (no quote in them).
 */
export function pathProbeLines(paths: readonly string[]): string {
  return paths
    .map((p) => {
      const q = `'${p}'`;
      return (
        `r=0; w=0; if [ -d ${q} ]; then ls ${q} >/dev/null 2>&1 && r=1; t=${q}/.bw-probe-$$; ( : > "$t" ) 2>/dev/null && { w=1; rm -f "$t"; }; ` +
        `elif [ -e ${q} ]; then cat ${q} >/dev/null 2>&1 && r=1; ( : >> ${q} ) 2>/dev/null && w=1; ` +
        `else ( : > ${q} ) 2>/dev/null && { w=1; rm -f ${q}; }; fi; echo "${p} $r $w"`
      );
    })
    .join('\n');
}
