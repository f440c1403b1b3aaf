import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020Module from 'ajv/dist/2020.js';
import { escapeData, escapeProperty, formatGithub } from '../../app/format/github.js';
import { formatMarkdown } from '../../app/format/markdown.js';
import { formatSarif } from '../../app/format/sarif.js';
import type { FileReport } from '../../app/format/report.js';
import { version } from '../../compiler/version.js';
import { allRules } from '../../rules/engine/registry.js';
import { exampleNames } from '../compile-helpers.js';
import { repoRoot, requireOrSkip } from '../helpers.js';
import { lintExample, lintText } from '../lint-helpers.js';

function report(name: string): FileReport {
  const r = lintExample(name);
  return { path: r.file, text: r.text, ...(r.dialect ? { dialect: r.dialect } : {}), verdicts: r.verdicts, diagnostics: r.diagnostics };
}

const all = exampleNames.map(report);

describe('SARIF 2.1.0', () => {
  // The published 2.1.0 schema (draft 2020-12), as the SARIF multitool ships it: the one GitHub code scanning and
  // test/independent/sarif.test.ts check against (the multitool package is Linux's; elsewhere this check skips, loudly).
  const finalSchemaPath = join(repoRoot, 'node_modules', '@microsoft', 'sarif-multitool-linux', 'sarif-2.1.0.json');
  const validate = existsSync(finalSchemaPath)
    ? new Ajv2020Module.default({ strict: false, allErrors: true, validateFormats: false }).compile(
        JSON.parse(readFileSync(finalSchemaPath, 'utf8')) as object,
      )
    : undefined;

  it('the log of every example validates against the SARIF 2.1.0 JSON Schema', (t) => {
    const skip = requireOrSkip(validate !== undefined, 'the SARIF 2.1.0 schema of @microsoft/sarif-multitool-linux (npm ci)');
    if (skip || validate === undefined) return t.skip(skip);
    const log = JSON.parse(formatSarif(all, allRules, version, { cwd: repoRoot, root: repoRoot })) as unknown;
    assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  });
  it('carries what GitHub code scanning requires', () => {
    const log = JSON.parse(formatSarif(all, allRules, version, { cwd: repoRoot, root: repoRoot })) as {
      version: string;
      runs: {
        tool: {
          driver: {
            name: string;
            informationUri: string;
            rules: {
              id: string;
              shortDescription: { text: string };
              fullDescription: { text: string };
              help: { text: string; markdown: string };
              defaultConfiguration: { level: string };
            }[];
          };
        };
        results: {
          ruleId: string;
          level: string;
          message: { text: string };
          locations: {
            physicalLocation: {
              artifactLocation: { uri: string; uriBaseId?: string };
              region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
            };
          }[];
          partialFingerprints: { primaryLocationLineHash: string };
        }[];
      }[];
    };
    assert.equal(log.version, '2.1.0');
    const run = log.runs[0]!;
    assert.equal(run.tool.driver.name, 'boxwright');
    assert.ok(run.tool.driver.informationUri.startsWith('https://'));
    assert.equal(run.tool.driver.rules.length, allRules.length);
    for (const r of run.tool.driver.rules) {
      assert.ok(r.id && r.shortDescription.text && r.fullDescription.text && r.help.text && r.help.markdown);
      assert.ok(['error', 'warning', 'note'].includes(r.defaultConfiguration.level));
    }
    assert.ok(run.results.length > 50);
    const seen = new Set<string>();
    for (const res of run.results) {
      assert.ok(['error', 'warning', 'note'].includes(res.level));
      const loc = res.locations[0]!.physicalLocation;
      assert.match(loc.artifactLocation.uri, /^examples\/[^/]+\.toml$/, 'repository-relative, forward slashes');
      assert.equal(loc.artifactLocation.uriBaseId, '%SRCROOT%');
      assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
      const fp = `${loc.artifactLocation.uri}|${res.partialFingerprints.primaryLocationLineHash}`;
      assert.ok(!seen.has(fp), `fingerprints are unique per file: ${fp}`);
      seen.add(fp);
    }
  });
});

