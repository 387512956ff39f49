// results-json.js - the text of the committed result files (results.json,
// results-messages.json, results-engines.json). They hold what the reports
// read (per case: medians, spreads, round counts; the run's metadata), not
// what the reports derive from it (targets, flags, ratios): `npm run bench --
// --report` makes the reports again from the files alone.
//
// Layout: one entry per line down to `lineDepth` (a case, a row), each value
// at that depth on one line, and any shorter than LINE on one line wherever
// it is. A figure that is not an integer is kept to FIGURES significant
// digits; a run makes its reports from the values as stored (writeResults),
// so that --report gives the same text from the file.

import { writeFileSync } from 'node:fs';

/** Containers whose one-line text is at most this long stay on one line. */
const LINE = 100;

/**
 * Significant digits of a stored figure. The reports print at most four of a
 * time and ratios to two decimals, so six move no printed figure by more than
 * a unit in its last digit (a figure on the .5 of that digit), far inside any
 * spread; the full digits of a double would make the files a third larger.
 */
const FIGURES = 6;

/** `value` with every finite non-integer number rounded to FIGURES significant digits. */
export function storedFigures(value) {
  if (typeof value === 'number') return Number.isInteger(value) || !Number.isFinite(value) ? value : Number(value.toPrecision(FIGURES));
  if (Array.isArray(value)) return value.map(storedFigures);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, storedFigures(v)]));
}

/** `value` (figures as stored) as the text of a result file: JSON, laid out as above, and a final newline. */
export function resultsJson(value, lineDepth) {
  return `${layout(storedFigures(value), lineDepth, '')}\n`;
}

/** Writes `value` to `file` as resultsJson() lays it out; returns it as stored, which the run's reports are made from. */
export function writeResults(file, value, lineDepth) {
  writeFileSync(file, resultsJson(value, lineDepth));
  return storedFigures(value);
}

function layout(value, depth, indent) {
  const line = JSON.stringify(value) ?? 'null';
  if (depth <= 0 || value === null || typeof value !== 'object' || line.length <= LINE) return line;
  const inner = `${indent} `;
  const entries = Array.isArray(value)
    ? value.map((v) => layout(v, depth - 1, inner))
    : Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${JSON.stringify(k)}: ${layout(v, depth - 1, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${entries.map((e) => inner + e).join(',\n')}\n${indent}${close}`;
}
