import type { Span } from '../span.js';

/**
 * The JSON document tree (RFC 8259). Every member key and every value keeps
 * the exact span it was written at, so a diagnostic can point at the
 * offending token. Objects keep the value JSON.parse keeps for a key
 * written twice (the last), and the parse result lists each duplicate.
 */
export type JsonValue = JsonObject | JsonArray | JsonString | JsonNumber | JsonBoolean | JsonNull;

export interface JsonObject {
  readonly kind: 'object';
  /** Members in the order JSON.parse gives its keys (a key's first definition), each with its last value; keys are unique. */
  readonly members: ReadonlyMap<string, JsonMember>;
  /** The braces and what is between them. */
  readonly span: Span;
}

export interface JsonMember {
  readonly key: string;
  /** The key's string token, quotes included. */
  readonly keySpan: Span;
  readonly value: JsonValue;
}

export interface JsonArray {
  readonly kind: 'array';
  readonly items: readonly JsonValue[];
  readonly span: Span;
}

export interface JsonString {
  readonly kind: 'string';
  readonly value: string;
  readonly span: Span;
}

export interface JsonNumber {
  readonly kind: 'number';
  /** As JSON.parse reads it (a double). */
  readonly value: number;
  /** The number as written. */
  readonly text: string;
  readonly span: Span;
}

export interface JsonBoolean {
  readonly kind: 'boolean';
  readonly value: boolean;
  readonly span: Span;
}

export interface JsonNull {
  readonly kind: 'null';
  readonly span: Span;
}

export interface JsonError {
  readonly message: string;
  readonly span: Span;
}

/** A key written more than once in one object: JSON.parse keeps the last, silently. */
export interface JsonDuplicate {
  readonly key: string;
  /** The earlier definition, which is ignored. */
  readonly ignored: Span;
  /** The definition that takes effect. */
  readonly kept: Span;
  /**
   * What removing the ignored definition takes (offsets): from its key to
   * the next member's key, so the comma and the layout between them go too.
   * An ignored definition always has a next member: the kept one.
   */
  readonly removal: { readonly start: number; readonly end: number };
  /** The two values: whether the ignored one says anything the kept one does not. */
  readonly ignoredValue: JsonValue;
  readonly keptValue: JsonValue;
}

export interface JsonParseResult {
  /** Present when there is no syntax error. */
  readonly document?: JsonValue;
  readonly errors: readonly JsonError[];
  readonly duplicates: readonly JsonDuplicate[];
  /** The decoded text, for code frames. */
  readonly text: string;
}
