// Every apply.ps1 and undo.ps1 of every example, parsed by someone else's
// PowerShell grammar: tree-sitter-powershell (airbus-cert), run through
// web-tree-sitter. No ERROR or MISSING node may appear; the grammar's
// known gap (`$q.Dequeue().FullName` in a command argument) is written
// around in the scripts, not allow-listed here. The runtime every script
// carries verbatim (its helpers and the C# they hand to Add-Type) is parsed
// once; each script is parsed with a comment in its place, after the check
// that it holds exactly that runtime (test/windows/support.ts). The runtime
// is a run of whole top-level statements, so the two parses see what one
// parse of the whole script would.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { compileExample, exampleNames } from '../compile-helpers.js';
import { requireOrSkip } from '../helpers.js';
import { runtimeGolden, withoutRuntime } from '../windows/support.js';
import { powershellWasm } from './tools.js';

let parser: Parser | undefined;
async function powershell(): Promise<Parser> {
  if (!parser) {
    // V8's baseline WebAssembly compiler only: the grammar (1 MB of
    // WebAssembly) parses a few dozen scripts here, and the optimising tier
    // compiled all of it in the background, which the process then waited
    // for at exit (about 20 s of CPU, 4 s without; the trees are the same).
    setFlagsFromString('--liftoff-only');
    await Parser.init();
    parser = new Parser();
    parser.setLanguage(await Language.load(powershellWasm));
  }
  return parser;
}

/** The grammar's complaints about a script: line:column and the node's text. */
export async function syntaxErrors(script: string): Promise<string[]> {
  const tree = (await powershell()).parse(script);
  assert.ok(tree, 'tree-sitter returned no tree');
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (n.isError || n.isMissing)
      out.push(
        `${n.startPosition.row + 1}:${n.startPosition.column + 1} ${n.isMissing ? 'missing' : 'error'} ${JSON.stringify(n.text.slice(0, 80))}`,
      );
    for (const c of n.children) if (c) walk(c);
  };
  walk(tree.rootNode);
  tree.delete();
  return out;
}

const available = existsSync(powershellWasm);

describe('independent: PowerShell scripts through tree-sitter-powershell', () => {
  it('the PowerShell runtime (the shared, apply.ps1 and undo.ps1 helpers) parses without an error node', async (t) => {
    const skip = requireOrSkip(available, 'tree-sitter-powershell and web-tree-sitter (npm ci)');
    if (skip) return t.skip(skip);
    assert.deepEqual(await syntaxErrors(runtimeGolden), []);
  });

  it('every apply.ps1 and undo.ps1 of every example holds that runtime and, around it, parses without an error node', async (t) => {
    const skip = requireOrSkip(available, 'tree-sitter-powershell and web-tree-sitter (npm ci)');
    if (skip) return t.skip(skip);
    let scripts = 0;
    for (const name of exampleNames) {
      const o = await compileExample(name, 'windows');
      if (!o.ok) continue;
      for (const a of o.artifacts.filter((x) => x.name.endsWith('.ps1'))) {
        scripts++;
        const rest = withoutRuntime(a.content as string, a.name === 'apply.ps1' ? 'apply' : 'undo', name);
        assert.deepEqual(await syntaxErrors(rest), [], `${name} ${a.name}`);
      }
    }
    assert.ok(scripts >= 40, `${scripts} scripts parsed`);
  });

  it('a broken script has error nodes (the check can fail)', async (t) => {
    const skip = requireOrSkip(available, 'tree-sitter-powershell and web-tree-sitter (npm ci)');
    if (skip) return t.skip(skip);
    assert.ok((await syntaxErrors(runtimeGolden.replace("'@\n}", "'@\n"))).length > 0, 'an unclosed brace');
    assert.ok(
      (await syntaxErrors(runtimeGolden.replace('($queue.Dequeue()).FullName', '$queue.Dequeue().FullName'))).length > 0,
      "the grammar's known gap",
    );
    const { artifacts } = (await compileExample('coding-agent.toml', 'windows')) as { artifacts: { name: string; content: string }[] };
    const apply = withoutRuntime(artifacts.find((a) => a.name === 'apply.ps1')!.content, 'apply', 'coding-agent.toml');
    assert.ok((await syntaxErrors(apply.replace('try {', 'try {{'))).length > 0, 'an unclosed brace around the steps');
    assert.ok(
      (await syntaxErrors("Invoke-BwStep -Id 'step-001' -Path $path -Sddl 'S:(ML;;NW;;;LW)\n")).length > 0,
      'an unterminated string',
    );
  });
});
