import { inspectPath, isUnder, protectedHit, protectedPaths, type ProtectedPath } from '../compiler/paths/index.js';
import { defineRule } from './engine.js';
import { authored, shown } from './util.js';

const reasons: Record<ProtectedPath['why'], string> = {
  secret: 'a protected secret location',
  'tyba-data': "TYBA's data directory",
  boxwright: "boxwright's own configuration directory",
  root: 'the filesystem root',
};

export const protectedPath = defineRule({
  meta: {
    id: 'protected-path',
    seedRow: "Content and execution grants must pass Box's protected-path checks",
    dialects: ['box'],
    docs: {
      summary: 'A grant names a protected path, or a tree that contains one.',
      details:
        "Protected paths are the filesystem root `/`, the twelve secret locations of seed 001 (`~/.ssh`, `~/.aws`, `~/.gnupg`, `~/.kube`, `~/.config/gcloud`, `~/.config/gh`, `~/.git-credentials`, `~/.netrc`, `~/.npmrc`, `~/.pypirc`, `~/.docker/config.json`, `~/.cargo/credentials`), TYBA's data directory and `~/.config/boxwright`. A grant on one of them, or inside one, is refused. A grant on an ancestor of one is a warning that names what it exposes, unless a `deny` of the same principal covers it. A `deny` of a protected path is always fine.",
      bad: { toml: '[agent.filesystem]\nread = ["~"]', expect: ['2:9 warning macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    inside: {
      severity: 'error',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { path: string; inside?: string; why: ProtectedPath['why'] }) => `${d.path} is ${d.inside ? `inside ${d.inside}, ` : ''}${reasons[d.why]}: it cannot be granted`,
      suggestion: 'Grant only the files the workload needs, outside the protected locations.',
    },
    exposes: {
      severity: 'warning',
      platforms: ['macos', 'linux', 'windows'],
      text: (d: { path: string; named: readonly string[]; noneExists: boolean }) => `${d.path} exposes ${d.named.join(', ')}${d.noneExists ? ' (none exists yet)' : ''} unless denied`,
      suggestion: (d: { named: readonly string[] }) => `Grant a narrower path, or add ${d.named.map((n) => `"${n}"`).join(', ')} to \`deny\`.`,
    },
  },
  check(ctx) {
    const list = protectedPaths(ctx.ir.home, '~/.tyba');
    for (const p of ctx.ir.principals) {
      const denies = p.grants.filter((g) => g.access === 'deny' && g.path).map((g) => g.path!);
      for (const g of authored(p)) {
        if (g.access === 'deny' || !g.path) continue;
        const hit = protectedHit(g.path, list);
        const what = hit.inside[0];
        if (what) {
          ctx.report('inside', { span: g.span }, { path: shown(g), ...(g.path === what.path ? {} : { inside: what.path }), why: what.why });
          continue;
        }
        const exposed = hit.exposes.filter((x) => !denies.some((d) => isUnder(x.path, d)));
        if (!exposed.length) continue;
        // the step-by-step walk every rule uses, so that `--fs host` and an equivalent manifest agree
        // (a raw lookup lets the kernel follow `~/.docker` -> elsewhere on the host, never in a manifest)
        const existing = exposed.filter((x) => inspectPath(ctx.view, x.path).existence !== 'absent');
        ctx.report('exposes', { span: g.span }, { path: shown(g), named: (existing.length ? existing : exposed).map((x) => x.written), noneExists: !existing.length });
      }
    }
  },
});
