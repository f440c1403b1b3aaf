import assert from 'node:assert/strict';
import type { CompileOutcome } from '../../app/cli/compile.js';
import { expandTilde, secretLocations } from '../../compiler/paths/index.js';
import { effectiveAccess, type PrincipalAccess } from '../../model/index.js';
import { platformModels } from '../../targets/units.js';
import { BANNER, FILE_SECTIONS } from '../../targets/macos/profile.js';
import { pathFilters, readSbpl, ruleParts, type Node, type Parsed } from './sbpl-reader.js';

export type Form = Node & { type: 'list' };
export type Section = 'header' | 'baseline' | 'resolution' | 'network' | (typeof FILE_SECTIONS)[number];

/** A parsed profile with each top-level form assigned to the section whose banner precedes it. */
export interface Profile extends Parsed {
  readonly text: string;
  readonly sections: ReadonlyMap<Section, readonly Form[]>;
  /** The forms of sections 1)–6), in order. */
  readonly fileRules: readonly Form[];
}

export function parseProfile(text: string): Profile {
  const parsed = readSbpl(text);
  const banners: { line: number; section: Section }[] = [];
  const byText = new Map<string, Section>([
    [BANNER.baseline, 'baseline'],
    [BANNER.resolution, 'resolution'],
    [BANNER.network, 'network'],
    ...FILE_SECTIONS.map((s) => [BANNER.file(s), s] as [string, Section]),
  ]);
  for (const c of parsed.comments) {
    const s = byText.get(c.text);
    if (s) banners.push({ line: c.line, section: s });
  }
  // Every banner exactly once, in the fixed order.
  assert.deepEqual(
    banners.map((b) => b.section),
    ['baseline', 'resolution', 'network', ...FILE_SECTIONS],
    'section banners missing or out of order',
  );
  const sections = new Map<Section, Form[]>([['header', []], ...banners.map((b) => [b.section, []] as [Section, Form[]])]);
  for (const f of parsed.forms) {
    let current: Section = 'header';
    for (const b of banners) if (b.line < f.line) current = b.section;
    sections.get(current)!.push(f);
  }
  const fileRules = FILE_SECTIONS.flatMap((s) => sections.get(s)!);
  return { ...parsed, text, sections, fileRules };
}

/** The ok outcome's artifacts, or a failed assertion with the reason. */
export function artifactsOf(outcome: CompileOutcome): { name: string; content: string }[] {
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  if (!outcome.ok) return [];
  return outcome.artifacts.map((a) => ({
    name: a.name,
    content: typeof a.content === 'string' ? a.content : Buffer.from(a.content).toString('utf8'),
  }));
}

/** The principal's access of the outcome, from the one effective-access model. */
export function principalsOf(outcome: CompileOutcome): readonly PrincipalAccess[] {
  assert.ok(outcome.check.ir);
  return effectiveAccess(outcome.check.ir!, platformModels).principals;
}

/**
 * The paths the file rules must name, from the access model: every grant
 * that applies on macOS and is not refused there, the ancestors its denies
 * pin, plus, for tyba, the twelve secret locations.
 */
export function expectedFilePaths(outcome: CompileOutcome, pa: PrincipalAccess): Set<string> {
  const out = new Set<string>();
  for (const ga of pa.grants) {
    // A grant named by a profile parameter (TYBA's $TMPDIR) is added below by the parameter's name.
    if (ga.applies.macos && ga.grant.path && !ga.grant.implicit?.parameter && ga.effective.macos.kind !== 'refused') out.add(ga.grant.path);
    // A deny's pinned ancestors: file-write-unlink denied on each.
    for (const a of ga.pinnedAncestors?.macos ?? []) out.add(a);
  }
  // The host-trusted paths the model keeps read-only (with their missing parents, and the ancestors it pins), and the write grants inside them (require-not).
  for (const ta of pa.hostTrusted) {
    if (ta.state.macos !== 'read-only') continue;
    for (const p of [ta.trusted.path, ...(ta.missingParents ?? []), ...(ta.pinnedAncestors?.macos ?? [])]) out.add(p);
  }
  const ir = outcome.check.ir!;
  if (ir.dialect === 'tyba') for (const s of secretLocations) out.add(expandTilde(s, ir.home));
  // TYBA's $TMPDIR grant (and a Box principal's private_tmp) names a profile parameter: (subpath (param "TMPDIR")).
  for (const ga of pa.grants) if (ga.applies.macos && ga.grant.implicit?.parameter) out.add(ga.grant.implicit.parameter);
  return out;
}

/** Does a filter set cover `path`: a literal equal to it, or a subpath at or above it? */
export function covers(form: Form, path: string): boolean {
  return pathFilters(form).some((f) =>
    f.kind === 'literal' ? f.path === path : path === f.path || path.startsWith(f.path === '/' ? '/' : `${f.path}/`),
  );
}

/** Do a filter of `deny` and a filter of `allow` meet (one path at or under the other's subpath)? */
export function overlaps(allow: Form, deny: Form): boolean {
  const a = pathFilters(allow);
  const d = pathFilters(deny);
  if (a.length === 0) return ruleParts(allow).filters.length === 0; // an unfiltered allow matches every path
  const under = (p: string, root: string): boolean => p === root || p.startsWith(root === '/' ? '/' : `${root}/`);
  return a.some((x) => d.some((y) => under(x.path, y.path) || (x.kind === 'subpath' && under(y.path, x.path))));
}

