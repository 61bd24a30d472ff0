import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { PostPollBody, PostQuizQuestionBody } from '@fanfare/protocol';
import { pageStorage } from '../../session/pageStorage.ts';

/**
 * Polls and quizzes a host prepares before the party (in the waiting room, the day before) and
 * launches from the host panel once it runs. They are kept in this browser, per party: the
 * server's poll and quiz calls start a poll at once, so nothing is sent before the launch.
 */
export const Prepared = z.discriminatedUnion('kind', [
  z.object({ id: z.string().min(1).max(64), kind: z.literal('poll'), body: PostPollBody }),
  z.object({ id: z.string().min(1).max(64), kind: z.literal('quiz'), body: PostQuizQuestionBody }),
]);
export type Prepared = z.infer<typeof Prepared>;

/** At most this many prepared items a party (the oldest go first). */
export const PREPARED_MAX = 50;

const keyOf = (partyId: string) => `fanfare.party.${partyId}.prepared`;

/** The stored list; anything unreadable or no longer valid is left out. */
export function parsePrepared(raw: string | null): Prepared[] {
  if (!raw) return [];
  try {
    const list: unknown = JSON.parse(raw);
    if (!Array.isArray(list)) return [];
    return list.flatMap((item) => {
      const parsed = Prepared.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; list: Prepared[] }>();

function storage(): Storage {
  return pageStorage(window);
}

function snapshot(partyId: string): Prepared[] {
  const raw = storage().getItem(keyOf(partyId));
  const hit = cache.get(partyId);
  if (hit && hit.raw === raw) return hit.list;
  const list = parsePrepared(raw);
  cache.set(partyId, { raw, list });
  return list;
}

function write(partyId: string, list: Prepared[]): void {
  storage().setItem(keyOf(partyId), JSON.stringify(list.slice(-PREPARED_MAX)));
  for (const l of listeners) l();
}

export function addPrepared(partyId: string, item: Omit<Prepared, 'id'> & Pick<Partial<Prepared>, 'id'>): void {
  const id = item.id ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  write(partyId, [...snapshot(partyId), Prepared.parse({ ...item, id })]);
}

export function removePrepared(partyId: string, id: string): void {
  write(partyId, snapshot(partyId).filter((p) => p.id !== id));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the same browser (the host's second window) changes it too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The party's prepared polls and quizzes, kept in step with every change. */
export function usePrepared(partyId: string): Prepared[] {
  return useSyncExternalStore(subscribe, () => snapshot(partyId));
}
