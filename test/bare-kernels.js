// bare-kernels.js - fastmp's wasm modules instantiated bare, without the JS
// heap (js/wasm/heap.js): for the tests and benches that call the kernels
// themselves. The modules of one build share one memory, as an instance's
// do (c/fastmp.h: each module's data in its slot, the heap from HEAP_BASE);
// here a bump allocator hands it out (free() releases nothing).

import { readFileSync } from 'node:fs';
import { HEAP_BASE, MEMORY_PAGES } from '../js/abi.js';

const PAGE = 65536;

/**
 * The kernels of `build` ('simd' or 'scalar') of each module in `modules`
 * ('pack', 'unpack', 'strings'), instantiated on one new memory: their
 * exports in one object, with `memory`, `malloc(bytes)` (16-byte aligned
 * addresses, memory grown as needed) and a `free()` that does nothing.
 */
export function bareKernels(build, modules = ['pack', 'unpack']) {
  const memory = new WebAssembly.Memory({ initial: MEMORY_PAGES, maximum: 65536 });
  const kernels = {};
  for (const module of modules) {
    const bytes = readFileSync(new URL(`../dist/fastmp-${module}-${build}.wasm`, import.meta.url));
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
    exports._initialize?.();
    Object.assign(kernels, exports);
  }
  let top = HEAP_BASE;
  const malloc = (bytes) => {
    const at = top;
    top += bytes + (-bytes & 15) + 16;
    if (top > memory.buffer.byteLength) memory.grow(Math.ceil((top - memory.buffer.byteLength) / PAGE));
    return at;
  };
  return { ...kernels, memory, malloc, free: () => {} };
}
