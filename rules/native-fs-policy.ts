import type { Rule } from './engine.js';

export const nativeFsPolicy: Rule = {
  meta: {
    id: 'native-fs-policy',
    seedRow: 'Native filesystem policy',
    severity: { linux: 'error', macos: 'warning' },
    dialects: ['box'],
    docs: {
      summary: 'native-filesystem-policy needs macOS and a build with the feature.',
      details:
        'This experimental feature requires macOS and a build with native-filesystem-policy. Linux cannot enable it and refuses during configuration validation. A macOS build without the feature also refuses, so macOS gets a warning.',
      bad: '[experimental-features]\nnative-filesystem-policy = true',
      good: '[experimental-features]\nnative-filesystem-policy = false',
    },
  },
  check(ctx) {
    const nfp = ctx.ir.features.nativeFilesystemPolicy;
    if (!nfp?.value) return;
    const suggestion = 'Use mediated file operations through Strands Shell or Monty. A declared tool uses its own filesystem grants.';
    ctx.report({ severity: 'error', platforms: ['linux'], message: 'Linux cannot enable native-filesystem-policy: the feature requires macOS and a build with native-filesystem-policy', span: nfp.span, suggestion });
    ctx.report({ severity: 'warning', platforms: ['macos'], message: 'native-filesystem-policy requires a macOS build with the feature: a build without it refuses the configuration', span: nfp.span, suggestion });
  },
};
