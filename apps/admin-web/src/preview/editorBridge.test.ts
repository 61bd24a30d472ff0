import { BRIDGE_CHANNEL } from '@fanfare/protocol';
import { describe, expect, it, vi } from 'vitest';
import { createEditorBridge } from './editorBridge.ts';

const PAGE_ORIGIN = 'https://cms.fanfare.example';

function setup() {
  const listeners = new Set<(e: MessageEvent) => void>();
  const win = {
    location: { origin: PAGE_ORIGIN },
    addEventListener: (_t: string, fn: (e: MessageEvent) => void) => void listeners.add(fn),
    removeEventListener: (_t: string, fn: (e: MessageEvent) => void) => void listeners.delete(fn),
  } as unknown as Window;
  const frame = { postMessage: vi.fn() } as unknown as Window;
  const onCampaignUrl = vi.fn();
  const bridge = createEditorBridge({ win, target: () => frame, allowedOrigins: [PAGE_ORIGIN], onReady: vi.fn(), onOpenMediaLibrary: vi.fn(), onCampaignUrl });
  const send = (data: unknown, origin = PAGE_ORIGIN, source: unknown = frame) => {
    for (const fn of [...listeners]) fn({ data, origin, source } as MessageEvent);
  };
  return { bridge, send, onCampaignUrl };
}

describe('editor bridge, parent side', () => {
  it('campaign spec §7: the editor takes campaignUrl from its preview frame', () => {
    const { send, onCampaignUrl } = setup();
    send({ channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: `${PAGE_ORIGIN}/c/fan-pages/demo` });
    expect(onCampaignUrl).toHaveBeenCalledWith(`${PAGE_ORIGIN}/c/fan-pages/demo`);
  });

  it('campaign spec §5: campaignUrl from another origin or window is refused', () => {
    const { send, onCampaignUrl } = setup();
    send({ channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: 'https://evil.example/' }, 'https://evil.example');
    send({ channel: BRIDGE_CHANNEL, type: 'campaignUrl', url: `${PAGE_ORIGIN}/x` }, PAGE_ORIGIN, {});
    expect(onCampaignUrl).not.toHaveBeenCalled();
  });
});
