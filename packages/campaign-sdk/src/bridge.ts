/**
 * The editor bridge, page side (spec §5, §6, §7). Frames go to the embedding editor only at its
 * own origin; frames arrive only from allowed origins and are parsed with the protocol's schemas.
 * Requests carry ids; answers are matched by `replyTo`.
 */
import { BRIDGE_CHANNEL, BRIDGE_VERSION, isAllowedBridgeOrigin, type EditorToPageMessage, type PageToEditorMessage } from '@fanfare/protocol';
import type * as BridgeParser from './bridgeParser.ts';
import { Emitter } from './emitter.ts';
import type { PageEnv } from './env.ts';

type Distribute<T> = T extends { type: infer K extends string } ? { [P in K]: T } : never;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type EditorMessages = UnionToIntersection<Distribute<EditorToPageMessage>>;

export interface MediaPick {
  fieldId: string;
  currentFileUrl: string | null;
  targetWidth: number | null;
  targetHeight: number | null;
}

type WithoutEnvelope<T> = T extends unknown ? Omit<T, 'channel' | 'requestId'> : never;

export class EditorBridge {
  private readonly emitter = new Emitter<EditorMessages>();
  private readonly pending = new Map<string, (message: EditorToPageMessage) => void>();
  private seq = 0;
  private readonly listener = (event: MessageEvent) => this.receive(event);
  private readonly pageOrigin: string;
  /** Frames are handled in arrival order once the parser chunk has loaded. */
  private queue: Promise<void> = Promise.resolve();
  private destroyed = false;

  constructor(
    private readonly env: PageEnv,
    private readonly allowedOrigins: readonly string[],
    /** Prefix of request ids, unique per instance so that two campaigns' answers never cross. */
    private readonly idPrefix: string,
    private readonly loadParser: () => Promise<typeof BridgeParser> = () => import('./bridgeParser.ts'),
  ) {
    this.pageOrigin = new URL(env.location.href).origin;
    env.messaging.addEventListener('message', this.listener);
  }

  /** Where frames go: the embedding editor's origin, only when it is an allowed one. */
  private get target(): string | null {
    const origin = this.env.messaging.parentOrigin;
    if (!this.env.messaging.parent || !origin) return null;
    return isAllowedBridgeOrigin(origin, this.allowedOrigins, this.pageOrigin) ? origin : null;
  }

  get isConnected(): boolean {
    return this.target !== null;
  }

  on<K extends keyof EditorMessages>(type: K, fn: (message: EditorMessages[K]) => void): () => void {
    return this.emitter.on(type, fn);
  }

  private nextId(): string {
    this.seq += 1;
    return `${this.idPrefix}-${this.seq}`;
  }

  private post(message: WithoutEnvelope<PageToEditorMessage>, requestId?: string): boolean {
    const target = this.target;
    if (!target) return false;
    this.env.messaging.parent!.postMessage({ channel: BRIDGE_CHANNEL, ...message, ...(requestId ? { requestId } : {}) }, target);
    return true;
  }

  /** Announces the page (`ready` for v1 editors, then `ready:v2`); resolves with the editor's campaignInfo:v2 answer. */
  announceReady(): string | null {
    if (!this.post({ type: 'ready' })) return null;
    const id = this.nextId();
    this.post({ type: 'ready:v2', version: BRIDGE_VERSION }, id);
    return id;
  }

  /** Tells the editor which URL the page shows. */
  sendCampaignUrl(url: string): void {
    this.post({ type: 'campaignUrl', url });
  }

  /** Asks the editor's media library for a file; resolves with its URL, or null when cancelled. */
  openMediaLibrary(pick: MediaPick): Promise<string | null> {
    const id = this.nextId();
    return new Promise((resolve, reject) => {
      this.pending.set(id, (answer) => resolve(answer.type === 'mediaPicked' ? answer.url : null));
      if (!this.post({ type: 'openMediaLibrary:v2', ...pick }, id)) {
        this.pending.delete(id);
        reject(new Error('Not inside the editor'));
      }
    });
  }

  private receive(event: MessageEvent): void {
    // Guards against any other window driving the page (spec §5): only the allowed backends, or
    // localhost parents of a localhost page, may send us campaigns and tokens.
    if (!isAllowedBridgeOrigin(event.origin, this.allowedOrigins, this.pageOrigin)) {
      if ((event.data as { channel?: unknown } | null)?.channel === BRIDGE_CHANNEL) {
        this.env.logger.warn(`Ignored editor message from ${event.origin}: origin not allowed`);
      }
      return;
    }
    if ((event.data as { channel?: unknown } | null)?.channel !== BRIDGE_CHANNEL) return;
    const data: unknown = event.data;
    this.queue = this.queue
      .then(() => this.loadParser())
      .then(({ parseEditorToPageMessage }) => {
        if (!this.destroyed) this.handle(parseEditorToPageMessage(data));
      })
      .catch((err: unknown) => this.env.logger.error('Editor message handling failed', err));
  }

  /** Resolves when every frame received so far has been handled (tests, and callers that sequence on it). */
  settled(): Promise<void> {
    return this.queue;
  }

  private handle(parsed: ReturnType<typeof BridgeParser.parseEditorToPageMessage>): void {
    if (!parsed.ok) {
      if (parsed.reason === 'invalid') this.env.logger.warn('Ignored invalid editor message', parsed.detail);
      return;
    }
    const message = parsed.message;
    if (message.replyTo) {
      const resolve = this.pending.get(message.replyTo);
      if (resolve) {
        this.pending.delete(message.replyTo);
        resolve(message);
      }
    }
    this.emitter.emit(message.type, message as never);
  }

  destroy(): void {
    this.destroyed = true;
    this.env.messaging.removeEventListener('message', this.listener);
    this.emitter.clear();
    this.pending.clear();
  }
}
