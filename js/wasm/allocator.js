// allocator.js - the free space of an instance's wasm memory, which its heap
// (heap.js, the only importer) hands out, in two stages. A heap that holds
// nothing but scratch (and the kernels' result) takes its blocks from the top,
// as a stack (Stack): all that a page that only packs, or only converts
// strings, bundles. Its first other region or alloc() array makes the
// Allocator, which takes the stack's blocks over: blocks of 16-byte aligned
// sizes, found in O(1) bins by size class, split when larger, and merged with
// their free neighbours (found by the addresses where they start and end: O(1)
// too) when released, so that memory is reused whatever the
// order of allocations and releases. In both, when no free block fits, memory
// grows (the heap's `grow`), and the new space joins the free space at the top.

// Sizes reach 4 GiB: no 32-bit bitwise arithmetic on them ((n + 15) & ~15 wraps from 2 GiB on).
export const align16 = (n) => n + (-n & 15);

/** The size class of a block of `size` bytes: floor(log2(size)) (sizes below 2^32). */
const classOf = (size) => 31 - Math.clz32(size);
/** How many blocks of the class below a request's are looked at before memory grows. */
const NEAR_MISSES = 8;

/**
 * Blocks taken from the top of the space, as a stack: freeing the top one
 * (scratch, freed to grow) lowers the top; freeing another leaves a hole that
 * only the Allocator that takes over reuses (Allocator.over()).
 */
export class Stack {
  constructor(start, end, grow) {
    this.top = start; // the start of the free space
    this.end = end; // the end of memory
    this.grow = grow; // as Allocator's
    this.used = new Map(); // start -> end of every block handed out
    this.holes = []; // blocks freed below the top: { start, end }
  }

  /** As Allocator's malloc(). */
  malloc(bytes) {
    const start = this.top;
    const end = start + align16(Math.max(bytes, 16));
    if (end > this.end) {
      const grown = this.grow(end - this.end);
      if (grown < 0) return 0;
      this.end = grown;
    }
    this.used.set(start, end);
    this.top = end;
    return start;
  }

  /** As Allocator's free(). */
  free(start) {
    const end = this.used.get(start);
    if (end === undefined) throw new Error(`fastmp: internal: no block at ${start}`);
    this.used.delete(start);
    if (end === this.top) this.top = start;
    else this.holes.push({ start, end });
  }

  /** As Allocator's sizeOf(). */
  sizeOf(start) {
    return this.used.get(start) - start;
  }
}

/**
 * A Map from addresses whose entries are emptied, not deleted: V8 keeps a
 * deleted entry in its hash chain until it rehashes, so that a key deleted
 * and set again (an address freed and reused: every alloc()/free() pair of one
 * size) lengthens its chain each time, and a lookup walks a number of entries
 * that grows with the map. An emptied entry is set again in place; the map is
 * rebuilt once emptied entries outnumber the others (amortized O(1)).
 */
class Table {
  #map = new Map();
  #empty = 0;

  get(key) {
    return this.#map.get(key);
  }

  set(key, value) {
    this.#map.set(key, value);
  }

  /** (Emptied entries are counted, not told apart from those set again since: the map is rebuilt at most once per size / 2 deletions.) */
  delete(key) {
    this.#map.set(key, undefined);
    if (++this.#empty > 1024 && this.#empty > this.#map.size >> 1) this.#compact();
  }

  #compact() {
    const live = new Map();
    for (const [key, value] of this.#map) if (value !== undefined) live.set(key, value);
    this.#map = live;
    this.#empty = 0;
  }
}

export class Allocator {
  #starting = new Table(); // start -> the free block { start, end } there
  #ending = new Table(); // end -> the free block that ends there
  // Free blocks by size class, each bin an array (a block knows its slot): taking
  // the first block of a Set that blocks leave from the front and join at the
  // back walks every entry left before it (V8 keeps them until it rehashes),
  // which made malloc() linear in the free blocks of a class.
  #bins = Array.from({ length: 33 }, () => []);
  #used = new Table(); // start -> end of every block handed out
  #end; // the end of memory
  #grow; // (bytes) => the new end of memory, after growing it by at least `bytes`; -1 when it cannot

  constructor(start, end, grow) {
    this.#end = end;
    this.#grow = grow;
    if (end > start) this.#add({ start, end });
  }

  /** The Allocator of a Stack's space: its blocks in use still, its holes and what lies above its top free. */
  static over(stack) {
    const allocator = new Allocator(stack.top, stack.end, stack.grow);
    for (const [start, end] of stack.used) allocator.#used.set(start, end);
    for (const hole of stack.holes) {
      allocator.#used.set(hole.start, hole.end);
      allocator.free(hole.start); // (merged with its free neighbours)
    }
    return allocator;
  }

  /** The start of a free block of at least `bytes` bytes, now in use; 0 when memory cannot hold it. */
  malloc(bytes) {
    const size = align16(Math.max(bytes, 16));
    const block = this.#fit(size) ?? this.#extend(size);
    if (block === null) return 0;
    this.#remove(block);
    if (block.end - block.start > size) this.#add({ start: block.start + size, end: block.end });
    this.#used.set(block.start, block.start + size);
    return block.start;
  }

  /** Releases the block at `start` (one malloc() returned); its free neighbours merge with it. */
  free(start) {
    const end = this.#used.get(start);
    if (end === undefined) throw new Error(`fastmp: internal: no block at ${start}`);
    this.#used.delete(start);
    const block = { start, end };
    const before = this.#ending.get(start);
    if (before !== undefined) {
      this.#remove(before);
      block.start = before.start;
    }
    const after = this.#starting.get(end);
    if (after !== undefined) {
      this.#remove(after);
      block.end = after.end;
    }
    this.#add(block);
  }

  /** The size of the block at `start` (one in use). */
  sizeOf(start) {
    return this.#used.get(start) - start;
  }

  /** A free block of at least `size` bytes: any of a class whose every block is large enough, else a near miss that fits. */
  #fit(size) {
    const exact = classOf(size);
    const bins = this.#bins;
    for (let k = (size === 2 ** exact ? exact : exact + 1); k < bins.length; k++) {
      const bin = bins[k];
      if (bin.length > 0) return bin[bin.length - 1];
    }
    const near = bins[exact];
    for (let i = near.length - 1, last = Math.max(near.length - NEAR_MISSES, 0); i >= last; i--) {
      if (near[i].end - near[i].start >= size) return near[i];
    }
    return null;
  }

  /** Grows memory so that the free block at its top (or a new one) holds `size` bytes; null when it cannot. */
  #extend(size) {
    const top = this.#ending.get(this.#end);
    const more = size - (top === undefined ? 0 : top.end - top.start);
    // (The top block may hold it though #fit() passed it over, a near miss too far down its bin:
    // no growth then; a growth by 0 bytes detaches every view of memory all the same.)
    if (more <= 0) return top;
    const end = this.#grow(more);
    if (end < 0) return null;
    const block = { start: this.#end, end };
    this.#end = end;
    if (top !== undefined) {
      this.#remove(top);
      block.start = top.start;
    }
    this.#add(block);
    return block;
  }

  #add(block) {
    this.#starting.set(block.start, block);
    this.#ending.set(block.end, block);
    const bin = this.#bins[classOf(block.end - block.start)];
    block.slot = bin.length;
    bin.push(block);
  }

  #remove(block) {
    this.#starting.delete(block.start);
    this.#ending.delete(block.end);
    const bin = this.#bins[classOf(block.end - block.start)];
    const last = bin.pop();
    if (last !== block) {
      bin[block.slot] = last;
      last.slot = block.slot;
    }
  }
}
