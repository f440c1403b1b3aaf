import type { Platform } from '../compiler/diagnostic.js';
import { unsandboxedPlatforms } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { setting } from './runtime-util.js';

/** Settings a platform does not read, each with the platforms that pass it over and why (the schema's descriptions, README). */
const ignored: readonly { key: string; platforms: readonly Platform[]; why: string; allowlist: boolean }[] = [
  {
    key: 'network.allowUnixSockets',
    platforms: ['linux'],
    why: 'seccomp cannot filter by path, so Linux blocks every unix socket the command creates (or none, with allowAllUnixSockets)',
    allowlist: true,
  },
  {
    key: 'network.allowLocalBinding',
    platforms: ['linux'],
    why: "the Linux sandbox has a network namespace of its own, whose loopback is always usable and is not the host's",
    allowlist: false,
  },
  { key: 'network.allowMachLookup', platforms: ['linux', 'windows'], why: "Mach services are macOS's", allowlist: true },
  { key: 'allowPty', platforms: ['linux', 'windows'], why: 'a Seatbelt rule, macOS only', allowlist: false },
];

export const platformIgnored = defineRule({
  meta: {
    id: 'platform-ignored',
    seedRow:
      'sandbox-runtime README, Unix Socket Settings (allowUnixSockets: Linux ignored) and Network Configuration (allowLocalBinding: Linux ignored)',
    dialects: ['srt', 'claude'],
    docs: {
      summary: 'A setting a platform passes over: an allowlist that does nothing there.',
      details:
        '`allowUnixSockets` is a Seatbelt allowlist: on Linux it is ignored, because seccomp cannot filter ' +
        'by path (sandbox-config.js: "macOS only … Ignored on Linux"; README, Unix Socket Settings), so ' +
        'the sockets it names stay blocked there (a warning: the setting does not do what it says). `allowLocalBinding` ' +
        'is ignored on Linux, whose sandbox has its own loopback; `allowMachLookup` and `allowPty` are macOS-only (infos).',
      bad: {
        toml:
          '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": ' +
          '[], "deniedDomains": [], "allowUnixSockets": ["/run/docker.sock"]}\n}',
        expect: ['3:58 warning linux'],
      },
      good: {
        toml: '{\n  "filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": []},\n  "network": {"allowedDomains": [], "deniedDomains": []}\n}',
        expect: [],
      },
    },
  },
  messages: {
    allowlist: {
      severity: 'warning',
      platforms: ['linux', 'windows'],
      text: (d: { key: string; why: string }) => `\`${d.key}\` does nothing here: ${d.why}`,
    },
    passedOver: {
      severity: 'info',
      platforms: ['linux', 'windows'],
      text: (d: { key: string; why: string }) => `\`${d.key}\` is passed over here: ${d.why}`,
    },
  },
  check(ctx) {
    for (const s of ignored) {
      const w = setting(ctx.ir, s.key);
      if (w === undefined || w.value === false || (Array.isArray(w.value) && w.value.length === 0)) continue;
      // Where the model gives no sandbox at all (Claude Code on native Windows: sandbox-bypass says so), no setting of it is passed over.
      const none = unsandboxedPlatforms(ctx.access);
      const platforms = s.platforms.filter((p) => !none.includes(p));
      if (platforms.length)
        ctx.report(s.allowlist ? 'allowlist' : 'passedOver', { span: w.keySpan, platforms }, { key: s.key, why: s.why });
    }
  },
});
