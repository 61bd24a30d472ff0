import {
  BRIDGE_CHANNEL,
  isAllowedBridgeOrigin,
  parsePageToEditorMessage,
  type Campaign,
  type CampaignSimulation,
  type CampaignTheme,
  type EditorToPageMessage,
  type PageToEditorMessage,
} from '@fanfare/protocol';

type OpenMedia = Extract<PageToEditorMessage, { type: 'openMediaLibrary:v2' }>;

export interface EditorBridgeOptions {
  /** The window the back office runs in. */
  win: Window;
  /** The preview frame's window (null until it has loaded). */
  target: () => Window | null;
  /** Origins the page may speak from (the CMS's own origin). */
  allowedOrigins: string[];
  /** The page said hello: answer with the token, the campaign and the theme. */
  onReady: (replyTo: string | undefined) => void;
  onOpenMediaLibrary: (request: OpenMedia) => void;
  /** The page told us which URL it shows (spec 7 `campaignUrl`). */
  onCampaignUrl?: (url: string) => void;
  onRefused?: (reason: string) => void;
}

/**
 * The parent side of the editor bridge: every frame is parsed with the protocol's schemas and
 * accepted only from the preview frame's window and an allowed origin; every frame we send goes
 * to that origin only, never `*`.
 */
export function createEditorBridge(opts: EditorBridgeOptions) {
  const targetOrigin = opts.allowedOrigins[0]!;
  const listener = (event: MessageEvent) => {
    // Only our preview frame, from an allowed origin, may talk to the editor.
    if (event.source !== opts.target()) return;
    if (!isAllowedBridgeOrigin(event.origin, opts.allowedOrigins, opts.win.location.origin)) {
      opts.onRefused?.(`origin ${event.origin} is not allowed`);
      return;
    }
    const parsed = parsePageToEditorMessage(event.data);
    if (!parsed.ok) {
      if (parsed.reason === 'invalid') opts.onRefused?.(parsed.detail);
      return;
    }
    const m = parsed.message;
    if (m.type === 'ready') opts.onReady(undefined);
    else if (m.type === 'ready:v2') opts.onReady(m.requestId);
    else if (m.type === 'openMediaLibrary:v2') opts.onOpenMediaLibrary(m);
    else if (m.type === 'campaignUrl') opts.onCampaignUrl?.(m.url);
  };
  opts.win.addEventListener('message', listener);

  const post = (message: EditorToPageMessage) => opts.target()?.postMessage(message, targetOrigin);
  const channel = BRIDGE_CHANNEL;

  return {
    sendToken: (token: string | null, replyTo?: string) => post({ channel, type: 'token', token, replyTo }),
    sendCampaignInfo: (campaign: Campaign, simulation: CampaignSimulation, replyTo?: string) =>
      post({ channel, type: 'campaignInfo:v2', campaign, simulation, replyTo }),
    sendCampaignSaved: (campaign: Campaign) => post({ channel, type: 'campaignSaved', campaign }),
    sendTheme: (theme: CampaignTheme) => post({ channel, type: 'theme', theme }),
    sendMediaPicked: (fieldId: string, url: string | null, replyTo: string) => post({ channel, type: 'mediaPicked', fieldId, url, replyTo }),
    close: () => opts.win.removeEventListener('message', listener),
  };
}

export type EditorBridge = ReturnType<typeof createEditorBridge>;
