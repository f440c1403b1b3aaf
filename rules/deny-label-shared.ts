import type { Principal } from '../compiler/ir/types.js';
import type { OtherLabel } from '../model/index.js';
import { defineRule } from './engine/engine.js';
import { listPaths, relatedGrant, relatedGrants, shown, who } from './util.js';

/** `the agent`, `tool \`fmt\``: whose deny a label is. */
function owner(l: OtherLabel, principals: readonly Principal[]): string {
  const p = principals.find((x) => x.id === l.principal);
  return p ? who(p) : l.principal;
}

export const denyLabelShared = defineRule({
  meta: {
    id: 'deny-label-shared',
    seedRow:
      "Our Windows lowering: a deny is a mandatory label on the files (TYBA's platforms page: labelled deny-read, recursively, file by file)",
    dialects: ['box'],
    docs: {
      summary: "On Windows one principal's deny shuts every principal out of the path.",
      details:
        "Each principal runs in its own sandbox, and on macOS and Linux a principal's deny is a rule of " +
        'its own sandbox only. On Windows a deny becomes a Medium no-read-up, no-write-up, no-execute-up ' +
        'label on the files themselves: a label is a property of the object, not of a principal, so it shuts ' +
        'the Low token of every principal out, not only the one whose entry asked for it (and every other ' +
        "low-integrity process). Another principal's grant of the path, or of a tree holding it, has no " +
        "effect there on Windows: the plan leaves its write step out, and explain's Windows cell says — " +
        "with this rule's note. Move the deny to every principal that must not see the path, or grant the " +
        'path to the one that needs it and deny it to none.',
      bad: {
        toml: '[agent.filesystem]\ndeny = ["~/project"]\n\n[tools.fmt.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]',
        expect: ['5:9 warning windows', '6:10 warning windows'],
      },
      good: {
        toml: '[agent.filesystem]\nread = ["~/project/src"]\n\n[tools.fmt.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]',
        expect: [],
      },
    },
  },
  messages: {
    shut: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { list: string; path: string; who: string; by: string }) =>
        `\`${d.list}\` of ${d.path} has no effect for ${d.who} on Windows: ${d.by} is a label on the files, ` +
        `and a label shuts every principal out, not only the one whose entry asked for it`,
      suggestion: 'Deny the path to every principal that must not see it, or grant it to the principal that needs it and deny it to none.',
    },
    inside: {
      severity: 'warning',
      platforms: ['windows'],
      text: (d: { list: string; path: string; who: string; paths: readonly string[]; by: string }) =>
        `\`${d.list}\` of ${d.path} does not reach ${listPaths(d.paths)} for ${d.who} on Windows: ${d.by} ` +
        `labels ${d.paths.length === 1 ? 'it' : 'them'}, and a label shuts every principal out, not only ` +
        `the one whose entry asked for it`,
      suggestion: 'Deny the path to every principal that must not see it, or grant it to the principal that needs it and deny it to none.',
    },
  },
  explains: {
    'label-of-another-principal': (f) =>
      `another principal's deny labels it (${f.label.principal}, line ${f.label.grant.span.start.line}): ` +
      `a label is a property of the files, so it shuts every principal out, this one too`,
    'labels-of-other-principals': (f) =>
      `${listPaths(f.labels.map((l) => shown(l.grant)))} inside it ${f.labels.length === 1 ? 'is' : 'are'} ` +
      `shut to this principal too: another principal's deny is a label on the files`,
  },
  authoredGrant(g, ga, pa, ctx) {
    const principals = ctx.ir.principals;
    const base = { list: g.list, path: shown(g), who: who(pa.principal) };
    const note = ga.notes.windows;
    if (note?.kind === 'label-of-another-principal')
      ctx.report(
        'shut',
        { span: g.span, related: [relatedGrant(note.label.grant, 'the deny whose label shuts it')] },
        { ...base, by: `${owner(note.label, principals)}'s deny of ${shown(note.label.grant)} (line ${note.label.grant.span.start.line})` },
      );
    for (const d of ga.disclosures.windows ?? []) {
      if (d.kind !== 'labels-of-other-principals') continue;
      const owners = [...new Set(d.labels.map((l) => owner(l, principals)))];
      const by = owners.length === 1 ? `${owners[0]}'s deny` : "other principals' denies";
      ctx.report(
        'inside',
        {
          span: g.span,
          related: relatedGrants(
            d.labels.map((l) => l.grant),
            'a deny whose label shuts a path inside it',
          ),
        },
        { ...base, paths: d.labels.map((l) => shown(l.grant)), by },
      );
    }
  },
});
