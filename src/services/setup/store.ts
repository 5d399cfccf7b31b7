// The first-run set-up token: only its SHA-256 is kept, in server_secrets under its own purpose
// (one row per serve process that printed one while the store had no account).
import type { Queryable } from '../../db/db.js';

export const SETUP_TOKEN_PURPOSE = 'hub_setup';

export async function insertSetupTokenHash(db: Queryable, hash: Buffer): Promise<void> {
  await db.query(
    `insert into server_secrets (purpose, version, secret)
     select $1, coalesce(max(version), 0) + 1, $2 from server_secrets where purpose = $1`,
    [SETUP_TOKEN_PURPOSE, hash],
  );
}

export async function setupTokenHashes(db: Queryable): Promise<Buffer[]> {
  const rows = await db.query<{ secret: Uint8Array }>(`select secret from server_secrets where purpose = $1`, [SETUP_TOKEN_PURPOSE]);
  return rows.map((r) => Buffer.from(r.secret));
}

/** Set-up is over: no printed token is good any more. */
export async function deleteSetupTokens(db: Queryable): Promise<void> {
  await db.query(`delete from server_secrets where purpose = $1`, [SETUP_TOKEN_PURPOSE]);
}
