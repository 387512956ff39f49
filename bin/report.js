// report.js - the bench's output: aligned plain-text tables, each with a key
// line per column under it, and prose wrapped to 100 columns.
import { formatNs } from './timing.js';

const WIDTH = 100;

/** A ratio for people: 0.78, 2.43, 31.3, 127. */
export function formatRatio(r) {
  if (!Number.isFinite(r)) return '–';
  return r.toFixed(r >= 100 ? 0 : r >= 10 ? 1 : 2);
}

/**
 * A time with its spread: "3.70 µs ±4%", ± being half the range of the
 * round figures as % of their median; past 100 % only "±>100%" (a round
 * that something else slowed down: the JSON has every round).
 */
function timeCell(s) {
  const spread = (100 * (s.max - s.min)) / 2 / s.median;
  return `${formatNs(s.median)} ±${spread > 100 ? '>100' : spread < 10 ? spread.toFixed(1) : spread.toFixed(0)}%`;
}

/**
 * A table as lines. table: { title, first: { label, key }, columns: [{ id,
 * label, key }], ratio: { label, key } | null, sections: [{ label, rows: [{
 * label, cells: { [column id]: { stats, ratio } | undefined } }] }] }. Each
 * column is a time (median ±spread) followed by its ratio column.
 */
export function renderTable(table) {
  const header = [table.first.label];
  for (const c of table.columns) header.push(c.label, ...(table.ratio ? [table.ratio.label] : []));
  const body = [];
  for (const section of table.sections) {
    body.push({ section: section.label });
    for (const row of section.rows) {
      const cells = [`  ${row.label}`];
      for (const c of table.columns) {
        const cell = row.cells[c.id];
        cells.push(cell ? timeCell(cell.stats) : '–');
        if (table.ratio) cells.push(cell && cell.ratio !== undefined ? formatRatio(cell.ratio) : '');
      }
      body.push({ cells });
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...body.filter((r) => r.cells).map((r) => r.cells[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const lines = [...wrap(table.title, WIDTH), line(header)];
  for (const r of body) lines.push(r.section ?? line(r.cells));
  // The key: one line for every column, its label first.
  const keyed = [table.first, ...table.columns, ...(table.ratio ? [table.ratio] : [])];
  const keyWidth = Math.max(...keyed.map((c) => c.label.length));
  lines.push('key:', ...keyed.map((c) => `  ${c.label.padEnd(keyWidth)}  ${c.key}`));
  return lines;
}

/** Words wrapped to `width` columns. */
export function wrap(text, width = WIDTH) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A ratio in prose: two significant digits (0.96, 2.4, 31, 130). */
export const proseRatio = (r) => (r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2));

/** "2.4× faster than", "1.9× slower than" or "about as fast as", for a ratio (the other's time ÷ this time). */
export function comparison(r) {
  if (!Number.isFinite(r)) return 'not compared with';
  if (r >= 1.05) return `${proseRatio(r)}× faster than`;
  if (r <= 1 / 1.05) return `${proseRatio(1 / r)}× slower than`;
  return 'about as fast as';
}
