/**
 * Cursor's sandbox.json and VS Code's agent sandbox settings, linted
 * (issue 39): exact findings for each danger and misspelt key, VS Code's
 * JSON with comments and trailing commas read at the right columns, and
 * VS Code settings without agent sandbox settings passed over in the
 * pre-commit mode.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { blankJsonc } from '../../app/check-peers.js';
import { isSandboxConfigFile } from '../../compiler/schema/dialect.js';
import { cli } from '../cli-in-process.js';
import { repoRoot } from '../helpers.js';
import { lintText } from '../lint-helpers.js';

const found = (text: string, file: string): string[] =>
  lintText(text, file).diagnostics.map((d) => `${d.span.start.line}:${d.span.start.column} ${d.severity} ${d.ruleId} ${d.message}`);

describe("Cursor's sandbox.json", () => {
  const file = '/home/dev/project/.cursor/sandbox.json';
  it('each danger, at its value, and a misspelt key with the key Cursor reads', () => {
    const text =
      '{\n  "type": "insecure_none",\n  "additionalReadwritePaths": ["~", "~/project"],\n  "networkPolicy": {"default": "allow", "alow": []}\n}\n';
    assert.deepEqual(found(text, file), [
      "1:1 warning cursor-sandbox `disableTmpWrite` is not true: the agent's commands write /tmp and the system temp directories, which every process of the machine shares",
      '2:11 warning cursor-sandbox `type` is "insecure_none": Cursor runs the agent\'s commands with no sandbox, with all your access',
      "3:32 warning cursor-sandbox ~ is read-write for the agent's commands, and it holds your home: they may write what the host runs or trusts after them",
      "3:37 warning cursor-sandbox ~/project is read-write for the agent's commands, and it holds the host-trusted /home/dev/project/.git (version-control metadata), /home/dev/project/.git/config (what git runs from a git directory), /home/dev/project/.git/hooks (what git runs from a git directory): they may write what the host runs or trusts after them",
      '4:32 warning cursor-sandbox `networkPolicy.default` is "allow": the agent\'s commands reach every host on the network',
      '4:41 warning unknown-setting `alow` is not a key of `networkPolicy`: it is passed over, so what it says has no effect; did you mean `allow`?',
    ]);
  });
  it('a narrow file says nothing', () => {
    assert.deepEqual(found('{"networkPolicy": {"default": "deny", "allow": ["registry.npmjs.org"]}, "disableTmpWrite": true}\n', file), []);
  });
  it('is a sandbox config to the pre-commit mode', () => {
    const path = 'test/peers/fixtures/.cursor/sandbox.json';
    assert.equal(isSandboxConfigFile(readFileSync(join(repoRoot, path)), path), true);
  });
});

describe("VS Code's agent sandbox settings", () => {
  const file = '/home/dev/project/.vscode/settings.json';
  it('comments and trailing commas keep every offset', () => {
    const text = '{\n  // c\n  "a": [1, 2,], /* x\n y */ "b": 1,\n}';
    const blank = blankJsonc(text);
    assert.equal(blank.length, text.length);
    assert.deepEqual(JSON.parse(blank), { a: [1, 2], b: 1 });
  });
  it('each danger at its value, a misspelt key, the sandbox left off', () => {
    const text =
      '{\n  // the agent\n  "chat.agent.sandbox.allowedNetworkDomains": ["*"],\n  "chat.agent.sandbox.fileSytem.linux": {},\n  "chat.agent.sandbox.fileSystem.linux": {"allowWrite": ["~"],},\n}\n';
    assert.deepEqual(found(text, file), [
      "3:3 warning vscode-sandbox this file does not set `chat.agent.sandbox.enabled` (its default is off): VS Code runs the agent's terminal commands unsandboxed, so the sandbox settings here apply to nothing",
      "3:48 warning vscode-sandbox `chat.agent.sandbox.allowedNetworkDomains` holds `*`: the agent's terminal commands reach every host on the network",
      "4:3 warning unknown-setting `chat.agent.sandbox.fileSytem.linux` is not a key of VS Code's agent sandbox settings: it is passed over, so what it says has no effect; did you mean `chat.agent.sandbox.fileSystem.linux`?",
      "5:58 warning vscode-sandbox ~ is writable for the agent's commands, and it holds your home: they may write what the host runs or trusts after them",
    ]);
  });
  it('settings without chat.agent.sandbox.* are passed over in the pre-commit mode', () => {
    const path = 'test/peers/fixtures/.vscode/settings.json';
    assert.equal(isSandboxConfigFile(readFileSync(join(repoRoot, path)), path), false);
    assert.equal(isSandboxConfigFile(Buffer.from('{"chat.agent.sandbox.enabled": "on"}'), '.vscode/settings.json'), true);
  });
});

describe('explain of a lint-only dialect', () => {
  it('says there is no model to explain, after the lint (exit 1)', async () => {
    const path = 'test/peers/fixtures/.cursor/sandbox.json';
    const r = await cli(['explain', '--fs', 'none', path], { env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 1);
    assert.match(
      r.stderr + r.stdout,
      /test\/peers\/fixtures\/\.cursor\/sandbox\.json: Cursor's sandbox\.json is linted only: boxwright has no model of Cursor's sandbox to explain \(docs\/dialects\/cursor\.md\)/,
    );
  });
});
