// A value that settles: the editors' previews ask the server once the typing pauses.
import { useEffect, useState } from 'react';

/** A value that follows its input only after the input has been still for `ms`: the editor's preview asks the server once the typing pauses, not on every key. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
