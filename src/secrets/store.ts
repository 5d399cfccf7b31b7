// Server-wide secrets kept in the database (generated at first start, rotatable).
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/db.js';
import { oneRow } from '../db/rows.js';

export interface SecretVersion {
  version: number;
  secret: Buffer;
}

/** Newest first. Creates the first secret for `purpose` when there is none. */
export async function loadSecrets(db: Db, purpose: string): Promise<SecretVersion[]> {
  const read = (q: Queryable) =>
    q.query<{ version: number; secret: Uint8Array }>(
      'select version, secret from server_secrets where purpose = $1 order by version desc limit 2',
      [purpose],
    );
  let rows = await read(db);
  if (!rows.length) {
    await db.query(
      `insert into server_secrets (purpose, version, secret) values ($1, 1, $2) on conflict do nothing`,
      [purpose, randomBytes(32)],
    );
    rows = await read(db);
  }
  return rows.map((r) => ({ version: r.version, secret: Buffer.from(r.secret) }));
}

/** Adds a new current secret; the previous one stays valid (cursors already handed out keep working). */
export async function rotateSecret(db: Db, purpose: string): Promise<number> {
  const rows = await db.query<{ version: number }>(
    `insert into server_secrets (purpose, version, secret)
     select $1, coalesce(max(version), 0) + 1, $2 from server_secrets where purpose = $1
     returning version`,
    [purpose, randomBytes(32)],
  );
  return oneRow(rows, 'the new secret').version;
}
