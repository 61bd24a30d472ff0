import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '@fanfare/client';
import type { PostPreparedQuestionBody, PreparedQuestion } from '@fanfare/protocol';
import { useServices } from '../../app/context.tsx';

/**
 * Polls and quizzes a host prepares before the party (in the waiting room, the day before, on any
 * device) and starts from the host panel once it runs. The server keeps them per party; this
 * provider reads them once and keeps the host's screen in step with the host's own changes.
 */
export interface PreparedQuestions {
  /** Oldest first; empty while loading. */
  items: PreparedQuestion[];
  /** The list could not be read (the host sees why instead of an empty list). */
  failed: boolean;
  add(input: PostPreparedQuestionBody): Promise<void>;
  /** Removes an item (one already gone, e.g. removed on another device, counts as removed). */
  remove(id: string): Promise<void>;
}

const PreparedContext = createContext<PreparedQuestions | null>(null);

export function PreparedProvider({ children }: { children: ReactNode }) {
  const services = useServices();
  const { partyId } = services;
  const [items, setItems] = useState<PreparedQuestion[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    services
      .api()
      .call('listPreparedQuestions', { params: { id: partyId } })
      .then(
        (res) => current && setItems(res.items),
        () => current && setFailed(true),
      );
    return () => {
      current = false;
    };
  }, [services, partyId]);

  const add = useCallback(
    async (input: PostPreparedQuestionBody) => {
      const item = await services.api().call('postPreparedQuestion', { params: { id: partyId }, body: input });
      setItems((list) => [...list.filter((i) => i.id !== item.id), item]);
    },
    [services, partyId],
  );

  const remove = useCallback(
    async (id: string) => {
      try {
        await services.api().call('deletePreparedQuestion', { params: { id: partyId, preparedId: id } });
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      setItems((list) => list.filter((i) => i.id !== id));
    },
    [services, partyId],
  );

  const value = useMemo(() => ({ items, failed, add, remove }), [items, failed, add, remove]);
  return <PreparedContext.Provider value={value}>{children}</PreparedContext.Provider>;
}

/** The party's prepared polls and quizzes (inside `PreparedProvider`). */
export function usePrepared(): PreparedQuestions {
  const value = useContext(PreparedContext);
  if (!value) throw new Error('usePrepared outside PreparedProvider');
  return value;
}

/** The same, or null outside a `PreparedProvider` (forms that also run without one). */
export function usePreparedIfAny(): PreparedQuestions | null {
  return useContext(PreparedContext);
}
