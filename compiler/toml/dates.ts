/**
 * The four TOML date-time kinds, decoded and checked against the calendar
 * (February 30, leap years, hours and offsets in range): values.ts's
 * `decodeAtom` hands a bare value here when it looks like a date or a time.
 * Problems go through `report` (report.ts), and a best-effort value is
 * returned so that parsing can go on.
 */
import type { Span } from '../span.js';
import type { TomlDateTime, TomlValue } from './ast.js';
import type { Report } from './report.js';

const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))?)?$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?$/;

// ---------------------------------------------------------------- dates and times

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysIn(y: number, m: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function checkDate(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12) return `month ${m} does not exist (months are 01-12)`;
  if (d < 1) return `day ${d} does not exist (days start at 01)`;
  if (d > daysIn(y, m)) {
    if (m === 2 && d === 29) return `February 29 does not exist in ${y} (not a leap year)`;
    return `${MONTHS[m - 1]} ${d} does not exist`;
  }
  return undefined;
}

function checkTime(h: number, mi: number, s: number): string | undefined {
  if (h > 23) return `hour ${h} is out of range (00-23)`;
  if (mi > 59) return `minute ${mi} is out of range (00-59)`;
  if (s > 60) return `second ${s} is out of range (00-60)`;
  return undefined;
}

function normaliseDateTime(img: string): string {
  // `T` and `Z` upper case; a space between date and time becomes `T`
  if (img.length > 10) {
    const sep = img.charCodeAt(10);
    if (sep === 0x74 || sep === 0x20) img = img.slice(0, 10) + 'T' + img.slice(11);
    if (img.charCodeAt(img.length - 1) === 0x7a) img = img.slice(0, -1) + 'Z';
  }
  return img;
}

export function decodeDateTime(img: string, span: Span, report: Report): TomlValue {
  const m = DATE_TIME.exec(img);
  if (m === null) {
    report(0, img.length, dateTimeMessage(img));
    return { kind: 'date-local', text: img, span };
  }
  const problem =
    checkDate(+m[1]!, +m[2]!, +m[3]!) ??
    (m[4] !== undefined ? checkTime(+m[4], +m[5]!, +m[6]!) : undefined) ??
    (m[7] !== undefined ? checkOffset(+m[7], +m[8]!) : undefined);
  if (problem !== undefined) report(0, img.length, problem);
  let kind: TomlDateTime['kind'];
  if (m[4] === undefined) kind = 'date-local';
  else {
    const last = img.charCodeAt(img.length - 1);
    kind = m[7] !== undefined || last === 0x5a || last === 0x7a ? 'datetime' : 'datetime-local';
  }
  return { kind, text: normaliseDateTime(img), span };
}

function checkOffset(h: number, mi: number): string | undefined {
  if (h > 23) return `time zone offset hour ${h} is out of range (00-23)`;
  if (mi > 59) return `time zone offset minute ${mi} is out of range (00-59)`;
  return undefined;
}

export function decodeTime(img: string, span: Span, report: Report): TomlValue {
  const m = TIME.exec(img);
  if (m === null) {
    report(0, img.length, dateTimeMessage(img));
  } else {
    const problem = checkTime(+m[1]!, +m[2]!, +m[3]!);
    if (problem !== undefined) report(0, img.length, problem);
  }
  return { kind: 'time-local', text: img, span };
}

export function dateTimeMessage(img: string): string {
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(?:[Zz]|[+-][0-9]{2}:[0-9]{2})?$/.test(img) || /^[0-9]{2}:[0-9]{2}$/.test(img)) {
    return `invalid time in "${img}": seconds are required in TOML 1.0`;
  }
  if (/\.(?![0-9])/.test(img)) return `invalid date-time "${img}": fractional seconds need digits after "."`;
  if (/^[0-9]{5,}-/.test(img)) return `invalid date "${img}": years have exactly 4 digits (0000-9999)`;
  return `invalid date-time "${img}" (expected e.g. 1979-05-27, 07:32:00, 1979-05-27T07:32:00 or 1979-05-27T07:32:00Z)`;
}
