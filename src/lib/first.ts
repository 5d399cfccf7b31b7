// The first item of a list the caller knows is not empty (a validator handed one input returns
// one result; a secret list is created on first read; a statement returns a row by construction).
// An empty list there is a bug: it is thrown here, named, rather than surfacing later as "cannot
// read properties of undefined". The error handler answers it as any unexpected error.

/** `items[0]`; throws an internal error naming `what` when the list is empty. */
export function firstOf<T>(items: readonly T[], what: string): T {
  const item = items[0];
  if (item === undefined) throw new Error(`internal: expected ${what}, found none`);
  return item;
}
