/**
 * The settings gate's cases (settings-gate.test.ts): one per class of
 * widening a sandbox-runtime or Claude Code settings file holds beyond
 * files, each a change of a base file with the sentence diff says it in and
 * the gate's failure for it.
 */
export type Json = Record<string, unknown>;

export const srtBase = (): Json => ({
  network: { allowedDomains: ['github.com', '*.npmjs.org'], deniedDomains: ['evil.example'] },
  filesystem: { denyRead: ['~/.ssh'], allowWrite: ['.'], denyWrite: [] },
});
export const claudeBase = (): Json => ({
  sandbox: {
    enabled: true,
    failIfUnavailable: true,
    allowUnsandboxedCommands: false,
    network: { allowedDomains: ['github.com'] },
    filesystem: { denyRead: ['~/.ssh', '/secrets'] },
  },
  permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'] },
});

export interface Case {
  readonly name: string;
  readonly dialect: 'srt' | 'claude';
  readonly change: (j: Json) => void;
  /** The sentence the widening is said in (requested, the same on every machine). */
  readonly line: string;
  /** The gate's failure for it. */
  readonly gate: string;
}

export const net = (j: Json): Json => j.network as Json;
export const sb = (j: Json): Json => j.sandbox as Json;
const sbNet = (j: Json): Json => sb(j).network as Json;
const domains = (o: Json): string[] => o.allowedDomains as string[];

