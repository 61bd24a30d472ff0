import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_WAL_FRAMES_PER_S, FALLBACK_AUTOCHECKPOINT_PAGES, isLightWriter, startCheckpointer } from './checkpointer.ts';
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

/** A WAL database file and its writer, which never checkpoints itself: only the thread can. */
function walWriter(): { file: string; writer: SQLite.Database } {
  const file = tempFile();
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('create table notes (body text)');
  return { file, writer };
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('SQLite checkpoints off the event loop', () => {
  it('the checkpoint thread copies committed WAL pages into the database file while the writer never checkpoints itself', async () => {
    const { file, writer } = walWriter();
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

  it('the thread copies later commits too, and finishes a copy a reader held back once the reader is gone, with no new commit', async () => {
    const { file, writer } = walWriter();
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

  it('a writer adding fewer than BUSY_WAL_FRAMES_PER_S WAL frames a second is light', () => {
    const light = (frames: number, ms: number) => isLightWriter(frames, ms, BUSY_WAL_FRAMES_PER_S);
    // A lone commit after a quiet spell (seen within a tick of 100 ms): light.
    expect(light(5, 100)).toBe(true);
    // A burst after a quiet spell is busy from its first copy, however long the quiet was.
    expect(light(2_000, 100)).toBe(false);
    // Chat posts at 100/s leave about 1,000 frames a second: light.
    expect(light(1_000, 1_000)).toBe(true);
    // At or above the busy rate (400 frames in 100 ms is 4,000/s), busy.
    expect(light(BUSY_WAL_FRAMES_PER_S, 1_000)).toBe(false);
    expect(light(BUSY_WAL_FRAMES_PER_S / 10, 100)).toBe(false);
    expect(light(BUSY_WAL_FRAMES_PER_S / 10 - 1, 100)).toBe(true);
  });

  it('a light writer\'s small commits are still copied into the database file, with no further commit', async () => {
    const { file, writer } = walWriter();
    const checkpointer = startCheckpointer(file, 20, 200);
    const insert = writer.prepare('insert into notes (body) values (?)');
    // The database file grows only when a checkpoint copies pages into it: count how often it grows.
    const before = fs.statSync(file).size;
    let last = before;
    let growths = 0;
    const watch = setInterval(() => {
      const size = fs.statSync(file).size;
      if (size > last) growths++;
      last = size;
    }, 5);
    // A commit of one new page every 30 ms, far below the busy rate (the thread looks every 20 ms).
    for (let i = 0; i < 10; i++) {
      insert.run('x'.repeat(3_000));
      await new Promise((r) => setTimeout(r, 30));
    }
    // All ten rows (about 30 KB) reach the database file with no further commit...
    const copied = await until(() => fs.statSync(file).size >= before + 30_000, 5_000);
    clearInterval(watch);
    expect(copied).toBe(true);
    // ...in a few copies 200 ms apart, not one per look (which would be about ten).
    expect(growths).toBeGreaterThan(0);
    expect(growths).toBeLessThanOrEqual(5);
    await checkpointer.close();
    writer.close();
  });

  it('a file database hands checkpoints to the thread and keeps its own only as a fallback; close stops the thread', async () => {
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