/** SBPL operation families: does an allowed operation name re-open any of the denied ones? */
export function operationsMeet(allowOps: readonly string[], denyOps: readonly string[]): boolean {
  const expand = (op: string): string[] => {
    switch (op) {
      case 'file-read*':
        return ['file-read-data', 'file-read-metadata', 'file-read-xattr'];
      case 'file-write*':
        return [
          'file-write-data',
          'file-write-create',
          'file-write-unlink',
          'file-write-mode',
          'file-write-owner',
          'file-write-times',
          'file-write-xattr',
          'file-write-flags',
          'file-write-setugid',
        ];
      case 'process-exec':
      case 'process-exec*':
        return ['process-exec', 'process-exec-interpreter'];
      default:
        return [op];
    }
  };
  const denied = new Set(denyOps.flatMap(expand));
  return allowOps.flatMap(expand).some((op) => denied.has(op));
}

export const CONTENT_READ_OPS = ['file-read*', 'file-read-data'];

/** For each deny, no later allow whose operations and paths meet it. */
export function assertDeniesLast(profile: Profile, where: string): void {
  const forms = profile.forms;
  forms.forEach((deny, i) => {
    const d = ruleParts(deny);
    if (d.action !== 'deny' || pathFilters(deny).length === 0) return;
    for (const later of forms.slice(i + 1)) {
      const l = ruleParts(later);
      if (l.action !== 'allow') continue;
      assert.ok(
        !(operationsMeet(l.operations, d.operations) && overlaps(later, deny)),
        `${where}: the allow on line ${later.line} re-opens the deny on line ${deny.line}`,
      );
    }
  });
}

/**
 * No allow of content reads (file-read*, file-read-data) covers the path.
 * The baseline is left out: it reads system content (/usr/lib, /usr/bin, …)
 * whatever the grants say, a documented choice that `baselineReadsOnlySystem`
 * checks instead.
 */
export function assertNoContentRead(profile: Profile, path: string, where: string, namesAllowed = false): void {
  const baseline = new Set(profile.sections.get('baseline'));
  // A directory's names: file-read-data on that directory's literal, nothing below (a `list`, or a read_file naming the directory).
  const names = (f: Form): boolean => pathFilters(f).every((x) => x.kind === 'literal' && x.path === path);
  const listing = new Set(namesAllowed ? [...profile.sections.get('3) list')!, ...profile.sections.get('1) reads')!].filter(names) : []);
  for (const f of profile.forms) {
    if (baseline.has(f) || listing.has(f)) continue;
    const r = ruleParts(f);
    if (r.action !== 'allow' || !r.operations.some((op) => CONTENT_READ_OPS.includes(op))) continue;
    assert.ok(r.filters.length > 0, `${where}: an unfiltered content read on line ${f.line}`);
    assert.ok(!covers(f, path), `${where}: the read on line ${f.line} covers the write-only path ${path}`);
  }
}

/**
 * The system locations the baseline may read: never anything under a home,
 * /private/tmp or /Users. Subtrees, and single files or directories
 * (`SYSTEM_READ_FILES`) where the root would be too wide.
 */
export const SYSTEM_READ_ROOTS = [
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/libexec',
  '/usr/lib',
  '/usr/share',
  '/System',
  '/Library/Apple',
  '/Library/Developer/CommandLineTools',
  '/Applications/Xcode.app/Contents/Developer',
  '/private/var/db/dyld',
  '/private/var/db/timezone',
  '/private/etc/ssl',
  '/private/etc/paths.d',
  '/dev',
];
export const SYSTEM_READ_FILES = [
  '/',
  '/private/var/db/xcode_select_link',
  '/private/var/select/developer_dir',
  '/Library/Preferences/com.apple.dt.Xcode.plist',
  ...[
    'localtime',
    'passwd',
    'group',
    'services',
    'protocols',
    'hosts',
    'shells',
    'zshenv',
    'zprofile',
    'zshrc',
    'zlogin',
    'zlogout',
    'profile',
    'bashrc',
    'paths',
  ].map((f) => `/private/etc/${f}`),
];

export function assertBaselineReadsOnlySystem(profile: Profile, where: string): void {
  for (const f of profile.sections.get('baseline')!) {
    const r = ruleParts(f);
    if (!r.operations.some((op) => CONTENT_READ_OPS.includes(op))) continue;
    assert.ok(r.filters.length > 0, `${where}: an unfiltered baseline read on line ${f.line}`);
    // A require-all is judged by its path filter (the others narrow it: an extension, a vnode type).
    const pathFilter = (f: Form): Form => {
      const [k, ...rest] = f.items;
      if (k?.type !== 'symbol' || k.value !== 'require-all') return f;
      const paths = rest.filter(
        (x): x is Form => x.type === 'list' && x.items[0]?.type === 'symbol' && ['literal', 'subpath', 'regex'].includes(x.items[0].value),
      );
      assert.equal(paths.length, 1, `${where}: a require-all on line ${f.line} with one path filter`);
      return paths[0]!;
    };
    for (const filter of r.filters.map(pathFilter)) {
      const [k, v] = filter.items;
      const path = v && (v.type === 'string' || v.type === 'regex') ? v.value.replace(/^\^/, '') : '';
      assert.ok(
        k?.type === 'symbol' && ['literal', 'subpath', 'regex'].includes(k.value),
        `${where}: baseline read filter on line ${f.line}`,
      );
      const ok =
        k.value === 'literal'
          ? SYSTEM_READ_FILES.includes(path) || SYSTEM_READ_ROOTS.some((root) => path === root || path.startsWith(`${root}/`))
          : SYSTEM_READ_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
      assert.ok(ok, `${where}: the baseline reads ${path}`);
    }
  }
}