describe('SARIF artifact URIs', () => {
  it('are relative to the source root (%SRCROOT%), whatever the current directory is, and percent-encoded', () => {
    const r = lintText('[agent.filesystem]\nread = ["~/nowhere"]\n');
    const at = (path: string, cwd: string, root = '/srv/repo'): string[] => {
      const log = JSON.parse(
        formatSarif([{ path, text: r.text, verdicts: r.verdicts, diagnostics: r.diagnostics }], allRules, version, { cwd, root }),
      ) as {
        runs: {
          originalUriBaseIds: Record<string, { uri: string }>;
          results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[];
        }[];
      };
      assert.deepEqual(log.runs[0]!.originalUriBaseIds, { '%SRCROOT%': { uri: `file://${root}/` } });
      return [
        ...new Set(
          log.runs[0]!.results.map(
            (x) =>
              `${x.locations[0]!.physicalLocation.artifactLocation.uriBaseId ?? ''}|${x.locations[0]!.physicalLocation.artifactLocation.uri}`,
          ),
        ),
      ];
    };
    assert.deepEqual(at('/srv/repo/configs/sandbox.toml', '/srv/repo'), ['%SRCROOT%|configs/sandbox.toml']);
    assert.deepEqual(at('configs/sandbox.toml', '/srv/repo'), ['%SRCROOT%|configs/sandbox.toml']);
    assert.deepEqual(at('sandbox.toml', '/srv/repo/configs'), ['%SRCROOT%|configs/sandbox.toml'], 'run from a subdirectory');
    assert.deepEqual(at('../configs/sandbox.toml', '/srv/repo/examples'), ['%SRCROOT%|configs/sandbox.toml']);
    assert.deepEqual(at('my config #1.toml', '/srv/repo'), ['%SRCROOT%|my%20config%20%231.toml']);
    assert.deepEqual(at('100%.toml', '/srv/repo'), ['%SRCROOT%|100%25.toml']);
    assert.deepEqual(at('/srv/other/sandbox.toml', '/srv/repo'), ['|file:///srv/other/sandbox.toml'], 'outside the root: absolute');
    assert.deepEqual(at('<stdin>', '/srv/repo'), ['%SRCROOT%|stdin']);
  });
});

describe('GitHub annotations', () => {
  it('escape %, CR and LF in data, and also : and , in properties', () => {
    assert.equal(escapeData('100% done\r\nnext'), '100%25 done%0D%0Anext');
    assert.equal(escapeProperty('a:b,c%\n'), 'a%3Ab%2Cc%25%0A');
  });
  it('one workflow command per diagnostic, with position and title, then a summary', () => {
    const r = lintText('[agent.filesystem]\nlist = ["~/in,box:50%"]\n', 'dir,with:odd%name.toml');
    const out = formatGithub([{ path: r.file, text: r.text, verdicts: r.verdicts, diagnostics: r.diagnostics }]);
    const lines = out.trimEnd().split('\n');
    const missing = lines.find((l) => l.includes('title=boxwright missing-path'))!;
    assert.match(
      missing,
      /^::error file=dir%2Cwith%3Aodd%25name\.toml,line=2,endLine=2,col=9,endColumn=\d+,title=boxwright missing-path \[macos%2Clinux%2Cwindows\]::/,
    );
    assert.ok(missing.includes('/home/dev/in,box:50%25 does not exist'), 'the message escapes % but keeps : and ,');
    assert.ok(!/[\r\n]/.test(missing));
    assert.equal(lines.at(-2)!, 'boxwright: 2 errors, 1 warning, 0 notices in 1 file', 'plurals right: "1 warning", "1 file"');
  });
});

describe('Markdown', () => {
  it('a PR comment: verdict table, short rows, suggestions folded, pipes escaped', () => {
    const md = formatMarkdown([report('write-only.toml')]);
    assert.match(md, /\| macos \| linux \| windows \|/);
    assert.match(md, /⛔ refused/);
    assert.match(md, /<details><summary>Suggestions<\/summary>/);
    const r = lintText('[agent.filesystem]\nread = ["~/a|b"]\n');
    assert.ok(formatMarkdown([{ path: 'x.toml', text: r.text, verdicts: r.verdicts, diagnostics: r.diagnostics }]).includes('a\\|b'));
  });
});
