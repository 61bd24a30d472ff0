import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer.ts';
import { openDatabase } from './database.ts';

const dirs: string[] = [];
function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-checkpoint-'));
  dirs.push(dir);
  return path.join(dir, 'db.sqlite');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('SQLite checkpoints off the event loop', () => {
  it('issue 16: the checkpoint thread copies committed WAL pages into the database file while the writer never checkpoints itself', async () => {
    const file = tempFile();
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0'); // the writer never checkpoints: only the thread can
    writer.exec('create table notes (body text)');
    const checkpointer = startCheckpointer(file, 20);
    const before = fs.statSync(file).size;
    const insert = writer.prepare('insert into notes (body) values (?)');
    for (let i = 0; i < 400; i++) insert.run('x'.repeat(1_000));
    // About 400 KB committed to the WAL; the database file grows only when a checkpoint copies it.
    const grew = await until(() => fs.statSync(file).size >= before + 300_000, 5_000);
    expect(grew).toBe(true);
    await checkpointer.close();
    expect(writer.prepare('select count(*) as n from notes').get()).toEqual({ n: 400 });
    writer.close();
  });

  it('issue 16: the thread copies later commits too, and finishes a copy a reader held back once the reader is gone, with no new commit', async () => {
    const file = tempFile();
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table notes (body text)');
    const insert = writer.prepare('insert into notes (body) values (?)');
    const checkpointer = startCheckpointer(file, 20);
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(1_000));
    const first = fs.statSync(file).size;
    expect(await until(() => fs.statSync(file).size >= first + 150_000, 5_000)).toBe(true);
    // A reader keeps its snapshot open: the commits after it cannot be copied while it reads.
    const reader = new SQLite(file);
    reader.exec('begin');
    reader.prepare('select count(*) from notes').get();
    const held = fs.statSync(file).size;
    for (let i = 0; i < 200; i++) insert.run('y'.repeat(1_000));
    await new Promise((r) => setTimeout(r, 200));
    expect(fs.statSync(file).size).toBeLessThan(held + 150_000);
    reader.exec('commit');
    reader.close();
    // No commit since: the thread still copies what the reader held back.
    expect(await until(() => fs.statSync(file).size >= held + 150_000, 5_000)).toBe(true);
    await checkpointer.close();
    writer.close();
  });

  it('issue 16: a file database hands checkpoints to the thread and keeps its own only as a fallback; close stops the thread', async () => {
    const handle = openDatabase(`sqlite:${tempFile()}`);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db);
    expect(rows[0]?.wal_autocheckpoint).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    await handle.close();
    const memory = openDatabase('sqlite::memory:');
    const { rows: memoryRows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(memory.db);
    expect(memoryRows[0]?.wal_autocheckpoint).toBe(1000); // SQLite's default: no thread for a memory database
    await memory.close();
  });
});
