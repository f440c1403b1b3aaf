import { PLATFORMS, type Diagnostic } from '../compiler/diagnostic.js';
import type { TomlError } from '../compiler/toml/ast.js';
import { defineRule } from './engine/engine.js';

/** Reported by the front end (compiler/toml), not by a check. */
export const tomlSyntax = defineRule({
  meta: {
    id: 'toml-syntax',
    seedRow: '(front end) the file must be TOML 1.0.0',
    docs: {
      summary: 'The file is not valid TOML 1.0.0.',
      details:
        'boxwright parses the config with its own TOML 1.0.0 parser, so that every value keeps its exact ' +
        'position. A syntax error, invalid UTF-8, a redefined table or a duplicate key is reported at the ' +
        'token that holds the mistake (an unclosed table header on its own line, not on the next key). No ' +
        'platform can load such a file, so every verdict is refused.',
      bad: { toml: '[agent.filesystem\nread = ["~/project"]', expect: ['1:18 error macos,linux,windows'] },
      good: { toml: '[agent.filesystem]\nread = ["~/project"]', expect: [] },
    },
  },
  messages: {
    syntax: { severity: 'error', platforms: PLATFORMS, text: (d: { message: string }) => d.message },
  },
});

/** The front end's syntax errors as this rule's diagnostics: one for each, at its token (every TOML dialect's check). */
export function syntaxDiagnostics(errors: readonly TomlError[], file: string): Diagnostic[] {
  return errors.map((e) => ({
    ruleId: tomlSyntax.meta.id,
    severity: tomlSyntax.messages.syntax.severity,
    platforms: tomlSyntax.messages.syntax.platforms,
    message: tomlSyntax.messages.syntax.text({ message: e.message }),
    file,
    span: e.span,
    ...(e.related ? { related: e.related } : {}),
  }));
}
