import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import kleur from 'kleur';
import { PLATFORMS } from '../../compiler/diagnostic.js';
import { explainCheck } from '../../app/cli/explain.js';
import { configReader } from '../../app/cli/options.js';
import { explainJson, explainMarkdown, explainText } from '../../app/format/explain.js';
import { exampleNames } from '../compile-helpers.js';
import { repoRoot } from '../helpers.js';
import { matchSnapshot } from '../snapshot.js';

kleur.enabled = false;
const args = { fs: join(repoRoot, 'examples/machine.json'), worktree: '/home/dev/project' };
const reader = configReader(args);

function matrixOf(name: string) {
  const file = `examples/${name}`;
  return explainCheck(reader.check(readFileSync(join(repoRoot, file)), file)).matrix;
}

describe('explain: goldens in all three formats', () => {
  for (const name of exampleNames) {
    it(name, () => {
      const m = matrixOf(name);
      const stem = name.replace(/\.toml$/, '');
      // Every example gets through the front end (a config with errors has no matrix: tested below).
      assert.ok(m, `${name} has no matrix`);
      matchSnapshot(`explain/${stem}.txt`, explainText(m));
      matchSnapshot(`explain/${stem}.md`, explainMarkdown(m));
      matchSnapshot(`explain/${stem}.json`, explainJson(m));
    });
  }
});

describe('explain cites only the rules lint reports', () => {
  it('every rule a footnote names, in every example, is one lint reports in that config for that platform (issue 22: it cited no-windows-path, which lint never reports for an exec grant)', () => {
    let cited = 0;
    for (const name of exampleNames) {
      const file = `examples/${name}`;
      const check = reader.check(readFileSync(join(repoRoot, file)), file);
      const m = explainCheck(check).matrix!;
      const emitted = new Set(check.diagnostics.flatMap((d) => d.platforms.map((p) => `${d.ruleId} ${p}`)));
      for (const pm of m.principals)
        for (const cells of [...pm.rows.map((r) => r.cells), pm.elsewhere])
          for (const [p, c] of Object.entries(cells))
            for (const n of [...(c.note ? [c.note] : []), ...(c.disclosures ?? [])]) {
              if (!n.ruleId) continue;
              cited++;
              assert.ok(emitted.has(`${n.ruleId} ${p}`), `${name}: ${p} cites ${n.ruleId}, which lint does not report there: ${n.text}`);
            }
    }
    assert.ok(cited > 50, `${cited} citations`);
  });
  it('coding-agent: the exec outside the home keeps its words without the rule', () => {
    const git = matrixOf('coding-agent.toml')!.principals[0]!.rows.find((r) => r.written === '/usr/bin/git')!;
    assert.deepEqual(git.cells.windows.note, {
      ruleId: '',
      text: '/usr/bin/git has no Windows meaning (only paths under ~ map to %USERPROFILE%): the Windows plan leaves this entry out',
    });
  });
});

describe('explain marks a deny other principals are not bound by', () => {
  it("the agent's deny of ~/project/.env and a server reading ~/project: the deny's macOS and Linux cells say so, Windows' does not", () => {
    const text =
      '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n\n[mcp_servers.files.filesystem]\nread = ["~/project"]\n';
    const m = explainCheck(reader.check(Buffer.from(text), 'c.toml')).matrix!;
    const deny = m.principals[0]!.rows.find((r) => r.list === 'deny')!;
    const mark = {
      ruleId: 'deny-open-to-others',
      text: 'other principals are not bound by this deny: MCP server `files` can read it (its `read` of ~/project, line 6)',
    };
    assert.deepEqual(deny.cells.macos.disclosures, [mark]);
    assert.ok(
      deny.cells.linux.disclosures?.some((d) => d.ruleId === mark.ruleId && d.text === mark.text),
      JSON.stringify(deny.cells.linux),
    );
    assert.ok(!deny.cells.windows.disclosures?.some((d) => d.ruleId === mark.ruleId));
    const denied =
      '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n\n[mcp_servers.files.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n';
    const both = explainCheck(reader.check(Buffer.from(denied), 'd.toml')).matrix!;
    assert.ok(
      !both.principals[0]!.rows.find((r) => r.list === 'deny')!.cells.linux.disclosures?.some((d) => d.ruleId === mark.ruleId),
      'denied in both tables: no mark',
    );
  });
});

