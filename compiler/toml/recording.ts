/**
 * Grammar recording without deletes.
 *
 * A chevrotain parser records its grammar once, in performSelfAnalysis,
 * through ~90 recording versions of its DSL methods (CONSUME1, OR2, MANY,
 * ...): chevrotain's enableRecording sets them on the parser object itself
 * and its disableRecording deletes them again. By then chevrotain has made
 * the parser an optimised prototype (toFastProperties), and V8 re-optimises
 * such an object after every property deleted from it: ~17 us a delete,
 * 1.5 ms of every process's first parse.
 *
 * `recordOnLayer` overrides both for one parser class: chevrotain's own
 * enableRecording puts the methods on a layer object between the parser and
 * its class, and disableRecording takes the layer out of the prototype
 * chain again before chevrotain's own runs (which then has nothing to
 * delete). While recording, the same methods are found the same way; after
 * it, the parser is what chevrotain leaves: test/toml/definitions.test.ts
 * compares it with a parser that records in place.
 */

/** chevrotain's recording switches (parser internals, mixed into EmbeddedActionsParser.prototype). */
interface Recording {
  enableRecording(this: object): void;
  disableRecording(this: object): void;
}

/** Makes instances of `cls` (a subclass of `base`) record their grammar on a layer. */
export function recordOnLayer(cls: { readonly prototype: object }, base: { readonly prototype: object }): void {
  const chevrotain = base.prototype as Recording;
  Object.defineProperties(cls.prototype, {
    enableRecording: {
      configurable: true,
      writable: true,
      value(this: { RECORDING_PHASE: boolean }): void {
        const layer: object = Object.create(Object.getPrototypeOf(this) as object);
        chevrotain.enableRecording.call(layer);
        Object.setPrototypeOf(this, layer);
        this.RECORDING_PHASE = true;
      },
    },
    disableRecording: {
      configurable: true,
      writable: true,
      value(this: object): void {
        Object.setPrototypeOf(this, Object.getPrototypeOf(Object.getPrototypeOf(this)) as object);
        chevrotain.disableRecording.call(this);
      },
    },
  });
}
