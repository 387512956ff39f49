// bind.js - the codec's classes bound to a port, as the public Encoder and
// Decoder of an instance (or of the default instance) are.

/**
 * `Base` with its port bound: `new Bound(options)` makes a Base over `port`
 * (a function `port` is asked at each construction). Not a subclass: every
 * Encoder (and every Decoder) of every port and instance shares one class,
 * so the codec's hot paths see one object shape where a subclass per port
 * made them megamorphic (bench/messages.js "mixed" measures the cost: several
 * classes in one process). `instanceof Bound` holds for them all. A class
 * that extends Bound gets instances with its own prototype (its methods).
 * @param {Function} Base BaseEncoder or BaseDecoder
 * @param {object | (() => object)} port
 * @param {unknown} [extra] a third argument to Base's constructor (the Encoder's outputs, the Decoder's stream decoders)
 */
export function bindPort(Base, port, extra) {
  const portOf = typeof port === 'function' ? port : () => port;
  function Bound(options) {
    if (!new.target) throw new TypeError(`fastmp: ${Base.name} must be called with new`);
    // A subclass's (`class X extends Encoder`): made with X's prototype, whose methods it then has.
    if (new.target !== Bound) return Reflect.construct(Base, [options, portOf(), extra], new.target);
    return new Base(options, portOf(), extra);
  }
  Object.defineProperty(Bound, 'name', { value: Base.name });
  Bound.prototype = Base.prototype;
  return Bound;
}
