import type { Argv } from 'yargs';
import { didYouMean } from '../../compiler/schema/did-you-mean.js';
import { UsageError } from './options.js';

/**
 * How main.ts reads a command line beyond what yargs checks: the options a
 * command does not know (with a suggestion), one value given twice, a
 * command to run typed without `--`, the positionals by name.
 */

/** `--name` / `-n` tokens before `--`, as typed (without `=value`). */
export function optionTokens(options: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of options) {
    if (/^--[^-]/.test(a)) out.push(a.split('=')[0]!);
    else if (/^-[^-\d]/.test(a)) for (const c of a.slice(1).split('=')[0]!) out.push(`-${c}`);
  }
  return out;
}

/**
 * Options the command does not know, named as the user typed them, with
 * the closest known one: yargs' own strictness names `--bogus-flag` twice
 * (`bogus-flag, bogusFlag`) and never suggests.
 */
export function unknownOption(parser: Argv, options: readonly string[]): string | undefined {
  // yargs' types leave out getOptions(), which it documents for this.
  const known = (
    parser as unknown as { getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]>; boolean: string[] } }
  ).getOptions();
  const names = new Set<string>(Object.keys(known.key));
  for (const [k, aliases] of Object.entries(known.alias)) for (const a of [k, ...aliases]) names.add(a);
  const booleans = new Set<string>(known.boolean);
  for (const token of optionTokens(options)) {
    const bare = token.replace(/^--?/, '');
    const name = token.startsWith('--') && bare.startsWith('no-') && booleans.has(bare.slice(3)) ? bare.slice(3) : bare;
    if (names.has(name)) continue;
    const long = [...names].filter((n) => n.length > 1 && !/[A-Z]/.test(n));
    const guess = didYouMean(bare, long);
    return `unknown option ${token}${guess ? `; did you mean --${guess}?` : ''}`;
  }
  return undefined;
}

/**
 * yargs' messages in one line: its refusal of a value outside `choices`
 * takes three (`Invalid values:\n  Argument: landlock, Given: "maybe",
 * Choices: "on", "off"`).
 */
export function oneLine(message: string): string {
  const choice = /^Invalid values:\s*Argument: ([^,]+), Given: (.*), Choices: (.*)$/s.exec(message.trim());
  if (choice) return `--${choice[1]} takes ${choice[3]!.trim()}, not ${choice[2]!.trim()}`;
  return message.trim().replace(/\s*\n\s*/g, '; ');
}

/** Options that may be given more than once besides yargs' arrays (`--pass-env`, `--pass-fd`): each reads a list. */
const REPEATABLE = new Set(['agent-dir', 'platform']);

/**
 * A single-valued option given more than once (`--home /a --home /b`):
 * yargs makes it a list, which the command would take for one value.
 */
export function repeatedOption(parser: Argv, args: Record<string, unknown>): string | undefined {
  const known = (parser as unknown as { getOptions(): { key: Record<string, unknown>; array: string[]; boolean: string[] } }).getOptions();
  for (const key of Object.keys(known.key)) {
    const v = args[key];
    if (!Array.isArray(v) || known.array.includes(key) || known.boolean.includes(key) || REPEATABLE.has(key)) continue;
    return `--${key} takes one value, given ${v.length}: ${v.map((x) => JSON.stringify(String(x))).join(', ')}`;
  }
  return undefined;
}

/**
 * `run CONFIG ls -l` (no `--`): the config, and the command that should have
 * come after `--`, read as yargs would (an option that takes a value takes
 * the next word), so that `-l` is not called an unknown option of run's.
 */
export function commandWithoutDashes(parser: Argv, options: readonly string[]): { config: string; command: string[] } | undefined {
  const known = (parser as unknown as { getOptions(): { boolean: string[] } }).getOptions();
  const booleans = new Set<string>([...known.boolean, 'help', 'h', 'v']);
  const words: number[] = [];
  for (let i = 0; i < options.length; i++) {
    const a = options[i]!;
    if (a.startsWith('-') && a.length > 1) {
      if (!a.includes('=') && !booleans.has(a.replace(/^--?/, '').replace(/^no-/, ''))) i++;
      continue;
    }
    words.push(i);
    if (words.length === 2) return { config: options[words[0]!]!, command: options.slice(i) };
  }
  return undefined;
}

/** The index of the first word that is no option nor an option's value (`learn git status`: `git`). */
export function firstWord(parser: Argv, options: readonly string[]): number | undefined {
  const known = (parser as unknown as { getOptions(): { boolean: string[] } }).getOptions();
  const booleans = new Set<string>([...known.boolean, 'help', 'h']);
  for (let i = 0; i < options.length; i++) {
    const a = options[i]!;
    if (a.startsWith('-') && a.length > 1) {
      if (!a.includes('=') && !booleans.has(a.replace(/^--?/, '').replace(/^no-/, ''))) i++;
      continue;
    }
    return i;
  }
  return undefined;
}

/** `lint [files..]` and `rules [id]`: positionals by name, as yargs commands would give them (`run`'s command comes after `--`, not here). */
export function positionals(command: string, usage: string, values: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = [...usage.split(' -- ')[0]!.matchAll(/[[<](\w+)(\.\.)?[\]>]/g)];
  let i = 0;
  for (const [, key, rest] of names) {
    if (rest) {
      out[key!] = values.slice(i);
      i = values.length;
    } else if (i < values.length) out[key!] = values[i++];
  }
  if (i < values.length) {
    const extra = values.slice(i).join(' ');
    if (command === 'run')
      throw new UsageError(
        `unexpected argument${values.length - i > 1 ? 's' : ''} ${extra}: put the command to run after --: boxwright run ${values[0] ?? 'CONFIG'} -- ${extra}`,
      );
    if (command === 'learn')
      throw new UsageError(
        `unexpected argument${values.length - i > 1 ? 's' : ''} ${extra}: put the command to learn from after --: boxwright learn -- ${extra}`,
      );
    throw new UsageError(`unexpected argument${values.length - i > 1 ? 's' : ''}: ${extra}`);
  }
  return out;
}
