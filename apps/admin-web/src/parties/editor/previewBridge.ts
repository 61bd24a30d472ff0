/**
 * The editor's side of the party preview bridge (issue 14; protocol `party/preview.ts`): sends
 * the party as the form holds it to the party app in the frame, on every change, and listens for
 * its `ready` and `rendered` answers — only from the party app's origin and from that frame, each
 * parsed with the protocol schema.
 */
import { useEffect, useRef, useState } from 'react';
import { PARTY_PREVIEW_CHANNEL, PartyPreviewFromApp, PartyPreviewToApp, type Party, type PartyPreviewScreen, type PartyTrack } from '@fanfare/protocol';

/** Changes within this window go out as one frame (typing a colour sends one preview, not ten). */
const SEND_DEBOUNCE_MS = 120;

export interface PreviewContent {
  screen: PartyPreviewScreen;
  party: Party;
  tracks: PartyTrack[];
}

export interface PreviewBridgeState {
  /** The party app has initialised and listens. */
  ready: boolean;
  /** Revision of the last frame sent, and of the last one the app says is on screen. */
  sent: number;
  rendered: number;
  /** The content could not be sent (it failed the protocol schema): the preview shows the last valid one. */
  invalid: boolean;
}

/** Accepts a message only from `origin` and from the frame's own window. */
export function readAppMessage(event: Pick<MessageEvent, 'origin' | 'source' | 'data'>, origin: string, frameWindow: unknown) {
  if (event.origin !== origin || frameWindow == null || event.source !== frameWindow) return null;
  const parsed = PartyPreviewFromApp.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}

export function usePartyPreviewBridge(frame: React.RefObject<HTMLIFrameElement | null>, origin: string, content: PreviewContent): PreviewBridgeState {
  const [state, setState] = useState<PreviewBridgeState>({ ready: false, sent: 0, rendered: 0, invalid: false });
  // Counts the app's hellos: a reloaded frame says `ready` again and must get the content again.
  const [hellos, setHellos] = useState(0);
  const revision = useRef(0);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const message = readAppMessage(event, origin, frame.current?.contentWindow);
      if (!message) return;
      if (message.type === 'ready') {
        setState((s) => ({ ...s, ready: true }));
        setHellos((n) => n + 1);
      }
      else setState((s) => ({ ...s, rendered: Math.max(s.rendered, message.revision) }));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [origin, frame]);

  // The content as a string: the effect runs when it changes, not on every render.
  const serialized = JSON.stringify(content);
  useEffect(() => {
    if (!state.ready) return;
    const timer = setTimeout(() => {
      const next = revision.current + 1;
      const parsed = PartyPreviewToApp.safeParse({ channel: PARTY_PREVIEW_CHANNEL, type: 'preview', revision: next, ...(JSON.parse(serialized) as PreviewContent) });
      if (!parsed.success) return setState((s) => ({ ...s, invalid: true }));
      revision.current = next;
      frame.current?.contentWindow?.postMessage(parsed.data, origin);
      setState((s) => ({ ...s, sent: next, invalid: false }));
    }, SEND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [serialized, state.ready, hellos, origin, frame]);

  return state;
}
