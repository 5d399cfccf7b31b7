// readExecuteResponse on wire bytes built by hand: every field form of a DataRow, the messages it
// reads (notifications, errors) and the ones it passes over, and a response cut short.
import { describe, expect, it } from 'vitest';
import { readExecuteResponse } from '../../src/db/pglite-wire.js';

const enc = new TextEncoder();

function message(type: string, body: number[]): number[] {
  const len = body.length + 4;
  return [type.charCodeAt(0), (len >>> 24) & 255, (len >>> 16) & 255, (len >>> 8) & 255, len & 255, ...body];
}
const int16 = (n: number) => [(n >>> 8) & 255, n & 255];
const int32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const cstr = (s: string) => [...enc.encode(s), 0];
function dataRow(fields: Array<string | null>): number[] {
  const body = [...int16(fields.length)];
  for (const f of fields) {
    if (f === null) body.push(...int32(-1));
    else {
      const b = enc.encode(f);
      body.push(...int32(b.length), ...b);
    }
  }
  return message('D', body);
}

describe('readExecuteResponse', () => {
  it('reads rows (null, empty, multi-byte), notifications and passes over the rest', () => {
    const bytes = new Uint8Array([
      ...message('2', []), // BindComplete
      ...dataRow(['1', null, '', 'é✓😀']),
      ...dataRow(['2', 'b', 'c', 'd']),
      ...message('A', [...int32(42), ...cstr('switchboard_runs'), ...cstr('wake')]),
      ...message('S', [...cstr('TimeZone'), ...cstr('UTC')]), // ParameterStatus
      ...message('C', cstr('SELECT 2')),
      ...message('Z', ['I'.charCodeAt(0)]),
    ]);
    expect(readExecuteResponse(bytes)).toEqual({
      rows: [
        ['1', null, '', 'é✓😀'],
        ['2', 'b', 'c', 'd'],
      ],
      notifications: [{ channel: 'switchboard_runs', payload: 'wake' }],
      failed: false,
    });
  });

  it('says when the response holds an error, and reads a view into a larger buffer from its own offset', () => {
    const inner = [...message('E', [...cstr('SERROR'), ...cstr('C23505'), 0]), ...message('Z', ['E'.charCodeAt(0)])];
    const outer = new Uint8Array([9, 9, 9, ...inner, 9]);
    const view = outer.subarray(3, 3 + inner.length);
    expect(readExecuteResponse(view)).toEqual({ rows: [], notifications: [], failed: true });
  });

  it('refuses a response cut short rather than reading past it', () => {
    const row = dataRow(['abc']);
    expect(() => readExecuteResponse(new Uint8Array(row.slice(0, row.length - 1)))).toThrow(/truncated/);
    expect(() => readExecuteResponse(new Uint8Array(row.slice(0, 3)))).toThrow(/truncated/);
    // A field longer than its message says.
    const lying = dataRow(['abc']);
    lying[10] = 200; // the field's length, low byte
    expect(() => readExecuteResponse(new Uint8Array(lying))).toThrow(/truncated data row/);
    const unterminated = message('A', [...int32(1), ...enc.encode('chan')]);
    expect(() => readExecuteResponse(new Uint8Array(unterminated))).toThrow(/unterminated/);
  });
});
