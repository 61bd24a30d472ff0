/**
 * `npm run backup` and `npm run restore` against the real program: a server node writing chat in
 * one process, the backup command in another, the restore into a fresh DATA_DIR, and the product
 * started on it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { PartyClient } from '@fanfare/client';
import { CHAT_FETCH_MAX_LIMIT, CHAT_RATE_LIMIT_MESSAGES, ChatMessage } from '@fanfare/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_CMS_TOKEN } from '../test/harness.ts';
import { Load, recordFigures, type Answer } from '../faults/load.ts';
import { ServerNode, until } from '../faults/services.ts';
import { BACKUP_DATABASE, BACKUP_MANIFEST, OperatorError, backupDataDir, restoreDataDir, type BackupManifest } from './backup.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const P = 'backup-party';
// Enough fans that the workers never wait for a fan's rate limit: writes go on at full speed.
const FANS = 300;
const WORKERS = 3;
const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Runs `npm run backup|restore`'s program in its own process (asynchronously: the load goes on). */
function runOps(command: 'backup' | 'restore', target: string, dataDir: string): Promise<{ code: number | null; out: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/ops/main.ts', command, target], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', INIT_CWD: serverDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: Date.now() - started });
    }),
  );
}

/** Every chat message of the party, paged backwards from the newest (bounded). */
async function allMessages(client: PartyClient): Promise<ChatMessage[]> {
  const pages: ChatMessage[][] = [];
  let cursor: { before: number; before_seq_id: number } | undefined;
  for (let page = 0; page < 200; page++) {
    const { items } = await client.call('listChatMessages', { params: { id: P }, query: { limit: CHAT_FETCH_MAX_LIMIT, ...cursor } });
    if (items.length === 0) break;
    pages.unshift(items);
    cursor = { before: items[0]!.timestamp_ms, before_seq_id: items[0]!.seq_id };
  }
  return pages.flat();
}

const acked = (answers: Answer[]) => answers.filter((a) => a.status === 201 || a.status === 200).map((a) => ({ at: a.at, message: ChatMessage.parse(a.body) }));

