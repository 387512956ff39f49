// results-json.js - the text of the committed result files (results.json,
// results-messages.json, results-engines.json). They hold what the reports
// read (per case: medians, spreads, round counts; the run's metadata), not
// what the reports derive from it (targets, flags, ratios): `npm run bench --
// --report` makes the reports again from the files alone.
//
// Layout: one entry per line down to `lineDepth` (a case, a row), each value
// at that depth on one line, and any shorter than LINE on one line wherever
// it is. A figure is written as JSON.stringify writes it, the shortest text
// that reads back as the same double: rounding would move figures that the
// reports print (a clock's steps put medians on the .5 of a last digit).

/** Containers whose one-line text is at most this long stay on one line. */
const LINE = 100;

/** `value` as the text of a result file: JSON, laid out as above, and a final newline. */
export function resultsJson(value, lineDepth) {
  return `${layout(value, lineDepth, '')}\n`;
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
