import type { FsView, Lookup } from './view.js';
import { validateManifest } from '../schema/validators.js';

export interface Manifest {
  readonly home: string;
  readonly entries: Readonly<Record<string, 'file' | 'dir' | 'socket' | { readonly symlink: string }>>;
  /** The kernel's Landlock ABI (0: none); absent: unknown. */
  readonly landlockAbi?: number;
}

export class ManifestError extends Error {}

/**
 * A machine described as data (`--fs FILE.json`): listed paths have their
 * kind, their parents are directories, everything else is absent. This is
 * what lets CI lint a config for a machine it is not running on.
 */
export function manifestView(text: string, source: string): FsView {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ManifestError(`${source}: not valid JSON: ${(e as Error).message}`);
  }
  if (!validateManifest(data)) {
    const first = validateManifest.errors?.[0];
    throw new ManifestError(`${source}: not a filesystem manifest: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim());
  }
  const manifest = data as Manifest;
  const kinds = new Map<string, Lookup>([['/', { kind: 'dir' }]]);
  const sockets: string[] = [];
  for (const [path, kind] of Object.entries(manifest.entries)) {
    const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
    if (kind === 'socket') sockets.push(clean);
    kinds.set(clean, kind === 'socket' ? { kind: 'other' } : typeof kind === 'string' ? { kind } : { kind: 'symlink', target: kind.symlink });
    for (let p = parentOf(clean); p !== '/' && !kinds.has(p); p = parentOf(p)) kinds.set(p, { kind: 'dir' });
  }
  return {
    description: `manifest ${source}`,
    knowsFacts: true,
    home: manifest.home,
    lookup: (path) => kinds.get(path) ?? { kind: 'absent' },
    // A manifest lists kinds, not modes.
    executable: () => 'unknown',
    sockets: () => [...sockets].sort(),
    landlockAbi: () => manifest.landlockAbi ?? 'unknown',
  };
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}