describe('explain: the matrix', () => {
  it('a row per grant, cells from the legend, a footnote naming the rule where a platform differs', () => {
    const m = matrixOf('write-only.toml')!;
    const agent = m.principals[0]!;
    const write = agent.rows.find((r) => r.list === 'write')!;
    assert.equal(write.requested, 'w');
    assert.deepEqual([write.cells.macos.legend, write.cells.linux.legend], ['w', 'refused']);
    assert.equal(write.cells.linux.note?.ruleId, 'write-only');
    assert.equal(m.verdicts.linux, 'refused');
  });
  it('path refusals come from the diagnostics at the grant', () => {
    const m = matrixOf('missing-path.toml')!;
    const row = m.principals[0]!.rows[0]!;
    assert.deepEqual([row.cells.macos.legend, row.cells.linux.legend, row.cells.windows.legend], ['refused', 'refused', 'refused']);
    assert.equal(row.cells.linux.note?.ruleId, 'missing-path');
  });
  it('everything else: denied on macOS (metadata for TYBA), absent on Linux, readable on Windows', () => {
    const box = matrixOf('read-only-content.toml')!.principals[0]!.elsewhere;
    assert.deepEqual([box.macos.legend, box.linux.legend, box.windows.legend], ['—', '—', 'rx']);
    const tyba = matrixOf('tyba-user-config.toml')!.principals[0]!.elsewhere;
    assert.equal(tyba.macos.legend, 'meta');
  });

  it('everything else on Windows says what a Low token still reaches beyond files: the registry, named pipes, the desktop and clipboard', () => {
    for (const name of ['read-only-content.toml', 'tyba-user-config.toml']) {
      const beyond = matrixOf(name)!.principals[0]!.elsewhere.windows.disclosures ?? [];
      assert.equal(beyond.length, 1, name);
      assert.equal(beyond[0]!.ruleId, 'windows-open-reads');
      for (const word of ['HKCU', 'named pipes', 'desktop', 'clipboard']) assert.ok(beyond[0]!.text.includes(word), `${name}: ${word}`);
    }
  });
  it('the text form fits a 100-column terminal', () => {
    for (const name of exampleNames) {
      const m = matrixOf(name);
      assert.ok(m, `${name} has no matrix`);
      for (const line of explainText(m).split('\n')) {
        if (line.startsWith('legend:') || line.startsWith('  [')) continue; // prose lines wrap in the terminal
        assert.ok(line.length <= 100, `${name}: ${line.length} columns: ${line}`);
      }
    }
  });
  it("a warning the check made at a grant's value is beside its cell: the lint and explain say the same (exec-memory)", () => {
    const m = matrixOf('jit-under-read-tree.toml')!;
    const usr = m.principals.find((p) => p.id === 'tool.builder')!.rows.find((r) => r.written === '/usr')!;
    const jit = usr.cells.linux.disclosures?.find((d) => d.ruleId === 'exec-memory');
    assert.ok(jit, JSON.stringify(usr.cells.linux));
    assert.match(jit.text, /\/usr\/bin\/node/);
    assert.ok(!usr.cells.macos.disclosures?.some((d) => d.ruleId === 'exec-memory'), 'a Linux warning only on Linux');
    // Shown once: a note that already names the rule takes no disclosure of it as well.
    const write = matrixOf('write-only.toml')!.principals[0]!.rows.find((r) => r.list === 'write')!;
    assert.equal(write.cells.linux.note?.ruleId, 'write-only');
    assert.ok(!write.cells.linux.disclosures?.some((d) => d.ruleId === 'write-only'));
  });
  it('a write_file grant says, on each platform, that a save through a temporary file and a rename fails', () => {
    const row = matrixOf('read-write-file.toml')!.principals[0]!.rows.find((r) => r.list === 'write_file')!;
    for (const p of PLATFORMS) {
      assert.ok(
        row.cells[p].disclosures?.some((d) => /temporary file and a rename/.test(d.text)),
        `${p}: ${JSON.stringify(row.cells[p])}`,
      );
    }
    assert.match(row.cells.windows.disclosures!.map((d) => d.text).join(' '), /without DELETE \(0x12019f\)/);
    const read = matrixOf('read-write-file.toml')!.principals[0]!.rows.find((r) => r.list === 'read_file')!;
    assert.ok(!read.cells.linux.disclosures?.some((d) => /temporary file/.test(d.text)), 'not on the read_file row');
    // Under a write tree the file is the tree's: it can be renamed, and no such note is given.
    const inTree = explainCheck(
      reader.check(
        Buffer.from('[agent.filesystem]\nread = ["~/results"]\nwrite = ["~/results"]\nwrite_file = ["~/results/output.txt"]\n'),
        'in-tree.toml',
      ),
    ).matrix!;
    const wf = inTree.principals[0]!.rows.find((r) => r.list === 'write_file')!;
    for (const p of PLATFORMS)
      assert.ok(!wf.cells[p].disclosures?.some((d) => /temporary file/.test(d.text)), `${p}: ${JSON.stringify(wf.cells[p])}`);
  });
  it('a config with errors has no matrix, and says why', () => {
    const r = explainCheck(reader.check(Buffer.from('[agent.filesystem\n'), 'bad.toml'));
    assert.equal(r.matrix, undefined);
    assert.match(r.errors, /toml-syntax/);
  });
});

