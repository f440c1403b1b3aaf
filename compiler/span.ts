/**
 * Source positions. Lines and columns are 1-based, for people; `offset` is the
 * 0-based index into the decoded text (UTF-16 code units). Columns also count
 * UTF-16 code units, which is SARIF's default `columnKind` and what editors
 * and GitHub annotations expect. `end` is exclusive: it points just past the
 * last character of the span.
 */
export interface Position {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export interface Span {
  readonly start: Position;
  readonly end: Position;
}
