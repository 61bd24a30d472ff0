import { CloseCode, PING_TEXT, ServerFrame } from '@fanfare/protocol';
import { useEffect, useReducer } from 'react';
import { dashboardReducer, initialDashboardState, reconnectDelayMs, type DashboardState } from './statsState.ts';

/** The client pings about this often (spec: about 20 s). */
const PING_MS = 20_000;
/** Closes after which the dashboard stops trying (the party socket's retry cap is 5). */
const MAX_FAILURES = 6;

/**
 * The party's live figures over the party socket in dashboard mode: the server pushes one
 * aggregated `party_stats` per second at most; this never polls. Reconnects with backoff; a
 * refusal (1008: not allowed) stops.
 */
export function useDashboardStats(url: string | null): DashboardState {
  const [state, dispatch] = useReducer(dashboardReducer, initialDashboardState);
  useEffect(() => {
    if (!url) return;
    let ws: WebSocket | null = null;
    let failures = 0;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let ping: ReturnType<typeof setInterval> | null = null;
    const open = () => {
      ws = new WebSocket(url);
      ws.onopen = () => {
        failures = 0;
        ping = setInterval(() => ws?.readyState === WebSocket.OPEN && ws.send(PING_TEXT), PING_MS);
      };
      ws.onmessage = (e) => {
        if (typeof e.data !== 'string' || !e.data.startsWith('[')) return;
        // Every frame is checked against the protocol: a malformed one is ignored, not half-applied.
        const parsed = ServerFrame.safeParse(JSON.parse(e.data));
        if (!parsed.success) return;
        for (const event of parsed.data) if (event.type === 'party_stats') dispatch({ type: 'stats', event, at: Date.now() });
      };
      ws.onclose = (e) => {
        if (ping) clearInterval(ping);
        if (stopped) return;
        failures += 1;
        if (e.code === CloseCode.POLICY_VIOLATION || failures > MAX_FAILURES) return dispatch({ type: 'connection', state: 'refused' });
        dispatch({ type: 'connection', state: 'reconnecting' });
        retry = setTimeout(open, reconnectDelayMs(failures));
      };
    };
    open();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (ping) clearInterval(ping);
      ws?.close(1000);
    };
  }, [url]);
  return state;
}
