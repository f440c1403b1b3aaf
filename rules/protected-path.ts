import { inspectPath, isUnder, protectedHit, protectedPaths, type ProtectedPath } from '../compiler/paths/index.js';
import type { Rule } from './engine.js';
import { authored, shown } from './util.js';

const reasons: Record<ProtectedPath['why'], string> = {
  secret: 'a protected secret location',
  'tyba-data': "TYBA's data directory",
  boxwright: "boxwright's own configuration directory",
  root: 'the filesystem root',
};

export const protectedPath: Rule = {
  meta: {
    id: 'protected-path',
    seedRow: "Content and execution grants must pass Box's protected-path checks",
    severity: { macos: 'error', linux: 'error', windows: 'error' },
    dialects: ['box'],
    docs: {
      summary: 'A grant names a protected path, or a tree that contains one.',
      details:
        "Protected paths are the filesystem root `/`, the twelve secret locations of seed 001 (`~/.ssh`, `~/.aws`, `~/.gnupg`, `~/.kube`, `~/.config/gcloud`, `~/.config/gh`, `~/.git-credentials`, `~/.netrc`, `~/.npmrc`, `~/.pypirc`, `~/.docker/config.json`, `~/.cargo/credentials`), TYBA's data directory and `~/.config/boxwright`. A grant on one of them, or inside one, is refused. A grant on an ancestor of one is a warning that names what it exposes, unless a `deny` of the same principal covers it. A `deny` of a protected path is always fine.",
      bad: '[agent.filesystem]\nread = ["~"]',
      good: '[agent.filesystem]\nread = ["~/project"]',
    },
  },
  check(ctx) {
    const list = protectedPaths(ctx.ir.home, '~/.tyba');
    for (const p of ctx.ir.principals) {
      const denies = p.grants.filter((g) => g.access === 'deny' && g.path).map((g) => g.path!);
      for (const g of authored(p)) {
        if (g.access === 'deny' || !g.path) continue;
        const hit = protectedHit(g.path, list);
        if (hit.inside.length) {
          const what = hit.inside[0]!;
          ctx.report({
            severity: 'error',
            platforms: ['macos', 'linux', 'windows'],
            message: `${shown(g)} is ${g.path === what.path ? '' : `inside ${what.path}, `}${reasons[what.why]}: it cannot be granted`,
            span: g.span,
            suggestion: 'Grant only the files the workload needs, outside the protected locations.',
          });
          continue;
        }
        const exposed = hit.exposes.filter((x) => !denies.some((d) => isUnder(x.path, d)));
        if (!exposed.length) continue;
        // the step-by-step walk every rule uses, so that `--fs host` and an equivalent manifest agree
        // (a raw lookup lets the kernel follow `~/.docker` -> elsewhere on the host, never in a manifest)
        const existing = exposed.filter((x) => inspectPath(ctx.view, x.path).existence !== 'absent');
        const named = (existing.length ? existing : exposed).map((x) => x.written);
        ctx.report({
          severity: 'warning',
          platforms: ['macos', 'linux', 'windows'],
          message: `${shown(g)} exposes ${named.join(', ')}${existing.length ? '' : ' (none exists yet)'} unless denied`,
          span: g.span,
          suggestion: `Grant a narrower path, or add ${named.map((n) => `"${n}"`).join(', ')} to \`deny\`.`,
        });
      }
    }
  },
};
