// Duplicate keys in a JSON object. JSON.parse keeps the last of them silently, so {"email": "a",
// "email": "b"} would be read as something the sender may not have meant: the API refuses such a
// body (400 invalid_json) and the fixture loader such a file, both through this one check.

/** Where a duplicate key is: the path from the root (object keys and array indices) to it, ending with the key. */
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
  const stack: Frame[] = [];
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
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) return [...stack.slice(0, -1).map((f) => f.at), key];
        top.keys.add(key);
        top.at = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      stack.push({ keys: new Set(), at: '', expectKey: true });
    } else if (c === 0x5b /* [ */) {
      stack.push({ keys: null, at: 0, expectKey: false });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      // Inside a container: `text` is valid JSON, whose commas outside strings all are.
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return null;
}
