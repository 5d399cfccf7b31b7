// A service's refusal: a rule the caller can act on (unknown automation, nothing to publish, a
// move the status table forbids). The message is complete and names the record; the CLI prints
// it with exit code 1, the hub shows it with a code chosen by `kind`. Errors of the HTTP API stay
// ApiErrors.

/**
 * What kind of refusal: the record is not there (`not_found`), its state forbids the move
 * (`conflict`), or it is not complete enough for it (`incomplete`: publishing without a trigger).
 */
export type RefusalKind = 'not_found' | 'conflict' | 'incomplete';

export class Refusal extends Error {
  override name = 'Refusal';

  constructor(
    message: string,
    readonly kind: RefusalKind = 'conflict',
    /** The body path at fault, when there is one (a step's config field that blocks publishing). */
    readonly param?: string,
  ) {
    super(message);
  }
}
