// Where the first-run set-up token lives while set-up is open: a file in the data directory that
// only the server's user can read. The token is never logged: log lines go to collectors that
// many people read long after set-up is over, and whoever holds the token may claim a fresh hub
// from anywhere. The log names this file instead; a terminal gets the token printed as well.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export const SETUP_TOKEN_FILE = 'setup-token';

export function setupTokenPath(dataDir: string): string {
  return path.join(dataDir, SETUP_TOKEN_FILE);
}

/**
 * Writes the token to `<dataDir>/setup-token` (mode 0600, the directory made 0700 when missing)
 * and returns the path. Written whole to a private temporary file and renamed over the old one,
 * so a reader (or a second API process on PostgreSQL writing its own token) never sees half a
 * token, and an existing file with looser permissions is replaced rather than reused.
 */
export function writeSetupTokenFile(dataDir: string, token: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const target = setupTokenPath(dataDir);
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    fs.writeFileSync(temporary, token + '\n', { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, target);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    throw err;
  }
  return target;
}

/** Removes the token file once set-up is over (its token is void then); a missing file is fine. */
export function removeSetupTokenFile(dataDir: string): void {
  fs.rmSync(setupTokenPath(dataDir), { force: true });
}