describe('backup and restore of the embedded SQLite set-up', () => {
  const dirs: string[] = [];
  const nodes: ServerNode[] = [];
  const tmp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('backup: a copy taken during writes restores every acknowledged message and every upload, intact; restore refuses a data directory in use', async () => {
    const dataDir = tmp('fanfare-backup-live-');
    const backups = tmp('fanfare-backup-copies-');
    const restored = path.join(tmp('fanfare-backup-restored-'), 'data');
    const live = await ServerNode.start({ DATA_DIR: dataDir, DATABASE_URL: '', ANON_SIGNUP_RATE_LIMIT: String(FANS * 2) });
    nodes.push(live);

    // A party without login: fans sign up with a name and get a token, through the real API.
    const cms = new PartyClient({ baseUrl: live.partyUrl, cmsToken: TEST_CMS_TOKEN });
    await cms.call('putParty', { params: { id: P }, body: { name: 'Backup party', login_required: false, starts_at: new Date(Date.now() + 3600_000).toISOString() } });
    const anon = new PartyClient({ baseUrl: live.partyUrl });
    const tokens: string[] = [];
    for (let i = 0; i < FANS; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) => anon.call('signup', { params: { id: P }, body: { real_name: `Fan ${i + j}`, display_name: `fan-${i + j}` } }));
      for (const { access_token } of await Promise.all(batch)) tokens.push(access_token!);
    }
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'me.png');
    const upload = await new PartyClient({ baseUrl: live.partyUrl, accessToken: tokens[0] }).call('uploadProfile', { params: { id: P }, form });
    const uploadPath = new URL(upload.url).pathname;

    // Each worker posts as its own fans in turn, each fan its rate limit's worth of messages.
    const perWorker = FANS / WORKERS;
    let n = 0;
    const load = new Load(
      Object.fromEntries(
        Array.from({ length: WORKERS }, (_, w) => [
          `w${w}`,
          (i: number) => ({
            method: 'POST' as const,
            url: `${live.partyUrl}/api/parties/${P}/chat/messages`,
            token: tokens[w * perWorker + (Math.floor(i / CHAT_RATE_LIMIT_MESSAGES) % perWorker)]!,
            body: { text: `message ${++n}` },
          }),
        ]),
      ),
      2_000,
    );
    let backup: Awaited<ReturnType<typeof runOps>>;
    let backupStarted = 0;
    let backupEnded = 0;
    try {
      await until('chat under way', () => acked(load.answers).length >= 100, 60_000);
      backupStarted = Date.now();
      backup = await runOps('backup', backups, dataDir);
      backupEnded = Date.now();
      await until('more chat after the backup', () => acked(load.of(null, backupEnded)).length >= 10, 60_000);
    } finally {
      await load.stop();
    }
    expect(backup.code, backup.out).toBe(0);
    const [name] = fs.readdirSync(backups);
    const copy = path.join(backups, name!);
    const manifest = JSON.parse(fs.readFileSync(path.join(copy, BACKUP_MANIFEST), 'utf8')) as BackupManifest;
    const takenAt = Date.parse(manifest.taken_at);
    expect(takenAt).toBeGreaterThanOrEqual(backupStarted);
    const all = acked(load.answers);
    const before = all.filter((a) => a.at < takenAt).map((a) => a.message);
    // The backup ran while messages were being written: some were acknowledged after it began.
    expect(all.filter((a) => a.at >= takenAt).length).toBeGreaterThan(0);
    await live.stop();

    // A restore refuses to mix a backup into a data directory that holds data.
    const refused = await runOps('restore', copy, dataDir);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain('is not empty');

    const restore = await runOps('restore', copy, restored);
    expect(restore.code, restore.out).toBe(0);
    const db = new SQLite(path.join(restored, BACKUP_DATABASE), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }

    const back = await ServerNode.start({ DATA_DIR: restored, DATABASE_URL: '' });
    nodes.push(back);
    const stored = await allMessages(new PartyClient({ baseUrl: back.partyUrl, accessToken: tokens[1] }));
    const byId = new Map(stored.map((m) => [m.id, m]));
    expect(before.filter((m) => !byId.has(m.id)).map((m) => m.text)).toEqual([]);
    for (const m of before) expect(byId.get(m.id)).toEqual(m);
    const picture = await fetch(`${back.partyUrl}${uploadPath}`);
    expect(picture.status).toBe(200);
    expect(Buffer.from(await picture.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    const figure = (label: string) => Number(new RegExp(`${label}:.*?\\((\\d+) ms`).exec(backup.out)?.[1] ?? NaN);
    recordFigures('backup-during-writes', {
      acknowledged: all.length,
      acknowledged_before_the_copy: before.length,
      acknowledged_while_the_command_ran: all.filter((a) => a.at >= backupStarted && a.at <= backupEnded).length,
      restored_messages: stored.length,
      lost: 0,
      database_bytes: manifest.database.bytes,
      files: manifest.files.count,
      file_bytes: manifest.files.bytes,
      database_copy_ms: figure('database'),
      backup_ms: Number(/total:\s+(\d+) ms/.exec(backup.out)?.[1] ?? NaN),
      command_ms: backup.ms,
    });
  }, 240_000);

  it('restore: refuses an interrupted backup and a database that fails its integrity check, and leaves DATA_DIR empty', async () => {
    const dataDir = tmp('fanfare-backup-small-');
    const file = path.join(dataDir, 'fanfare.sqlite');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.exec("create table kysely_migration (name text primary key); insert into kysely_migration values ('001_foundation');");
    db.exec('create table notes (id integer primary key, body text)');
    const insert = db.prepare('insert into notes (body) values (?)');
    db.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run(`note ${i} `.repeat(20));
    })();
    fs.mkdirSync(path.join(dataDir, 'uploads/profile'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads/profile/a.png'), PNG_1X1);
    // A file still being written: not part of the backup.
    fs.writeFileSync(path.join(dataDir, 'uploads/profile/b.png.0.partial'), 'half');
    const backups = tmp('fanfare-backup-small-copies-');
    const { dir, manifest } = await backupDataDir({ databaseFile: file, dataDir, into: backups });
    db.close();
    expect(manifest.database.migrations).toEqual(['001_foundation']);
    expect(manifest.files.count).toBe(1);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);

    const target = path.join(tmp('fanfare-backup-small-restored-'), 'data');
    const restoreInto = () => restoreDataDir({ from: dir, dataDir: target, databaseFile: path.join(target, 'fanfare.sqlite') });
    // Interrupted: the manifest is written last, so a folder without it is refused.
    fs.renameSync(path.join(dir, BACKUP_MANIFEST), path.join(dir, 'aside.json'));
    await expect(restoreInto()).rejects.toThrow(/not a complete backup/);
    fs.renameSync(path.join(dir, 'aside.json'), path.join(dir, BACKUP_MANIFEST));
    // Damaged: a page overwritten in the middle of the copy.
    const copy = path.join(dir, BACKUP_DATABASE);
    const intact = fs.readFileSync(copy);
    const damaged = Buffer.from(intact);
    damaged.fill(0xa5, 8 * 4096, 12 * 4096);
    fs.writeFileSync(copy, damaged);
    await expect(restoreInto()).rejects.toThrow(OperatorError);
    await expect(restoreInto()).rejects.toThrow(/fails PRAGMA integrity_check/);
    expect(fs.existsSync(target)).toBe(false);
    fs.writeFileSync(copy, intact);

    await restoreInto();
    expect(fs.readdirSync(target).sort()).toEqual(['fanfare.sqlite', 'uploads']);
    expect(fs.readdirSync(path.join(target, 'uploads/profile'))).toEqual(['a.png']);
    const restored = new SQLite(path.join(target, 'fanfare.sqlite'), { readonly: true });
    try {
      expect(restored.prepare('select count(*) from notes').pluck().get()).toBe(2_000);
    } finally {
      restored.close();
    }
    // And a second restore over it is refused.
    await expect(restoreInto()).rejects.toBeInstanceOf(OperatorError);
  });
});
