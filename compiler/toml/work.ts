/**
 * What the parse loop did, counted: the tests check that it is linear in the
 * document by comparing these at two sizes (unit tests have no timing
 * thresholds). Counting costs an addition per window.
 */
export interface ParseWork {
  /** Calls of the lexer. */
  lexCalls: number;
  /** Characters given to the lexer, summed over all calls (re-lexed text counts again). */
  lexedChars: number;
  /** Characters looked at while choosing where windows end. */
  searchedChars: number;
  /** Characters looked at by error recovery's scan for a closing bracket. */
  scannedChars: number;
}

export const work: ParseWork = { lexCalls: 0, lexedChars: 0, searchedChars: 0, scannedChars: 0 };

export function resetWork(): void {
  work.lexCalls = 0;
  work.lexedChars = 0;
  work.searchedChars = 0;
  work.scannedChars = 0;
}
