import type { ReachItem } from '../compiler/ir/reach.js';
import { defineRule } from './engine/engine.js';

/**
 * Sockets that lead out of the sandbox, by what serves them: whoever
 * connects gets what the service does, as the service's user (the Docker
 * daemon as root). Colima's before Docker's: its socket is a docker.sock too.
 */
const known: readonly { test: RegExp; what: string }[] = [
  {
    test: /colima/i,
    what: "Colima's Docker API, one request from a container that mounts your home or the VM's root",
  },
  {
    test: /docker\.sock$/,
    what: "the Docker API, where a container with the host's `/` mounted is root on the host",
  },
  { test: /podman.*\.sock$|\.sock.*podman/i, what: 'the Podman API, where a container with your home mounted runs as you' },
  {
    test: /1password|op-ssh|bitwarden|keybase|secretive|gpg-agent|S\.gpg|ssh-agent|agent\.sock$|ssh_auth_sock/i,
    what: 'a key or password-manager agent, which signs with your keys or hands out your secrets to whoever asks',
  },
];

export const socketEscape = defineRule({
  meta: {
    id: 'socket-escape',
    seedRow:
      'sandbox-runtime 0.0.83 macos-sandbox-utils.js (allowUnixSockets: network-outbound to the socket ' +
      'path and below; allowLocalBinding: bind and inbound on *:*, outbound to localhost); issue 36',
    dialects: ['srt', 'claude'],
    docs: {
      summary:
        'A unix socket or local binding the macOS sandbox allows: whatever serves it does what the command asks, outside the sandbox.',
      details:
        'On macOS, each `allowUnixSockets` entry lets the command connect to that socket (and to every socket ' +
        "below it: the profile's rule is a `subpath`), and the service behind it acts for the command with " +
        'its own rights, outside the sandbox: the Docker API (`docker.sock`) starts a container with the ' +
        "host's `/` mounted, which is root on the host; Colima's socket the same in its VM, which mounts " +
        'your home; a password-manager or SSH/GPG agent socket signs with your keys or hands out secrets. ' +
        'Each such socket is a warning naming what serves it, any other an info naming the socket. `allowLocalBinding` ' +
        'lets the command bind and accept on every address (`local ip "*:*"`) and connect to every localhost ' +
        "port: every service listening on the Mac's loopback (databases, dev servers, debuggers, a Docker " +
        'TCP API) is reachable from the sandbox, and the command can serve the network. Linux ignores both ' +
        "(`platform-ignored`); `allowAllUnixSockets` is `sandbox-bypass`'s.",
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": ' +
          '[], "deniedDomains": [], "allowUnixSockets": ["/var/run/docker.sock"]}\n}',
        expect: ['3:79 warning macos'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    socket: {
      severity: 'warning',
      platforms: ['macos'],
      text: (d: { key: string; socket: string; what: string }) => `\`${d.key}\` allows ${d.socket}: ${d.what}`,
      suggestion: 'Remove it, unless the command must drive that service; then run the command where the service holds nothing of yours.',
    },
    otherSocket: {
      severity: 'info',
      platforms: ['macos'],
      text: (d: { key: string; socket: string }) =>
        `\`${d.key}\` allows ${d.socket} (and every socket below it): the service behind it acts for the command, outside the sandbox`,
    },
    localBinding: {
      severity: 'warning',
      platforms: ['macos'],
      text: (d: { key: string }) =>
        `\`${d.key}\` is on: the command can connect to every localhost port (databases, dev servers, debuggers, ` +
        `a Docker TCP API) and bind and accept on every address`,
      suggestion: 'Turn it off unless the command must serve or reach a local port.',
    },
  },
  check(ctx) {
    const items: readonly ReachItem[] = ctx.ir.runtime?.reach.items ?? [];
    for (const item of items) {
      if (item.cls !== 'network' || item.effect !== 'grants') continue;
      if (/(^|\.)network\.allowUnixSockets$/.test(item.key)) {
        const hit = known.find((k) => k.test.test(item.value));
        if (hit) ctx.report('socket', { span: item.span }, { key: item.key, socket: item.value, what: hit.what });
        else ctx.report('otherSocket', { span: item.span }, { key: item.key, socket: item.value });
      } else if (/(^|\.)network\.allowLocalBinding$/.test(item.key)) ctx.report('localBinding', { span: item.span }, { key: item.key });
    }
  },
});
