/**
 * Module-loading hooks (`register()` from node:module) for
 * one-model.test.ts, nothing else: each module that defines a counted
 * function is loaded with that function wrapped, so that every call is
 * counted, whoever makes it — a stray `effectiveAccess(ir)` in a command
 * counts as much as the one in app/check.ts. The wrapper calls
 * `globalThis.__boxwrightCount(name)` when the test process set it.
 *
 * Importing this module does nothing by itself (node --test runs every file
 * in dist/test/, and finds no test here).
 */
type LoadResult = { format?: string | null; source?: string | ArrayBuffer | ArrayBufferView | null; shortCircuit?: boolean };
type NextLoad = (url: string, context?: unknown) => Promise<LoadResult>;

/** Compiled module (under dist/) → the functions of it that are counted: the front end, the model, the filesystem views. */
export const COUNTED: Readonly<Record<string, readonly string[]>> = {
  'compiler/toml/index.js': ['parseToml'],
  'compiler/ir/build.js': ['buildIR'],
  'model/model.js': ['effectiveAccess'],
  'compiler/paths/host.js': ['hostView'],
  'compiler/paths/manifest.js': ['manifestView'],
  'compiler/paths/view.js': ['noneView'],
};

export async function load(url: string, context: unknown, nextLoad: NextLoad): Promise<LoadResult> {
  const result = await nextLoad(url, context);
  const entry = Object.entries(COUNTED).find(([file]) => url.endsWith(`/dist/${file}`));
  if (!entry || result.source == null) return result;
  const raw = result.source;
  let source =
    typeof raw === 'string'
      ? raw
      : Buffer.from(raw instanceof ArrayBuffer ? new Uint8Array(raw) : new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)).toString(
          'utf8',
        );
  for (const name of entry[1]) {
    const declaration = `export function ${name}(`;
    // Fails loudly rather than count nothing when a function moves or is renamed.
    if (!source.includes(declaration))
      throw new Error(`count-hooks: ${url} no longer declares \`${declaration}…\`: update COUNTED in test/cli/count-hooks.ts`);
    source =
      source.replace(declaration, `function ${name}$uncounted(`) +
      `\nexport function ${name}(...args) { globalThis.__boxwrightCount?.(${JSON.stringify(name)}); return ${name}$uncounted(...args); }\n`;
  }
  return { ...result, source };
}
