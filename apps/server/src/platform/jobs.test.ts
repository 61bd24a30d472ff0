import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TABLES, TableChanges } from './db/changes.ts';
import { FULL_LOOK_EVERY_MS, JobScheduler, type Job } from './jobs.ts';

const SWEEP_MS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for a look or a run (a loaded machine may delay the sweeps), failing after 5 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check() && Date.now() < deadline) await sleep(5);
  expect(check()).toBe(true);
}

/** A job that counts the scheduler's looks and runs what is due by a stored time set by the test. */
function countingJob(readsTables: string[]) {
  const state = { looks: 0, runs: 0, due: null as number | null };
  const job: Job = {
    name: 'counting',
    readsTables,
    async runDue(now) {
      if (state.due !== null && state.due <= now) {
        state.runs++;
        state.due = null;
      }
    },
    async nextDue() {
      state.looks++;
      return state.due;
    },
  };
  return { job, state };
}

const schedulers: JobScheduler[] = [];
afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.close();
});

function start(changes: TableChanges | undefined, clock: { now: number }, job: Job): JobScheduler {
  const scheduler = new JobScheduler(() => clock.now, pino({ level: 'silent' }), SWEEP_MS, changes);
  schedulers.push(scheduler);
  scheduler.add(job);
  scheduler.start();
  return scheduler;
}

describe('the due-time scheduler asks the database only when something may have changed', () => {
  it('an idle node looks once, then sweeps without queries until a table its jobs read is written', async () => {
    const changes = new TableChanges();
    const clock = { now: 1_000_000 };
    const { job, state } = countingJob(['chat_questions']);
    start(changes, clock, job);
    await until(() => state.looks === 1);
    await sleep(SWEEP_MS * 12);
    expect(state.looks).toBe(1);
    changes.written('chat_messages', 'insert'); // not a table the job reads
    await sleep(SWEEP_MS * 5);
    expect(state.looks).toBe(1);
    state.due = clock.now + 60_000;
    changes.written('chat_questions', 'insert');
    await until(() => state.looks === 2);
    // Another node's change (or a resubscribed Redis, which reports every table) counts too.
    changes.written(ALL_TABLES, 'change');
    await until(() => state.looks === 3);
  });

  it('work whose due time comes runs without any write, and a long quiet spell still looks again', async () => {
    const changes = new TableChanges();
    const clock = { now: 1_000_000 };
    const { job, state } = countingJob(['chat_questions']);
    state.due = clock.now + 500;
    start(changes, clock, job);
    await sleep(SWEEP_MS * 5);
    expect(state.runs).toBe(0);
    clock.now += 600; // the clock passes the stored due time
    await until(() => state.runs === 1);
    const looks = state.looks;
    await sleep(SWEEP_MS * 5);
    expect(state.looks).toBe(looks);
    clock.now += FULL_LOOK_EVERY_MS; // a missed change message is bounded by the full look
    await until(() => state.looks === looks + 1);
  });

  it('without a change feed every sweep looks, as before', async () => {
    const clock = { now: 1_000_000 };
    const { job, state } = countingJob(['chat_questions']);
    start(undefined, clock, job);
    await until(() => state.looks >= 4);
  });
});
