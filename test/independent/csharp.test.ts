// The C# that apply.ps1 and undo.ps1 hand to Add-Type, compiled by Mono's
// C# compiler (mono-mcs) at language version 5 (Windows PowerShell 5.1's
// Add-Type compiles C# 5), warnings as errors; and its one platform-free
// function run under Mono. The P/Invoke calls themselves need Windows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compileExample } from '../compile-helpers.js';
import { requireOrSkip } from '../helpers.js';
import { hasCommand } from './tools.js';

const mcs = hasCommand('mcs', ['--version']);
const mono = hasCommand('mono', ['--version']);

/** The here-string handed to Add-Type -TypeDefinition. */
function embeddedCSharp(script: string): string {
  const m = /Add-Type -TypeDefinition @'\n([\s\S]*?)\n'@/.exec(script);
  assert.ok(m, 'no Add-Type here-string');
  return m[1]!;
}

function compile(dir: string, source: string, args: readonly string[] = []): { status: number | null; output: string } {
  writeFileSync(join(dir, 'source.cs'), source);
  const r = spawnSync('mcs', ['-langversion:5', '-warnaserror', ...args, join(dir, 'source.cs')], { encoding: 'utf8', cwd: dir });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

async function scripts(): Promise<{ apply: string; undo: string }> {
  const o = await compileExample('coding-agent.toml', 'windows');
  assert.ok(o.ok);
  const get = (n: string): string => o.artifacts.find((a) => a.name === n)!.content as string;
  return { apply: get('apply.ps1'), undo: get('undo.ps1') };
}

describe('independent: the embedded C# through mono-mcs', () => {
  it('compiles, the same class in apply.ps1 and undo.ps1', async (t) => {
    const skip = requireOrSkip(mcs, 'mono-mcs (Debian: apt-get install mono-mcs)');
    if (skip) return t.skip(skip);
    const { apply, undo } = await scripts();
    assert.equal(embeddedCSharp(apply), embeddedCSharp(undo));
    const dir = mkdtempSync(join(tmpdir(), 'bw-mcs-'));
    try {
      const r = compile(dir, embeddedCSharp(apply), ['-target:library', `-out:${join(dir, 'Boxwright.dll')}`]);
      assert.equal(r.status, 0, r.output);
      const skipMono = requireOrSkip(mono, 'mono (Debian mono-runtime, a dependency of mono-mcs)');
      if (skipMono) return t.skip(skipMono);
      // LabelAces, the comparison RestoreLabel makes, under Mono.
      writeFileSync(
        join(dir, 'probe.cs'),
        'public static class Probe { public static void Main() { foreach (string s in new string[] { "", "S:", "S:(ML;OICI;NW;;;LW)", "S:AI(ML;;NRNW;;;ME)" }) System.Console.WriteLine("[" + Boxwright.Descriptor.LabelAces(s) + "]"); } }',
      );
      const p = spawnSync('mcs', [`-r:${join(dir, 'Boxwright.dll')}`, `-out:${join(dir, 'probe.exe')}`, join(dir, 'probe.cs')], {
        encoding: 'utf8',
      });
      assert.equal(p.status, 0, p.stderr + p.stdout);
      const run = spawnSync('mono', [join(dir, 'probe.exe')], { encoding: 'utf8', env: { ...process.env, MONO_PATH: dir } });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(run.stdout.trim().split('\n'), ['[]', '[]', '[(ML;OICI;NW;;;LW)]', '[(ML;;NRNW;;;ME)]']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a type error is refused (the check can fail)', async (t) => {
    const skip = requireOrSkip(mcs, 'mono-mcs');
    if (skip) return t.skip(skip);
    const source = embeddedCSharp((await scripts()).apply);
    const broken = source.replace(
      'uint rc = SetNamedSecurityInfoW(path, SE_FILE_OBJECT, info,',
      'int rc = SetNamedSecurityInfoW(path, SE_FILE_OBJECT, info,',
    );
    assert.notEqual(broken, source);
    const dir = mkdtempSync(join(tmpdir(), 'bw-mcs-'));
    try {
      const r = compile(dir, broken, ['-target:library', `-out:${join(dir, 'x.dll')}`]);
      assert.notEqual(r.status, 0);
      assert.match(r.output, /error CS0266/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