export const cases: readonly Case[] = [
  // srt: network
  {
    name: 'srt: a domain added',
    dialect: 'srt',
    change: (j) => domains(net(j)).push('api.example.com'),
    line: 'network: `network.allowedDomains` now allows `api.example.com`',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: "*"',
    dialect: 'srt',
    change: (j) => domains(net(j)).push('*'),
    line: 'network: `network.allowedDomains` now allows `*` (every host)',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: "*.ngrok.io"',
    dialect: 'srt',
    change: (j) => domains(net(j)).push('*.ngrok.io'),
    line: 'network: `network.allowedDomains` now allows `*.ngrok.io` (every host under ngrok.io)',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: a wildcard that covers more',
    dialect: 'srt',
    change: (j) => {
      net(j).allowedDomains = ['github.com', '*.org'];
    },
    line: 'network: `network.allowedDomains` now allows `*.org` (every host under org)',
    gate: 'the settings widen: `network.allowedDomains`',
  },
  {
    name: 'srt: a denied domain dropped',
    dialect: 'srt',
    change: (j) => {
      net(j).deniedDomains = [];
    },
    line: 'network: `network.deniedDomains` no longer denies `evil.example`',
    gate: 'the settings widen: `network.deniedDomains`',
  },
  {
    name: 'srt: docker.sock',
    dialect: 'srt',
    change: (j) => {
      net(j).allowUnixSockets = ['/var/run/docker.sock'];
    },
    line: 'network: `network.allowUnixSockets` now allows `/var/run/docker.sock`',
    gate: 'the settings widen: `network.allowUnixSockets`',
  },
  {
    name: 'srt: allowAllUnixSockets',
    dialect: 'srt',
    change: (j) => {
      net(j).allowAllUnixSockets = true;
    },
    line: 'network: `network.allowAllUnixSockets` is now true',
    gate: 'the settings widen: `network.allowAllUnixSockets`',
  },
  {
    name: 'srt: allowLocalBinding',
    dialect: 'srt',
    change: (j) => {
      net(j).allowLocalBinding = true;
    },
    line: 'network: `network.allowLocalBinding` is now true',
    gate: 'the settings widen: `network.allowLocalBinding`',
  },
  {
    name: 'srt: httpProxyPort',
    dialect: 'srt',
    change: (j) => {
      net(j).httpProxyPort = 8080;
    },
    line: 'network: `network.httpProxyPort` now hands the network to the proxy at port `8080`',
    gate: 'the settings widen: `network.httpProxyPort`',
  },
  {
    name: 'srt: socksProxyPort',
    dialect: 'srt',
    change: (j) => {
      net(j).socksProxyPort = 1080;
    },
    line: 'network: `network.socksProxyPort` now hands the network to the proxy at port `1080`',
    gate: 'the settings widen: `network.socksProxyPort`',
  },
  // srt: strength
  {
    name: 'srt: enableWeakerNestedSandbox',
    dialect: 'srt',
    change: (j) => {
      j.enableWeakerNestedSandbox = true;
    },
    line: "the sandbox's strength: `enableWeakerNestedSandbox` is now true",
    gate: 'the settings widen: `enableWeakerNestedSandbox`',
  },
  {
    name: 'srt: allowNestedUserNamespaces',
    dialect: 'srt',
    change: (j) => {
      j.allowNestedUserNamespaces = true;
    },
    line: "the sandbox's strength: `allowNestedUserNamespaces` is now true",
    gate: 'the settings widen: `allowNestedUserNamespaces`',
  },
  // srt: programs run on the host (outside the project and every write grant: a change of the program is a widening
  // whoever can write it; lint's error for one in the project is settings-reach-lint.test.ts's)
  {
    name: 'srt: bwrapPath',
    dialect: 'srt',
    change: (j) => {
      j.bwrapPath = '/opt/sandbox/bin/bwrap';
    },
    line: 'programs run on the host: `bwrapPath` now runs `/opt/sandbox/bin/bwrap` on the host',
    gate: 'the settings widen: `bwrapPath`',
  },
  {
    name: 'srt: ripgrep.command',
    dialect: 'srt',
    change: (j) => {
      j.ripgrep = { command: '/opt/ripgrep/rg' };
    },
    line: 'programs run on the host: `ripgrep.command` now runs `/opt/ripgrep/rg` on the host',
    gate: 'the settings widen: `ripgrep.command`',
  },
  {
    name: 'srt: seccomp.applyPath',
    dialect: 'srt',
    change: (j) => {
      j.seccomp = { applyPath: '/opt/sandbox/bin/apply-seccomp' };
    },
    line: 'programs run on the host: `seccomp.applyPath` now runs `/opt/sandbox/bin/apply-seccomp` on the host',
    gate: 'the settings widen: `seccomp.applyPath`',
  },
  {
    name: 'srt: windows.srtWin.path',
    dialect: 'srt',
    change: (j) => {
      j.windows = { srtWin: { path: 'C:\\project\\srt-win.exe' } };
    },
    line: 'programs run on the host: `windows.srtWin.path` now runs `C:\\project\\srt-win.exe` on the host',
    gate: 'the settings widen: `windows.srtWin.path`',
  },
  // srt: not modelled
  {
    name: 'srt: a setting boxwright does not model',
    dialect: 'srt',
    change: (j) => {
      j.mandatoryDenySearchDepth = 1;
    },
    line: 'cannot judge: `mandatoryDenySearchDepth` changed (boxwright does not model this setting, so it may widen)',
    gate: 'cannot judge: `mandatoryDenySearchDepth` changed',
  },
  // Claude Code
  {
    name: 'claude: the sandbox off',
    dialect: 'claude',
    change: (j) => {
      sb(j).enabled = false;
    },
    line: "the sandbox's strength: `sandbox.enabled` is now false",
    gate: 'the settings widen: `sandbox.enabled`',
  },
  {
    name: 'claude: failIfUnavailable dropped (its default is false)',
    dialect: 'claude',
    change: (j) => {
      delete sb(j).failIfUnavailable;
    },
    line: "the sandbox's strength: `sandbox.failIfUnavailable` is now false (its default)",
    gate: 'the settings widen: `sandbox.failIfUnavailable`',
  },
  {
    name: 'claude: enableWeakerNestedSandbox',
    dialect: 'claude',
    change: (j) => {
      sb(j).enableWeakerNestedSandbox = true;
    },
    line: "the sandbox's strength: `sandbox.enableWeakerNestedSandbox` is now true",
    gate: 'the settings widen: `sandbox.enableWeakerNestedSandbox`',
  },
  {
    name: 'claude: an excluded command',
    dialect: 'claude',
    change: (j) => {
      sb(j).excludedCommands = ['npm'];
    },
    line: 'outside the sandbox: `sandbox.excludedCommands` now runs `npm` outside the sandbox, with all your access',
    gate: 'the settings widen: `sandbox.excludedCommands`',
  },
  {
    name: 'claude: allowUnsandboxedCommands',
    dialect: 'claude',
    change: (j) => {
      sb(j).allowUnsandboxedCommands = true;
    },
    line: 'outside the sandbox: `sandbox.allowUnsandboxedCommands` is now true',
    gate: 'the settings widen: `sandbox.allowUnsandboxedCommands`',
  },
  {
    name: 'claude: a SessionStart hook',
    dialect: 'claude',
    change: (j) => {
      j.hooks = { SessionStart: [{ hooks: [{ type: 'command', command: './scripts/setup.sh' }] }] };
    },
    line: 'outside the sandbox: `hooks.SessionStart` now runs `./scripts/setup.sh` outside the sandbox, with all your access',
    gate: 'the settings widen: `hooks.SessionStart`',
  },
  {
    name: 'claude: apiKeyHelper',
    dialect: 'claude',
    change: (j) => {
      j.apiKeyHelper = './bin/key.sh';
    },
    line: 'outside the sandbox: `apiKeyHelper` now runs `./bin/key.sh` outside the sandbox, with all your access',
    gate: 'the settings widen: `apiKeyHelper`',
  },
  {
    name: 'claude: a permission allow rule',
    dialect: 'claude',
    change: (j) => {
      ((j.permissions as Json).allow as string[]).push('Bash(curl:*)');
    },
    line: 'permissions: `permissions.allow` now allows `Bash(curl:*)`',
    gate: 'the settings widen: `permissions.allow`',
  },
  {
    name: 'claude: a domain wildcard',
    dialect: 'claude',
    change: (j) => domains(sbNet(j)).push('*.ngrok.io'),
    line: 'network: `sandbox.network.allowedDomains` now allows `*.ngrok.io` (every host under ngrok.io)',
    gate: 'the settings widen: `sandbox.network.allowedDomains`',
  },
  {
    name: 'claude: docker.sock',
    dialect: 'claude',
    change: (j) => {
      sbNet(j).allowUnixSockets = ['/var/run/docker.sock'];
    },
    line: 'network: `sandbox.network.allowUnixSockets` now allows `/var/run/docker.sock`',
    gate: 'the settings widen: `sandbox.network.allowUnixSockets`',
  },
  {
    name: 'claude: bwrapPath',
    dialect: 'claude',
    change: (j) => {
      sb(j).bwrapPath = '/opt/bwrap/bwrap';
    },
    line: 'programs run on the host: `sandbox.bwrapPath` now runs `/opt/bwrap/bwrap` on the host',
    gate: 'the settings widen: `sandbox.bwrapPath`',
  },
  {
    name: 'claude: ripgrep.command',
    dialect: 'claude',
    change: (j) => {
      sb(j).ripgrep = { command: '/opt/rg/rg' };
    },
    line: 'programs run on the host: `sandbox.ripgrep.command` now runs `/opt/rg/rg` on the host',
    gate: 'the settings widen: `sandbox.ripgrep.command`',
  },
  {
    name: 'claude: env, which boxwright does not model',
    dialect: 'claude',
    change: (j) => {
      j.env = { PATH: '/home/dev/project/bin:/usr/bin' };
    },
    line: 'cannot judge: `env.PATH` changed (boxwright does not model this setting, so it may widen)',
    gate: 'cannot judge: `env.PATH` changed',
  },
];
