// A service's refusal: a rule the caller can act on (unknown automation, nothing to publish, a
// move the status table forbids). The message is complete and names the record; the CLI prints
// it with exit code 1, the hub shows it. Errors of the HTTP API stay ApiErrors.
export class Refusal extends Error {
  override name = 'Refusal';
}
