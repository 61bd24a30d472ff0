import { useCallback, useEffect, useRef, useState } from 'react';
import { CampaignLockEvent, type CampaignLock } from '@fanfare/protocol';
import { useApi, useSession } from '../../api/context.tsx';
import { ApiError } from '../../api/cms.ts';

/**
 * The editor's lease on a campaign. `editing`: this user holds the lock (renewed while the editor
 * is open, released on leave). `readOnly`: someone else holds it (open read-only or take it over).
 * `lost`: it was taken over while editing; the editor says so at once and stops saving.
 */
export type LockState =
  | { kind: 'acquiring' }
  | { kind: 'editing'; lock: CampaignLock }
  | { kind: 'readOnly'; holder: string | null }
  | { kind: 'lost'; holder: string }
  | { kind: 'failed'; error: unknown };

/** Parses a server-sent-events body into lock events (one JSON `data:` line per event). */
async function* readLockEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<CampaignLockEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      if (!data) continue;
      const parsed = CampaignLockEvent.safeParse(JSON.parse(data));
      if (parsed.success) yield parsed.data;
    }
  }
}

export function useEditLock(campaignId: string, canWrite: boolean) {
  const api = useApi();
  const me = useSession()?.user;
  const [state, setState] = useState<LockState>(canWrite ? { kind: 'acquiring' } : { kind: 'readOnly', holder: null });
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);

  /** Takes or renews the lock; a 409 names the holder (read-only). */
  const requestLock = useCallback(async (): Promise<LockState> => {
    try {
      return { kind: 'editing', lock: await api.campaigns.lock(campaignId) };
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        const body = e.body as { detail?: { holder?: { email?: string } } } | null;
        const holder = body?.detail?.holder?.email ?? null;
        return { kind: 'readOnly', holder };
      }
      return { kind: 'failed', error: e };
    }
  }, [api, campaignId]);
  const acquire = useCallback(() => requestLock().then(setState), [requestLock]);

  const takeOver = useCallback(async () => {
    const lock = await api.campaigns.takeOver(campaignId);
    setState({ kind: 'editing', lock });
  }, [api, campaignId]);

  // Take the lock on open; release it on leave (also when the tab closes).
  useEffect(() => {
    // A role that may not write only reads (the initial state says so).
    if (!canWrite) return;
    void requestLock().then(setState);
    const release = () => {
      if (stateRef.current.kind !== 'editing') return;
      void api.campaigns.unlockOnLeave(campaignId);
    };
    window.addEventListener('pagehide', release);
    return () => {
      window.removeEventListener('pagehide', release);
      release();
    };
  }, [requestLock, api, campaignId, canWrite]);

  // Renew the lease at a third of its lifetime while editing.
  const editingLock = state.kind === 'editing' ? state.lock : null;
  useEffect(() => {
    if (!editingLock) return;
    const ttl = Date.parse(editingLock.expires_at) - Date.now();
    const timer = setTimeout(() => void acquire(), Math.max(5_000, ttl / 3));
    return () => clearTimeout(timer);
  }, [editingLock, acquire]);

  // Hear at once when someone takes the lock over (or frees it while we only read).
  useEffect(() => {
    if (!me) return;
    const abort = new AbortController();
    void (async () => {
      for (let attempt = 0; attempt < 50 && !abort.signal.aborted; attempt++) {
        try {
          const res = await api.campaigns.lockEvents(campaignId, abort.signal);
          if (!res.ok || !res.body) throw new Error(`lock events: ${res.status}`);
          for await (const event of readLockEvents(res.body)) {
            const current = stateRef.current;
            if (current.kind === 'editing' && event.lock && event.lock.user_id !== me.id) setState({ kind: 'lost', holder: event.lock.user_email });
            if (current.kind === 'readOnly' && current.holder !== null) setState({ kind: 'readOnly', holder: event.lock?.user_email ?? null });
          }
        } catch {
          if (abort.signal.aborted) return;
        }
        await new Promise((r) => setTimeout(r, 2_000));
      }
    })();
    return () => abort.abort();
  }, [api, campaignId, me]);

  return { state, takeOver, retry: acquire };
}
