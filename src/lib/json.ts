// Two facts about JSON text that JSON.parse hides. Duplicate keys in a JSON object: JSON.parse
// keeps the last of them silently, so {"email": "a", "email": "b"} would be read as something the
// sender may not have meant: the API refuses such a body (400 invalid_json) and the CLI such a
// file, both through this one check. And nesting depth, which the CLI bounds before parsing a file.

/** Where a duplicate key (or a too deep container) is: the path from the root (object keys and array indices) to it. */
export type JsonPath = (string | number)[];

interface Frame {
  /** Keys seen so far; null for an array. */
  keys: Set<string> | null;
  /** The key or index of the value being read in this container. */
  at: string | number;
  expectKey: boolean;
}

/**
 * The path of the first key that appears twice in one object, at any depth, or null. `text` must
 * already be valid JSON (JSON.parse accepted it): this only follows strings and nesting. Keys are
 * compared decoded ("a" and "\u0061" are the same key). Linear in the text's length.
 */
export function duplicateKeyPath(text: string): JsonPath | null {
  return scan(text, Infinity)?.path ?? null;
}

/**
 * The path of the first array or object nested deeper than `maxDepth` (the root is depth 1), or
 * null. Meant to run before JSON.parse, on any text: JSON.parse takes seconds over a few MB of
 * brackets, and JSON.stringify overflows the stack on far less. Linear in the text's length.
 */
export function tooDeepPath(text: string, maxDepth: number): JsonPath | null {
  return scan(text, maxDepth, false)?.path ?? null;
}

/** Follows strings and nesting once: the first container past maxDepth, or (when asked) the first key seen twice in one object. */
function scan(text: string, maxDepth: number, duplicates = true): { path: JsonPath } | null {
  const stack: Frame[] = [];
  const pathHere = () => stack.map((f) => f.at);
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      let escaped = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) {
          escaped = true;
          j++;
        } else if (d === 0x22) break;
      }
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const raw = text.slice(i, j + 1);
        const key = escaped ? decoded(raw) : raw.slice(1, -1);
        if (duplicates && top.keys.has(key)) return { path: [...pathHere().slice(0, -1), key] };
        if (duplicates) top.keys.add(key);
        top.at = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return { path: pathHere() };
      stack.push(c === 0x7b ? { keys: new Set(), at: '', expectKey: true } : { keys: null, at: 0, expectKey: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      // Inside a container: in valid JSON, every comma outside strings is.
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return null;
}

/** A key as JSON.parse reads it; the depth scan may see text that is not JSON, whose keys stay as written. */
function decoded(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}
