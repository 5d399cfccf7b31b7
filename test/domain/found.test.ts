// found(): the one "read, or 404" every route and service uses in place of
// `if (!row) throw notFound(...)`; the error must be the catalogue's not-found, word for word.
import { describe, expect, it } from 'vitest';
import { ApiError, found } from '../../src/domain/errors.js';

describe('found', () => {
  it('returns the row a read found, falsy values included', () => {
    const row = { id: 'c_1' };
    expect(found(row, 'contact')).toBe(row);
    expect(found(0, 'number')).toBe(0);
    expect(found('', 'text')).toBe('');
  });

  it('throws the catalogue 404 naming what is missing, for null and undefined', () => {
    for (const missing of [null, undefined]) {
      let err: unknown;
      try {
        found(missing, 'API key');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'resource_not_found', status: 404, message: 'No such API key in this account.' });
    }
  });
});
