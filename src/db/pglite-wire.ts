// Reads PGlite's answer to Bind + Execute + Sync straight from its wire bytes.
//
// PGlite's own reader (execProtocolStream) builds an object per message and copies every field
// of every row into a fresh buffer before decoding it: on a list of 25 workflows that was a
// quarter of the embedded store's CPU (bench profile: pg-protocol's `bytes` and `parse`). Here the
// rows' fields are decoded in place from the one response buffer.
//
// Read here: the rows, the notifications (for the adapter to deliver to this process's
// listeners, as PGlite's reader would) and whether the response holds an error. An
// ErrorResponse is then parsed by PGlite's reader into the very DatabaseError its path throws.

const decoder = new TextDecoder();

// Backend message types (the first byte of each message).
const DATA_ROW = 0x44; // 'D'
const NOTIFICATION = 0x41; // 'A'
const ERROR = 0x45; // 'E'

export interface Notification {
  channel: string;
  payload: string;
}

export interface ExecuteResponse {
  /** Each row's fields as text, null for SQL NULL, in column order. */
  rows: Array<Array<string | null>>;
  notifications: Notification[];
  /** The response holds an ErrorResponse: PGlite's reader must parse it (see pglite-statements.ts). */
  failed: boolean;
}

/** A NUL-terminated string at `at`; returns it and the offset after its terminator. */
function cstring(bytes: Uint8Array, at: number, end: number): [string, number] {
  const nul = bytes.indexOf(0, at);
  if (nul < 0 || nul >= end) throw new Error('PGlite response: unterminated string');
  return [decoder.decode(bytes.subarray(at, nul)), nul + 1];
}

export function readExecuteResponse(bytes: Uint8Array): ExecuteResponse {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows: ExecuteResponse['rows'] = [];
  const notifications: Notification[] = [];
  let failed = false;
  let at = 0;
  while (at < bytes.length) {
    if (at + 5 > bytes.length) throw new Error('PGlite response: truncated message header');
    const type = bytes[at];
    const length = view.getInt32(at + 1); // counts itself, not the type byte
    const end = at + 1 + length;
    if (length < 4 || end > bytes.length) throw new Error('PGlite response: truncated message');
    switch (type) {
      case DATA_ROW: {
        const count = view.getInt16(at + 5);
        const fields = new Array<string | null>(count);
        let p = at + 7;
        for (let i = 0; i < count; i++) {
          if (p + 4 > end) throw new Error('PGlite response: truncated data row');
          const n = view.getInt32(p);
          p += 4;
          if (n < 0) fields[i] = null;
          else {
            if (p + n > end) throw new Error('PGlite response: truncated data row');
            fields[i] = decoder.decode(bytes.subarray(p, p + n));
            p += n;
          }
        }
        rows.push(fields);
        break;
      }
      case NOTIFICATION: {
        // Int32 process id of the sender, then the channel and the payload.
        const [channel, next] = cstring(bytes, at + 9, end);
        const [payload] = cstring(bytes, next, end);
        notifications.push({ channel, payload });
        break;
      }
      case ERROR:
        failed = true;
        break;
      default:
        // CommandComplete, ReadyForQuery, BindComplete, ParameterStatus (after a SET)…:
        // nothing the caller reads, as on PGlite's path. Notices too: PGlite logs them only in
        // debug mode.
        break;
    }
    at = end;
  }
  return { rows, notifications, failed };
}
