import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where uploaded files live. Local disk by default; an S3-compatible store can implement the same
 * interface. Keys are relative paths made by the server (never from user input).
 */
export interface Storage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

/** Ends the name of a file still being written (a backup skips it). */
export const PARTIAL_SUFFIX = '.partial';

export class LocalDiskStorage implements Storage {
  constructor(readonly root: string) {}

  // Written aside and renamed into place, so a file is either whole or absent: a backup copying
  // the folder (ops/backup.ts) or a crash mid-write never leaves half an image under its key.
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const aside = `${file}.${randomUUID()}${PARTIAL_SUFFIX}`;
    try {
      await fs.writeFile(aside, bytes);
      await fs.rename(aside, file);
    } catch (e) {
      await fs.rm(aside, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return await fs.readFile(this.resolve(key));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }

  // Guards against a key that climbs out of the storage root.
  private resolve(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Storage key escapes root: ${key}`);
    return file;
  }
}
