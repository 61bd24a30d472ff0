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

export class LocalDiskStorage implements Storage {
  constructor(readonly root: string) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
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
