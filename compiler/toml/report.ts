/**
 * How the value decoders (values.ts, dates.ts) report a problem: its offset
 * in the token, its length and its message. A module of its own, so that
 * the decoders share it without importing each other back.
 */
export type Report = (relOffset: number, length: number, message: string) => void;
