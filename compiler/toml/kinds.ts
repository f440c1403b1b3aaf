import type { TomlValue } from './ast.js';

/** A value's kind for people: "expected a string, found an integer". */
export const kindNames: Readonly<Record<TomlValue['kind'], string>> = {
  string: 'a string',
  integer: 'an integer',
  float: 'a float',
  boolean: 'a boolean',
  datetime: 'a date-time',
  'datetime-local': 'a local date-time',
  'date-local': 'a local date',
  'time-local': 'a local time',
  array: 'an array',
  table: 'a table',
};
