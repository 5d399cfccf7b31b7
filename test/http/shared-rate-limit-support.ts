// What both shared-rate-limit files count with: an account limited to LIMIT requests a minute, a
// run of LIMIT + 3 requests in a fresh window, and the one shared count they must show.
import { expect } from 'vitest';
import { awaitFreshWindow } from '../helpers/process.js';

export const LIMIT = 10;
export function fixture(ref: string) {
  return {
    accounts: [
      {
        ref,
        name: 'Shared limits',
        limits: { requests_per_minute: LIMIT },
        users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner', password: 'long enough password', name: 'O' }],
        keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read'] }],
      },
    ],
  };
}

export type Get = (i: number) => Promise<{ status: number; remaining: string | null; code?: string }>;

export async function hammer(get: Get): Promise<{ statuses: number[]; remaining: (string | null)[] }> {
  await awaitFreshWindow();
  const statuses: number[] = [];
  const remaining: (string | null)[] = [];
  for (let i = 0; i < LIMIT + 3; i++) {
    const r = await get(i);
    statuses.push(r.status);
    remaining.push(r.remaining);
    if (r.status === 429) expect(r.code).toBe('rate_limited');
  }
  return { statuses, remaining };
}

export function expectOneCount(res: { statuses: number[]; remaining: (string | null)[] }) {
  expect(res.statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
  expect(res.statuses.slice(LIMIT)).toEqual([429, 429, 429]);
  // Remaining counts down across both processes: one shared window.
  expect(res.remaining.slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, (_, i) => String(LIMIT - 1 - i)));
}
