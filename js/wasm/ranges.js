// ranges.js - a set of disjoint byte ranges ({ start, end, ... } records)
// ordered by start: the boundary's live alloc() arrays and the ranges free()
// released. Each operation costs O(log n) comparisons and moves at most a
// block of records: the records are kept in sorted blocks of at most
// 2 * BLOCK, so that neither a lookup nor a change walks or shifts all n
// (an app may hold tens of thousands of alloc() arrays).

const BLOCK = 64;

/** The index in sorted `list` of the last item whose key(item) <= value, or -1. */
function lastAtMost(list, value, key) {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid]) <= value) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi;
}

const startOf = (r) => r.start;
const firstStart = (block) => block[0].start;

export class RangeSet {
  constructor() {
    this.blocks = []; // sorted, none empty; each sorted by start
    this.size = 0;
  }

  /** The block a range starting at `start` belongs in (its index), or -1 before the first. */
  blockAt(start) {
    return lastAtMost(this.blocks, start, firstStart);
  }

  /** The range that holds bytes [start, end), or undefined. */
  holding(start, end) {
    const b = this.blockAt(start);
    if (b < 0) return undefined;
    const block = this.blocks[b];
    const r = block[lastAtMost(block, start, startOf)];
    return end <= r.end ? r : undefined;
  }

  /** Whether any range overlaps bytes [start, end). */
  overlaps(start, end) {
    return this.lastOverlapping(start, end) !== null;
  }

  /** The last range (by start) that overlaps [start, end): { b, i }, or null. */
  lastOverlapping(start, end) {
    // Ranges are disjoint: only the last one that starts before `end` can reach into [start, end).
    const b = this.blockAt(end - 1);
    if (b < 0) return null;
    const block = this.blocks[b];
    const i = lastAtMost(block, end - 1, startOf);
    return block[i].end > start ? { b, i } : null;
  }

  add(r) {
    const blocks = this.blocks;
    this.size++;
    if (blocks.length === 0) {
      blocks.push([r]);
      return;
    }
    const b = Math.max(this.blockAt(r.start), 0);
    const block = blocks[b];
    block.splice(lastAtMost(block, r.start, startOf) + 1, 0, r);
    if (block.length > 2 * BLOCK) blocks.splice(b + 1, 0, block.splice(BLOCK));
  }

  /** Removes record r (one of the set's). */
  delete(r) {
    const b = this.blockAt(r.start);
    const block = this.blocks[b];
    this.removeAt(b, block.indexOf(r, Math.max(lastAtMost(block, r.start, startOf), 0)));
  }

  /** Removes every range that overlaps [start, end). */
  deleteOverlapping(start, end) {
    for (let at = this.lastOverlapping(start, end); at !== null; at = this.lastOverlapping(start, end)) this.removeAt(at.b, at.i);
  }

  removeAt(b, i) {
    const block = this.blocks[b];
    block.splice(i, 1);
    this.size--;
    if (block.length === 0) this.blocks.splice(b, 1);
  }
}
