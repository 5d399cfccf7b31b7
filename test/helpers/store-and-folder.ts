// A test file's store and scratch folder: a fresh database (or an empty one) and a temporary
// folder, made before the file's tests and removed after them. For files that start processes,
// which need both a store and somewhere to put data dirs, fixtures and logs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freshDb, type TestDb } from './db.js';

export interface StoreAndFolder {
  /** The file's database (valid inside tests and hooks). */
  readonly t: TestDb;
  /** The file's scratch folder. */
  readonly tmp: string;
}

export function storeAndFolder(prefix: string, open: () => Promise<TestDb> = freshDb): StoreAndFolder {
  let t: TestDb | null = null;
  let tmp: string | null = null;
  beforeAll(async () => {
    t = await open();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    await t?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });
  return {
    get t() {
      if (!t) throw new Error('the store is made in beforeAll');
      return t;
    },
    get tmp() {
      if (!tmp) throw new Error('the folder is made in beforeAll');
      return tmp;
    },
  };
}
