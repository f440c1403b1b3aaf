import { defineRule } from './engine/engine.js';
import { replaceText } from './engine/fix.js';

const alternative = 'Use mediated file operations through Strands Shell or Monty. A declared tool uses its own filesystem grants.';

export const nativeFsPolicy = defineRule({
  meta: {
    id: 'native-fs-policy',
    seedRow: "Box's platform table, row: Native filesystem policy",
    dialects: ['box'],
    docs: {
      summary: 'native-filesystem-policy needs macOS and a build with the feature.',
      details:
        'This experimental feature requires macOS and a build with native-filesystem-policy. Linux cannot ' +
        'enable it and refuses during configuration validation. A macOS build without the feature also refuses, ' +
        'so macOS gets a warning.',
      bad: { toml: '[experimental-features]\nnative-filesystem-policy = true', expect: ['2:28 error linux', '2:28 warning macos'] },
      good: { toml: '[experimental-features]\nnative-filesystem-policy = false', expect: [] },
    },
  },
  messages: {
    linux: {
      severity: 'error',
      platforms: ['linux'],
      text: () => 'Linux cannot enable native-filesystem-policy: the feature requires macOS and a build with native-filesystem-policy',
      suggestion: alternative,
    },
    macos: {
      severity: 'warning',
      platforms: ['macos'],
      text: () => 'native-filesystem-policy requires a macOS build with the feature: a build without it refuses the configuration',
      suggestion: alternative,
    },
  },
  check(ctx) {
    const nfp = ctx.ir.features.nativeFilesystemPolicy;
    if (!nfp?.value) return;
    const fix = replaceText(nfp.span, 'false');
    ctx.report('linux', { span: nfp.span, fix });
    ctx.report('macos', { span: nfp.span, fix });
  },
});
