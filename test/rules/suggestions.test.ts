// Advice must not lead to a refusal: every suggestion that is a config
// change carries it as edits (a fix), and applying the fix to the rule's
// failing doc example, as written, gives a config that no platform refuses
// for a reason it did not refuse before, and that the rule no longer
// reports as it did. Suggestions that are no single config change are
// listed below with the reason, so a new suggestion cannot slip past.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../../compiler/diagnostic.js';
import { manifestView } from '../../compiler/paths/index.js';
import { applyFix } from '../../rules/engine/fix.js';
import { allRules } from '../../rules/engine/registry.js';
import type { Rule } from '../../rules/engine/engine.js';
import { lintDocExample, lintText } from '../lint-helpers.js';

/** Rules whose suggestion is advice, not an edit: why no fix is offered. */
const adviceOnly: Record<string, string> = {
  'deny-absent-path': 'create the target first (outside the config), or choose an ancestor: a judgement the config cannot encode',
  'deny-file-substitution': 'omitting the broader grant needs the narrower grants the workload needs instead: a redesign',
  'tool-exec-widening': 'the files and directories a task requires are known to its author only',
  'loader-dir-exec': 'the transitive dependencies of executables are discovered by running them',
  'workspace-no-content': "which content grants the workspace needs is the author's decision",
  'workspace-unavailable': "create the workspace first (outside the config), or choose another: the author's decision",
  'missing-path': 'create the path first, or name another: outside the config',
  'protected-path': 'its refusal (a grant inside a protected location) has no safe edit; the ancestor warning carries its fix',
  'ipv6-socket': 'an IPv4 destination or the gateway route: outside the config',
  'exec-memory': 'a JIT-less runtime mode is a flag of the command, not of the config',
  'low-label-exposure': "the smallest write subtree is the author's decision",
  'deny-label-shared': "moving a deny to other principals, or dropping it, decides who may see the path: the author's decision",
  'landlock-unavailable': 'a kernel with Landlock, or `--landlock off` on the command line: outside the config',
  'noncanonical-path': 'its macOS spelling is for macOS-only configs; the spelling case carries its fix',
  'trusted-file-writable':
    "where the config, the manifest or the compiled directory lives, and how narrow the write grant must be, are the author's decisions (outside the config, or a redesign of its grants)",
  'host-trusted-path': "whether the workload must write a host-trusted path, and which narrower path serves it, is the author's decision",
  // sandbox-runtime and Claude Code settings
  'duplicate-key':
    "which of the two values was meant is the author's to say (the removal is a fix only when the ignored one says nothing the kept one does not)",
  'sandbox-off': "turning the sandbox on is a decision about every command the agent runs, and may be another settings layer's",
  'codex-full-access': "which sandbox mode and writable roots the commands need is the author's decision",
  'codex-network': "whether the commands need the network, and which domains, is the author's decision",
  'codex-writable-root': 'which directories the commands write is known to the author only',
  'codex-nested-none': "which of the two entries was meant is the author's decision",
  'sandbox-bypass': 'whether the commands can run without the escape hatch (or the weaker mode) is known to their author only',
  'glob-pattern': 'the paths a pattern should name are known to its author only',
  'absent-path': "create the path first, or name an existing parent: outside the config, or the author's decision",
  'deny-read-reopened': "where the write root should go is the author's decision",
  'mandatory-deny': "removing the grant, or lifting .git/config with allowGitConfig, is the author's decision",
  'managed-only': 'moving the key to the managed settings file is a change of another file',
  'socket-escape': 'whether the command must drive the service behind the socket is known to its author only',
  'host-command': 'whether the hook or helper is needed, and what it may run, is a review of code outside the config',
  'violations-ignored': 'which violations are noise, for which command, is known only from the violation log of the runs',
  'write-exec-overlap': "which of the two grants goes (or where the build output runs from instead) is the author's decision",
};

const errorsOf = (ds: readonly Diagnostic[]): Set<string> =>
  new Set(ds.filter((d) => d.severity === 'error').flatMap((d) => d.platforms.map((p) => `${d.ruleId}@${p}`)));