describe('explain: every cell that differs from the request says why (issue 14 item 16)', () => {
  it('in every example, on every platform', () => {
    const silent: string[] = [];
    for (const name of exampleNames) {
      const m = matrixOf(name);
      for (const pm of m?.principals ?? [])
        for (const r of pm.rows)
          for (const [p, c] of Object.entries(r.cells)) {
            const same = c.legend === r.requested || (r.requested === 'deny' && c.legend === '—');
            if (!same && !c.note) silent.push(`${name} ${pm.id} ${r.list} ${r.written}: ${p} ${r.requested} → ${c.legend}`);
          }
    }
    assert.deepEqual(silent, []);
  });
  it('an exec that another grant makes writable, a read that a write covers: the combining grant is named', () => {
    const m = matrixOf('exec-does-not-satisfy-read.toml')!;
    const exec = m.principals[0]!.rows.find((r) => r.list === 'exec')!;
    assert.equal(exec.cells.macos.legend, 'wx');
    // The mechanism first (what the overlap lets the workload do), then the grant it combines with.
    assert.equal(exec.cells.macos.note?.ruleId, 'write-exec-overlap');
    assert.ok(exec.cells.macos.disclosures?.some((d) => /^combined with `write_file \/usr\/bin\/python3` \(line \d+\)/.test(d.text)));
  });
  it('windows-path.toml: the entry left out of the Windows plan is n/a there, and gets no Low label', () => {
    const m = matrixOf('windows-path.toml')!;
    for (const r of m.principals[0]!.rows) {
      assert.equal(r.cells.windows.legend, 'n/a', `${r.list} ${r.written}`);
      assert.equal(r.cells.windows.note?.ruleId, 'no-windows-path');
    }
    const check = reader.check(readFileSync(join(repoRoot, 'examples/windows-path.toml')), 'examples/windows-path.toml');
    assert.deepEqual(
      check.diagnostics.filter((d) => d.ruleId === 'low-label-exposure'),
      [],
    );
    assert.ok(check.diagnostics.some((d) => d.ruleId === 'no-windows-path'));
  });
});
