// Working directories that belong to one process while it runs: a backup's staging copy inside the
// data dir, a restore's half-extracted store beside its target. Their names carry the owner (pid
// and start time, as the data-dir lock does), so a directory left by a process that died (killed
// mid-backup, a crash) is told from one a live process is still using, and only the former is
// removed: two backups may run at once, and one must not delete the other's copy.
import fs from 'node:fs';
import path from 'node:path';
import { ownerAlive, type LockOwner } from './data-dir-lock.js';

/** `<prefix><pid>-<start>-<random>`: the owner first, so a leftover can be judged by its name alone. */
export function ownedDirName(prefix: string, owner: LockOwner, unique: string): string {
  return `${prefix}${owner.pid}-${owner.start ?? 'x'}-${unique}`;
}

/** The owner a name made by ownedDirName says, or null when the name is not one of them. */
export function dirOwner(prefix: string, name: string): LockOwner | null {
  if (!name.startsWith(prefix)) return null;
  const m = /^(\d+)-(\d+|x)-[0-9a-z]+$/.exec(name.slice(prefix.length));
  if (!m) return null;
  return { pid: Number(m[1]), start: m[2] === 'x' ? null : m[2]! };
}

/**
 * Removes the directories in `parent` named with `prefix` whose owner is gone. One whose name
 * says this very process counts as gone too (ownerAlive: a pid reused in a container); callers
 * run this before they make their own.
 */
export function removeDeadOwners(parent: string, prefix: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return []; // no parent yet: nothing left there
  }
  const removed: string[] = [];
  for (const name of names) {
    const owner = dirOwner(prefix, name);
    if (!owner || ownerAlive(owner)) continue;
    fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