/** Applies one diagnostic's fix to `toml` and checks the outcome; returns the fixed text. */
function applyAndCheck(toml: string, d: Diagnostic, before: readonly Diagnostic[]): string {
  const fixed = applyFix(toml, d.fix!);
  const after = lintText(fixed);
  assert.ok(
    after.ir,
    `the fix of ${d.ruleId} leaves valid TOML that fits the schema:\n${fixed}\n${after.diagnostics.map((x) => x.message).join('\n')}`,
  );
  const was = errorsOf(before);
  for (const e of errorsOf(after.diagnostics))
    assert.ok(was.has(e), `applying ${d.ruleId}'s fix makes a platform refuse for a new reason (${e}):\n${fixed}`);
  assert.ok(
    !after.diagnostics.some((x) => x.ruleId === d.ruleId && x.message === d.message),
    `${d.ruleId} still reports the same after its fix:\n${fixed}`,
  );
  return fixed;
}

describe('suggestions applied as written lead to no new refusal', () => {
  for (const rule of allRules as readonly Rule[]) {
    const id = rule.meta.id;
    it(id, () => {
      const toml = rule.meta.docs.bad.toml + '\n';
      const before = lintDocExample(rule.meta.docs.bad).diagnostics;
      const mine = before.filter((d) => d.ruleId === id && d.suggestion);
      const fixes = mine.filter((d) => d.fix);
      if (!fixes.length) {
        if (mine.length)
          assert.ok(
            adviceOnly[id],
            `${id} suggests "${mine[0]!.suggestion}" on its failing example but offers no fix and is not listed as advice only`,
          );
        return;
      }
      assert.ok(
        !adviceOnly[id] || id === 'protected-path' || id === 'noncanonical-path',
        `${id} offers a fix: take it off the advice-only list`,
      );
      for (const d of fixes) applyAndCheck(toml, d, before);
    });
  }

  const cases: { name: string; toml: string; rule: string }[] = [
    {
      name: 'protected-path: deny only what exists (~/.ssh, ~/.gnupg exist; the rest do not)',
      toml: '[agent.filesystem]\nread = ["~"]\n',
      rule: 'protected-path',
    },
    {
      name: 'protected-path: into an existing deny list',
      toml: '[agent.filesystem]\nread = ["~"]\ndeny = ["~/.aws"]\n',
      rule: 'protected-path',
    },
    {
      name: 'noncanonical-path: the canonical spelling',
      toml: '[agent.filesystem]\nread = ["~/project/../project/"]\n',
      rule: 'noncanonical-path',
    },
    { name: 'socket-in-read-grant: deny the socket', toml: '[agent.filesystem]\nread = ["~/services"]\n', rule: 'socket-in-read-grant' },
    {
      name: 'windows-open-reads: deny the credential files that exist',
      toml: '[agent.filesystem]\nread = ["~/project"]\n',
      rule: 'windows-open-reads',
    },
    { name: 'write-only: read added in an inline table', toml: 'agent = { filesystem = { write = ["~/project"] } }\n', rule: 'write-only' },
    {
      name: 'list-without-content: the only entry of its list',
      toml: '[agent.filesystem]\nlist = [\n  "~/inbox",\n]\n',
      rule: 'list-without-content',
    },
    {
      name: 'direct-network: a tool network table removed',
      toml: '[tools.fetcher.filesystem]\nread = ["~/index"]\n[tools.fetcher.network]\n',
      rule: 'direct-network',
    },
    {
      name: 'shared-temp-write: private_tmp replaces a write of /tmp in an inline table',
      toml: 'agent = { filesystem = { read = ["~/project", "/tmp"], write = ["/tmp"] } }\n',
      rule: 'shared-temp-write',
    },
    {
      name: 'shared-temp-write: private_tmp already set, the write of /tmp removed',
      toml: '[agent.filesystem]\nwrite = ["~/project/output", "/tmp"]\nread = ["~/project"]\nprivate_tmp = true\n',
      rule: 'shared-temp-write',
    },
    {
      name: 'secret-not-grantable: the entry removed, one of several',
      toml: '[sandbox]\nread_allow = ["~/datasets", "~/.aws"]\n',
      rule: 'secret-not-grantable',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = lintText(c.toml).diagnostics;
      const fixes = before.filter((d) => d.ruleId === c.rule && d.fix);
      assert.ok(
        fixes.length,
        `${c.rule} offers a fix here: ${before
          .filter((d) => d.ruleId === c.rule)
          .map((d) => d.message)
          .join('; ')}`,
      );
      for (const d of fixes) applyAndCheck(c.toml, d, before);
    });
  }

  it('shared-temp-write: a write of /tmp is replaced by private_tmp = true, /var/tmp only advised', () => {
    const toml = '[agent.filesystem]\nread = ["/tmp", "~/project"]\nwrite = ["/tmp"]\n';
    const d = lintText(toml).diagnostics.find((x) => x.ruleId === 'shared-temp-write')!;
    assert.equal(applyFix(toml, d.fix!), '[agent.filesystem]\nprivate_tmp = true\nread = ["~/project"]\nwrite = []\n');
    assert.match(d.suggestion!, /^Set private_tmp = true in this principal's filesystem table/);
    const varTmp = lintText('[agent.filesystem]\nread = ["/var"]\nwrite = ["/var"]\n').diagnostics.find(
      (x) => x.ruleId === 'shared-temp-write',
    )!;
    assert.equal(varTmp.fix, undefined);
    assert.match(varTmp.suggestion!, /private_tmp = true/);
  });

  it('exec-dependencies: a program that writes temporary files and a principal that cannot write /tmp: the fix is private_tmp = true', () => {
    const gcc = '/usr/bin/x86_64-linux-gnu-gcc-12';
    const elf = { elf: { interpreter: '/lib64/ld-linux-x86-64.so.2', needed: ['libc.so.6'] } };
    const view = manifestView(
      JSON.stringify({
        home: '/home/u',
        path: ['/usr/bin'],
        entries: {
          '/home/u/project': 'dir',
          '/lib64': { symlink: 'usr/lib64' },
          '/usr/lib64/ld-linux-x86-64.so.2': { elf: {} },
          '/usr/lib/x86_64-linux-gnu/libc.so.6': { elf: {} },
          [gcc]: elf,
        },
      }),
      'gcc.json',
    );
    const toml = `[agent.filesystem]\nread = ["~/project", "/usr"]\nexec = ["${gcc}"]\n`;
    const d = lintText(toml, 'c.toml', view).diagnostics.find(
      (x) => x.ruleId === 'exec-dependencies' && /temporary files/.test(x.message),
    )!;
    assert.ok(d, 'gcc writes temporary files (programs.json), and /tmp is not writable');
    assert.match(d.suggestion!, /private_tmp = true/);
    const fixed = applyFix(toml, d.fix!);
    assert.equal(fixed, `[agent.filesystem]\nprivate_tmp = true\nread = ["~/project", "/usr"]\nexec = ["${gcc}"]\n`);
    const after = lintText(fixed, 'c.toml', view).diagnostics;
    assert.ok(!after.some((x) => x.ruleId === 'exec-dependencies' && /temporary files/.test(x.message)), 'the private /tmp is writable');
    assert.ok(!after.some((x) => x.severity === 'error'), after.map((x) => x.message).join('\n'));
  });

  it('protected-path never suggests denying what does not exist', () => {
    const d = lintText('[agent.filesystem]\nread = ["~"]\n').diagnostics.find((x) => x.ruleId === 'protected-path')!;
    assert.match(d.message, /exposes ~\/\.ssh, ~\/\.aws, ~\/\.gnupg, ~\/\.tyba, ~\/\.config\/boxwright unless denied; ~\/\.kube, /);
    assert.ok(!/"~\/\.kube"/.test(d.suggestion!), 'an absent location is not offered for a deny');
    const bare = manifestView(
      JSON.stringify({ home: '/home/u', entries: { '/home/u/.config/editor/settings.json': 'file' } }),
      'bare.json',
    );
    const none = lintText('[agent.filesystem]\nread = ["~/.config"]\n', 'c.toml', bare).diagnostics.find(
      (x) => x.ruleId === 'protected-path',
    )!;
    assert.match(none.message, /would expose .* if any were created: none exists on this machine yet/);
    assert.equal(none.fix, undefined);
    assert.match(none.suggestion!, /Linux refuses a deny of an absent path/);
  });
});
