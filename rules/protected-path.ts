import { PLATFORMS } from '../compiler/diagnostic.js';
import type { PolicyIR, Principal } from '../compiler/ir/types.js';
import { inspectPath, isUnder, protectedHit, protectedPaths, type ProtectedPath } from '../compiler/paths/index.js';
import { defineRule } from './engine/engine.js';
import { addToList, fixOf } from './engine/fix.js';
import { shown } from './util.js';

const reasons: Record<ProtectedPath['why'], string> = {
  secret: 'a protected secret location',
  'tyba-data': "TYBA's data directory",
  boxwright: "boxwright's own configuration directory",
  'boxwright-cache': "boxwright's run cache (the sandboxes `boxwright run` compiled and reuses)",
  root: 'the filesystem root',
};

export const protectedPath = defineRule({
  meta: {
    id: 'protected-path',
    seedRow: "Box's platform table: content and execution grants must pass Box's protected-path checks",
    dialects: ['box'],
    docs: {
      summary: 'A grant names a protected path, or a tree that contains one.',
      details:
        "Protected paths are the filesystem root `/`, the twelve secret locations of TYBA's platforms page " +
        '(`~/.ssh`, `~/.aws`, `~/.gnupg`, `~/.kube`, `~/.config/gcloud`, `~/.config/gh`, `~/.git-credentials`, ' +
        "`~/.netrc`, `~/.npmrc`, `~/.pypirc`, `~/.docker/config.json`, `~/.cargo/credentials`), TYBA's data " +
        'directory, `~/.config/boxwright` and `~/.cache/boxwright` (the sandboxes `boxwright run` compiled: ' +
        'whoever writes it decides what the next run executes). A grant on one of them, or inside one, is ' +
        'refused. A grant on an ancestor of one is a warning that names what it exposes, unless a `deny` ' +
        'of the same principal covers it: the locations that exist, for a deny, and apart those that do ' +
        'not (a deny of an absent path is refused on Linux, so it is no remedy for them). A `deny` of a ' +
        'protected path that exists is always fine.',
      bad: { toml: '[agent.filesystem]\nread = ["~"]', expect: ['2:9 warning macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    inside: {
      severity: 'error',
      platforms: PLATFORMS,
      text: (d: { path: string; inside?: string; why: ProtectedPath['why'] }) =>
        `${d.path} is ${d.inside ? `inside ${d.inside}, ` : ''}${reasons[d.why]}: it cannot be granted`,
      suggestion: 'Grant only the files the workload needs, outside the protected locations.',
    },
    exposes: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { path: string; existing: readonly string[]; absent: readonly string[] }) =>
        `${d.path} exposes ${d.existing.join(', ')} unless denied${d.absent.length ? `; ${d.absent.join(', ')} would be exposed too if created later` : ''}`,
      suggestion: (d: { existing: readonly string[]; absent: readonly string[] }) =>
        `Grant a narrower path, or add ${d.existing.map((n) => `"${n}"`).join(', ')} to \`deny\`.${
          d.absent.length
            ? ' A deny of a path that does not exist is refused on Linux (deny-absent-path): for the others, grant ' + 'a narrower path.'
            : ''
        }`,
    },
    exposesAbsent: {
      severity: 'warning',
      platforms: PLATFORMS,
      text: (d: { path: string; absent: readonly string[] }) =>
        `${d.path} would expose ${d.absent.join(', ')} if any were created: none exists on this machine yet`,
      suggestion:
        'Grant a narrower path. Denying them is no remedy while they do not exist: Linux refuses a deny ' +
        'of an absent path (deny-absent-path), and Windows has nothing to label.',
    },
  },
  grant(g, _ga, pa, ctx) {
    if (g.access === 'deny') return;
    const p = pa.principal;
    const hit = protectedHit(g.path, protectedOf(ctx.ir));
    const what = hit.inside[0];
    if (what) {
      ctx.report('inside', { span: g.span }, { path: shown(g), ...(g.path === what.path ? {} : { inside: what.path }), why: what.why });
      return;
    }
    if (!hit.exposes.length) return;
    const denies = deniesOf(p);
    const exposed = hit.exposes.filter((x) => !denies.some((d) => isUnder(x.path, d)));
    if (!exposed.length) return;
    // the step-by-step walk every rule uses, so that `--fs host` and an equivalent manifest agree
    // (a raw lookup lets the kernel follow `~/.docker` -> elsewhere on the host, never in a manifest)
    // Only what exists is named for a deny: a deny of an absent path is itself refused on Linux.
    const existing = exposed.filter((x) => inspectPath(ctx.view, x.path).existence !== 'absent');
    const absent = exposed.filter((x) => !existing.includes(x)).map((x) => x.written);
    if (!existing.length) {
      ctx.report('exposesAbsent', { span: g.span }, { path: shown(g), absent });
      return;
    }
    const named = existing.map((x) => x.written);
    ctx.report(
      'exposes',
      { span: g.span, fix: fixOf(addToList(p.written, p.grants, 'deny', named)) },
      { path: shown(g), existing: named, absent },
    );
  },
});

/** The protected paths of this config's home, once a lint. */
function protectedOf(ir: PolicyIR): readonly ProtectedPath[] {
  let out = protectedLists.get(ir);
  if (!out) protectedLists.set(ir, (out = protectedPaths(ir.home, '~/.tyba')));
  return out;
}
const protectedLists = new WeakMap<PolicyIR, readonly ProtectedPath[]>();

/** A principal's denied paths, once a principal (only asked where a grant exposes a protected path). */
function deniesOf(p: Principal): readonly string[] {
  let out = denies.get(p);
  if (!out) denies.set(p, (out = p.grants.filter((g) => g.access === 'deny' && g.path).map((g) => g.path!)));
  return out;
}
const denies = new WeakMap<Principal, readonly string[]>();
