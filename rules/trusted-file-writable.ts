import { PLATFORMS, type Platform } from '../compiler/diagnostic.js';
import type { Grant, Principal, TrustedFile } from '../compiler/ir/types.js';
import { isStrictlyUnder, isUnder } from '../compiler/paths/index.js';
import type { PrincipalAccess } from '../model/index.js';
import { defineRule } from './engine/engine.js';
import { who } from './util.js';

/** What the host does with each of boxwright's own files after a run: why a principal must not write it. */
const trusted: Record<TrustedFile['role'], string> = {
  config: 'the config this sandbox is compiled from: one run could rewrite what the next run of the same command line grants',
  'other-config':
    "another sandbox config of this repository: one run could rewrite what that config's next run " +
    'grants (lint checks each config it is given against the others)',
  project:
    "the repository's project file, .boxwright.toml, that lint takes its ignores and defaults from: one " +
    'run could silence the warnings about its own grants (errors stay)',
  manifest: 'the --fs manifest the check takes its facts from: one run could rewrite the facts the next check believes',
  out: 'the directory `compile --out` writes the sandbox into: one run could rewrite what the next `DIR/<principal>.run` executes',
  bwrap: 'the bubblewrap boxwright executes, outside any sandbox, for every run',
  boxwright: 'boxwright itself (its entry point, bundles and launcher program), which the next boxwright command runs outside any sandbox',
};

const writes = (g: Grant): boolean => g.access === 'write' || g.access === 'read-write';

function writable(pa: PrincipalAccess, path: string, platform: Platform): boolean {
  const cell = pa.effectiveAt(path, platform);
  return cell.kind === 'access' && cell.write;
}

/**
 * Where `pa` gets write access to the trusted file on `platform`: the
 * innermost write grant over it (or, for a tree, a writable one inside
 * it); the principal itself when the model says writable and no grant is
 * found (never silent).
 */
function writingGrant(pa: PrincipalAccess, f: TrustedFile, platform: Platform): Grant | Principal | undefined {
  // Listed only where it is read: a file no grant makes writable (the usual config) asks none of 40,000 grants.
  const applying = (): Grant[] => pa.grants.filter((ga) => ga.applies[platform] && writes(ga.grant) && ga.grant.path).map((ga) => ga.grant);
  if (writable(pa, f.path, platform)) {
    const over = applying().filter((g) => (g.scope === 'tree' ? isUnder(f.path, g.path!) : f.path === g.path));
    return over.sort((a, b) => b.path!.length - a.path!.length)[0] ?? pa.principal;
  }
  // A directory whose files are trusted: a write grant anywhere below it writes them.
  return f.tree ? applying().find((g) => isStrictlyUnder(g.path!, f.path) && writable(pa, g.path!, platform)) : undefined;
}

export const trustedFileWritable = defineRule({
  meta: {
    id: 'trusted-file-writable',
    seedRow: "Design (issue 21): nothing the host trusts later may be written by the workload — boxwright's own inputs and outputs",
    docs: {
      summary:
        "A principal can write one of boxwright's own files: the config, the project file " +
        '(.boxwright.toml), the --fs manifest, the compile --out directory, bubblewrap, or boxwright itself.',
      details:
        "What boxwright reads or executes after a run must not be the workload's to change. A config inside " +
        'its own write tree (a repository\'s sandbox config, with `write = ["~/project"]`) is rewritten by ' +
        'run 1, and run 2 of the same command line grants what the rewrite says; an `--fs` manifest the same ' +
        'for the facts; a `compile --out` directory inside a write tree lets the workload rewrite the argv ' +
        'and the launch file that the next `DIR/agent.run` executes; a bubblewrap under a write grant, or ' +
        "boxwright's own package, runs outside every sandbox. A project file, `.boxwright.toml`, silences " +
        'warnings: a principal that can write it could hide what lint says of its own grants. boxwright ' +
        'judges each file it was given (lint and explain: the config and the manifest, and lint the project ' +
        'files that decide its findings; compile: and the --out directory; run: and the bubblewrap and ' +
        "boxwright it executes) against every principal's effective access, on each platform, and refuses: " +
        '`compile` writes nothing, `run` exits 125 before anything starts, and the Linux launcher refuses a ' +
        'config or a directory of its own that its mounts make writable. The compiled Linux mounts are read ' +
        'back for the same question (a mount writable where the model says otherwise is refused too). Keep ' +
        'these files outside every write grant, or deny them inside it.',
      bad: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project"]',
        readFrom: '/home/dev/project/sandbox.toml',
        expect: ['3:10 error macos,linux,windows'],
      },
      good: {
        toml: '[agent.filesystem]\nread = ["~/project"]\nwrite = ["~/project/output"]',
        readFrom: '/home/dev/project/sandbox.toml',
        expect: [],
      },
    },
  },
  messages: {
    writable: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { who: string; path: string; role: TrustedFile['role'] }) => `${d.who} can write ${d.path}, ${trusted[d.role]}`,
      suggestion: (d: { role: TrustedFile['role'] }) =>
        d.role === 'bwrap'
          ? 'Narrow the write grant, or run boxwright with a bubblewrap outside every write grant (--bwrap PATH; ' +
            'your distribution installs one where only root writes).'
          : d.role === 'out'
            ? 'Narrow the write grant, or compile into a directory outside every write grant.'
            : d.role === 'boxwright'
              ? 'Narrow the write grant, or run a boxwright installed outside every write grant.'
              : d.role === 'project'
                ? 'Narrow the write grant, or `deny` the .boxwright.toml inside it (keep it outside every write grant).'
                : d.role === 'other-config'
                  ? "Narrow the write grant (or `deny` that config inside it), or keep the repository's sandbox " +
                    'configs outside every write grant of each other.'
                  : `Narrow the write grant (or \`deny\` the ${d.role} inside it), or keep the ${d.role} outside every write grant.`,
    },
  },
  principal(pa, ctx) {
    for (const f of ctx.ir.trustedFiles) {
      // One report per grant, for every platform it makes the file writable on.
      const by = new Map<Grant | Principal, Platform[]>();
      for (const platform of f.platforms) {
        const g = writingGrant(pa, f, platform);
        if (g) by.set(g, [...(by.get(g) ?? []), platform]);
      }
      for (const [g, platforms] of by)
        ctx.report('writable', { span: g.span, platforms }, { who: who(pa.principal), path: f.path, role: f.role });
    }
  },
});
