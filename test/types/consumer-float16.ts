// Float16Array where the consumer's lib declares it (lib esnext): see consumer-float16.cts.
import { pack, unpack, type TypedArrayOf } from 'fastmp-wasm';

export const halves: TypedArrayOf<Float16ArrayConstructor> = unpack(pack(new Float16Array([1])), Float16Array);
