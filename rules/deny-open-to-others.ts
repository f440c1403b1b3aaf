import type { Platform } from '../compiler/diagnostic.js';
import type { DenyOpenTo } from '../model/index.js';
import { factsOfKind } from '../model/platforms-of.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf } from './engine/fix.js';
import { relatedGrant, shown, who } from './util.js';

/** "MCP server `fs` can read it (its `read` of ~/ncproj, line 7)" */
function others(list: readonly DenyOpenTo[]): string {
  return list
    .map(
      (o) =>
        `${who(o.principal)} can ${o.read && o.write ? 'read and write' : o.write ? 'write' : 'read'} it ` +
        `(its \`${o.via.list}\` of ${o.via.written}, line ${o.via.span.start.line})`,
    )
    .join('; ');
}

const key = (list: readonly DenyOpenTo[]): string =>
  list.map((o) => `${o.principal.id}:${o.read}:${o.write}:${o.via.span.start.offset}`).join(' ');

export const denyOpenToOthers = defineRule({
  meta: {
    id: 'deny-open-to-others',
    seedRow: "Our lowerings: one sandbox per principal, and what one principal's deny does for the others",
    docs: {
      summary: "A principal's deny does not protect the path from the other principals that can read or write it.",
      details:
        'Every principal runs in a sandbox of its own: on Linux a mount view, on macOS a profile. A `deny` ' +
        "in the agent's table shapes the agent's sandbox only, so an MCP server or a tool whose grants cover " +
        'the denied path reads it (the agent\'s `deny = ["~/project/.env"]` and a server reading `~/project`: ' +
        'the server returns the secret, and through it the agent). Reported at the deny, on Linux and macOS, ' +
        'naming each other principal that can read or write the path and the grant that gives it; the fix ' +
        "adds the path to each such principal's `deny`. On Windows the deny is a no-read-up label on the " +
        "file itself, which every principal's token meets: there it shuts the others out as well.",
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n\n[mcp_servers.files.filesystem]\nread = ["~/project"]',
        expect: ['3:9 warning macos,linux'],
      },
      good: {
        toml:
          '[agent.filesystem]\nread = ["~/project"]\ndeny = ["~/project/.env"]\n\n[mcp_servers.files.filesystem]\n' +
          'read = ["~/project"]\ndeny = ["~/project/.env"]',
        expect: [],
      },
    },
  },
  messages: {
    open: {
      severity: 'warning',
      platforms: ['macos', 'linux'],
      text: (d: { owner: string; path: string; others: string }) =>
        `${d.owner}'s deny of ${d.path} holds in its own sandbox only: ${d.others}`,
      suggestion: "Deny the path in each other principal's table too, or narrow their grants so that none covers it.",
    },
  },
  explains: {
    'others-reach-denied-path': (f) => `other principals are not bound by this deny: ${others(f.others)}`,
  },
  anyGrant(g, ga, pa, ctx) {
    // One report per deny, for the platforms that disclose the same principals.
    // Made at the first disclosure: asked of every grant, and most have none.
    let groups: Map<string, { platforms: Platform[]; list: readonly DenyOpenTo[] }> | undefined;
    for (const [platform, fact] of factsOfKind(ga.disclosures, 'others-reach-denied-path')) {
      const k = key(fact.others);
      const group = (groups ??= new Map()).get(k);
      if (group) group.platforms.push(platform);
      else groups.set(k, { platforms: [platform], list: fact.others });
    }
    if (!groups) return;
    for (const { platforms, list } of groups.values()) {
      const tables = [...new Map(list.map((o) => [o.principal.id, ctx.ir.principals.find((p) => p.id === o.principal.id)!])).values()];
      const fix = fixOf(...tables.map((p) => addToList(p.written, p.grants, 'deny', [g.written])));
      ctx.report(
        'open',
        {
          span: g.span,
          platforms,
          related: list.slice(0, 10).map((o) => relatedGrant(o.via, `${who(o.principal)}'s grant that covers it`)),
          fix,
        },
        { owner: who(pa.principal), path: shown(g), others: others(list) },
      );
    }
  },
});
