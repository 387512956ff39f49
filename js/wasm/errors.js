// errors.js - a typed-array kernel's failure (its fm_result, read by
// core.js readResult()) as the FastmpError that unpack() and a shaped
// field report: the same wording whichever path decoded the array.

import { msgpackError } from '../errors.js';
import { BOOL } from '../kinds.js';
import { reportedValue } from '../wire.js';

/**
 * The FastmpError of a failed kernel decode of the array whose elements
 * begin at `start`, from its fm_result `r` (offsets from `start`); offsets
 * shifted to the whole input, which `quoted` holds.
 */
export function kernelError(kind, start, r, quoted) {
  const target = kind === BOOL ? 'boolean' : kind.name;
  const value = r.code === 'RANGE' || r.code === 'TYPE' ? reportedValue(r.tag, r.value) : undefined;
  return msgpackError(r.code, r.index, start + r.offset, quoted, r.count, { target, value });
}
