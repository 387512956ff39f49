// encoder-outputs.js - what an Encoder returns other than a fresh copy:
// encodeSharedRef()'s reused output and encodeInto()'s copy into the
// caller's array. The public Encoder classes and the encodeInto() functions
// take them (ENCODER_OUTPUTS); the Encoders that encode() keeps do not, so
// that an app that only calls encode() bundles none of this file.
//
// THE ALIASING RULE (the outputs' side of it; js/codec/encoder.js session()
// states the Encoder's). encodeSharedRef()
// returns a view of a buffer of the Encoder's own, which it writes only when
// a call ends, after the value is read: the view stays valid until the
// Encoder's next call ends (or dispose()), so that call may read it (as a
// bin, say). Expired, it is refused wherever it is given (js/lifetimes.js:
// STALE, by its bytes and by the view itself), and a decode reads a live one
// from a copy (an extension may call its Encoder).

import { asOffset, lengthOf, ownView, typedArrayName } from '../args.js';
import { expiredRefError } from '../errors.js';
import { IN_OUTPUT, LOW_BYTES, makeMark, own, refuseTarget } from '../lifetimes.js';
import { show } from './path.js';

/** Bytes below LOW_BYTES of the buffer hold no output (js/lifetimes.js). */
const SHARED_AT = LOW_BYTES;

/** Each encodeSharedRef() output, marked with its SharedOutput's use when written: views of an older use are refused. */
const SHARED_VIEWS = makeMark();

/** The Encoder's reused output for encodeSharedRef(): a JS buffer, grown as needed (its encoder.shared). */
class SharedOutput {
  constructor() {
    this.bytes = null; // the buffer's bytes from SHARED_AT on
    this.size = 0; // the live output's size (0: none is live)
    this.use = 0; // one more at every write and expiry: views of an older one are refused
    this.judge = (start, end, fn, original) => {
      const use = SHARED_VIEWS.markOf(original);
      if ((use !== undefined && use !== this.use) || start < SHARED_AT || end > SHARED_AT + this.size) throw expiredRefError(fn);
      return IN_OUTPUT;
    };
  }

  /** The store's first `size` bytes, as the new live output. */
  write(store, size) {
    this.use++;
    if (this.bytes === null || this.bytes.length < size) {
      const capacity = Math.max(size, 2 * (this.bytes?.length ?? 0), 256);
      this.bytes = new Uint8Array(new ArrayBuffer(SHARED_AT + capacity), SHARED_AT, capacity);
      own(this.bytes.buffer, this.judge);
    }
    this.bytes.set(store.bytes.subarray(0, size));
    this.size = size;
    const view = this.bytes.subarray(0, size);
    SHARED_VIEWS.mark(view, this.use);
    return view;
  }

  /** The live output expires (the Encoder's session() and dispose() call it). */
  expire() {
    this.use++;
    this.size = 0;
  }
}

/** encodeSharedRef's finish: the message copied into the Encoder's own output, which it reuses. */
const takeShared = (encoder) => (encoder.shared ??= new SharedOutput()).write(encoder.store, encoder.pos);

/**
 * encodeInto's finish: the message into target[offset...] (`out`, an own view
 * of it), or a RangeError naming its size. The target as the call left it: a
 * getter may have detached it (DETACHED), or the call's growth of wasm memory
 * (an alloc() array is found again; another view of wasm memory is STALE).
 */
function copyInto(encoder, out, target, offset) {
  const live = encoder.store.live(out, target, 'encodeInto');
  refuseTarget(live, 'encodeInto', target); // (a fastmp output is no target; one that expired is STALE, a freed array FREED)
  const size = encoder.pos;
  const room = lengthOf(live) - offset;
  if (size > room) {
    const err = new RangeError(`fastmp: encodeInto() needs ${size} bytes from offset ${offset}, the target has ${room}`);
    err.needed = size;
    throw err;
  }
  encoder.store.copyInto(live, offset, size);
  return offset + size;
}

/** encoder.encodeSharedRef(value). */
function encodeSharedRef(encoder, value) {
  return encoder.entered ? encodeSharedRef(encoder.clone(), value) : encoder.session(value, 0, takeShared);
}

/** encoder.encodeInto(value, target, offset). */
function encodeInto(encoder, value, target, offset = 0) {
  if (typedArrayName(target) !== 'Uint8Array') throw new TypeError(`fastmp: encodeInto() writes into a Uint8Array, not ${show(target)}`);
  const out = ownView(target, Uint8Array, 'encodeInto'); // its real length (any realm; a subclass cannot lie)
  asOffset(offset, out, 'encodeInto');
  if (encoder.entered) return encodeInto(encoder.clone(), value, target, offset);
  return encoder.session(value, offset, (e) => copyInto(e, out, target, offset));
}

/** What a public Encoder is made with (js/codec/encoder.js `outputs`), and what the encodeInto() functions call. */
export const ENCODER_OUTPUTS = /* @__PURE__ */ Object.freeze({ encodeSharedRef, encodeInto });
