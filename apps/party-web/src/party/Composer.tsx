import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@fanfare/client';
import { useTranslation } from 'react-i18next';
import { CHAT_TEXT_MAX_LENGTH, WAITING_ROOM_READ_ONLY_DETAIL, type ChatMessage } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { retryAfterSeconds } from '../rules/errors.ts';
import { lastOwnPostMs, slowModeRefusal, slowModeSecondsFor, waitSeconds } from '../rules/slowMode.ts';
import { readsOnlyInWaitingRoom } from '../rules/waitingRoom.ts';
import { roleOf } from '../state/store.ts';
import { useServerNow } from './useServerNow.ts';
import { allowedStickers } from '../rules/theme.ts';
import { stickerGlyph } from '../ui/stickers.ts';

/** The server's clock now, from this device's and the measured offset (called from event handlers). */
const serverClock = (offsetMs: number) => Date.now() + offsetMs;

/**
 * Writing in the chat: text, stickers (when the party allows them), photos and videos, replies.
 * Blocked fans cannot type; nor can listeners in a read-only waiting room until the start.
 */
export function Composer(props: { replyTo: ChatMessage | null; onCancelReply: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const services = useServices();
  const canChat = useParty((s) => s.user?.can_chat ?? false);
  const readOnly = useParty((s) => readsOnlyInWaitingRoom(s.party?.frontend, s.status, roleOf(s)));
  const stickers = allowedStickers(useParty((s) => s.party?.frontend.visual));
  // Slow mode (issue 10): the party's interval, and the wait left after this fan's last post.
  const slowSeconds = slowModeSecondsFor(useParty((s) => s.party?.frontend), useParty(roleOf));
  const lastOwnPost = useParty((s) => lastOwnPostMs(s.messages, s.user?.id));
  /** The server's refusal: its words, and until when (server time) it holds. */
  const [refused, setRefused] = useState<{ message: string; untilMs: number } | null>(null);
  const slowUntil = slowSeconds > 0 && lastOwnPost !== null ? lastOwnPost + slowSeconds * 1000 : null;
  const waitUntil = Math.max(slowUntil ?? 0, refused?.untilMs ?? 0) || null;
  const serverNow = useServerNow(waitUntil);
  const waitMs = waitUntil === null ? 0 : Math.max(0, waitUntil - serverNow);
  const [text, setText] = useState('');
  const [showStickers, setShowStickers] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  /** A photo or video chosen but not sent yet: shown first (issue 15). */
  const [pending, setPending] = useState<File | null>(null);
  const previewUrl = useMemo(() => (pending ? URL.createObjectURL(pending) : null), [pending]);
  useEffect(() => () => {
    if (previewUrl) URL.revokeObjectURL(previewUrl);
  }, [previewUrl]);
  /** The words for a failed send: the server's slow-mode refusal, how long to wait after the rate limit, else a plain failure. */
  const failure = (err: unknown, fallback: string) => {
    // The host made the waiting room read-only after this page loaded: the server says so.
    if (err instanceof ApiError && err.status === 403 && typeof err.body === 'object' && err.body?.detail === WAITING_ROOM_READ_ONLY_DETAIL) return t('waiting.readOnly');
    const slow = err instanceof ApiError && err.status === 429 ? slowModeRefusal(err.body) : null;
    if (slow) {
      setRefused({ message: slow.message, untilMs: serverClock(services.store.getState().clockOffsetMs) + slow.retryAfterMs });
      return null;
    }
    const seconds = err instanceof ApiError && err.status === 429 ? retryAfterSeconds(err.body) : null;
    return seconds !== null ? t('chat.rateLimited', { seconds }) : fallback;
  };

  if (readOnly) {
    return (
      <p className="composer composer--blocked" role="status" data-testid="chat-read-only">
        {t('waiting.readOnly')}
      </p>
    );
  }
  if (!canChat) {
    return (
      <p className="composer composer--blocked" role="status" data-testid="chat-blocked">
        {t('chat.blocked')}
      </p>
    );
  }

  const post = async (body: { text?: string; sticker?: string }) => {
    if (waitMs > 0) return false;
    setBusy(true);
    setError(null);
    setRefused(null);
    try {
      const message = await services.api().call('postChatMessage', {
        params: { id: services.partyId },
        body: { ...body, reply_to_message_id: props.replyTo?.id ?? null },
      });
      // Shown at once; the socket's copy of the same message is deduplicated by id.
      services.store.getState().applyChat([message]);
      props.onSent();
      return true;
    } catch (err) {
      setError(failure(err, t('chat.sendError')));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    if (await post({ text: trimmed })) setText('');
  };
  const upload = async (file: File) => {
    if (waitMs > 0) return;
    setBusy(true);
    setError(null);
    setRefused(null);
    try {
      const form = new FormData();
      form.append('file', file);
      const { url } = await services.api().call('uploadMedia', { params: { id: services.partyId }, form });
      const isVideo = file.type.startsWith('video/');
      const message = await services.api().call('postChatMedia', {
        params: { id: services.partyId },
        body: { ...(isVideo ? { video: url } : { photo: url }), ...(text.trim() ? { text: text.trim() } : {}) },
      });
      services.store.getState().applyChat([message]);
      setText('');
      setPending(null);
      props.onSent();
    } catch (err) {
      setError(failure(err, t('chat.uploadError')));
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };
  const choose = (file: File | undefined) => {
    setError(null);
    setPending(file ?? null);
    if (fileRef.current) fileRef.current.value = '';
  };

  return (
    <form className="composer" onSubmit={(e) => void submit(e)}>
      {props.replyTo && (
        <div className="composer__reply">
          <span>{t('chat.replyingTo', { name: props.replyTo.sender?.display_name ?? t('chat.system') })}</span>
          <button type="button" className="link-button" onClick={props.onCancelReply}>
            {t('common.cancel')}
          </button>
        </div>
      )}
      {pending && previewUrl && (
        <div className="composer__preview" data-testid="media-preview">
          {pending.type.startsWith('video/') ? (
            <video src={previewUrl} muted playsInline className="composer__preview-media" aria-label={t('chat.previewLabel')} />
          ) : (
            <img src={previewUrl} alt={t('chat.previewLabel')} className="composer__preview-media" />
          )}
          <div className="button-row">
            <button type="button" className="button button--small" disabled={busy || waitMs > 0} onClick={() => void upload(pending)}>
              {t('chat.sendPhoto')}
            </button>
            <button type="button" className="link-button" disabled={busy} onClick={() => setPending(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      )}
      {showStickers && stickers.length > 0 && (
        <div className="sticker-grid composer__stickers" role="group" aria-label={t('chat.stickers')}>
          {stickers.map((s) => (
            <button
              key={s}
              type="button"
              className="sticker-tile"
              disabled={busy || waitMs > 0}
              aria-label={t(`sticker.${s}`, { defaultValue: s })}
              onClick={() => void post({ sticker: s }).then((ok) => ok && setShowStickers(false))}
            >
              <span aria-hidden="true">{stickerGlyph(s)}</span>
            </button>
          ))}
        </div>
      )}
      <div className="composer__row">
        <label htmlFor={inputId} className="sr-only">
          {t('chat.inputLabel')}
        </label>
        <input
          id={inputId}
          className="composer__input"
          value={text}
          maxLength={CHAT_TEXT_MAX_LENGTH}
          placeholder={t('chat.placeholder')}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
        />
        {stickers.length > 0 && (
          <button type="button" className="icon-button" aria-expanded={showStickers} aria-label={t('chat.stickers')} onClick={() => setShowStickers((v) => !v)}>
            <span aria-hidden="true">☺</span>
          </button>
        )}
        <button type="button" className="icon-button" aria-label={t('chat.attach')} onClick={() => fileRef.current?.click()} disabled={busy}>
          <span aria-hidden="true">📎</span>
        </button>
        <input ref={fileRef} type="file" accept="image/*,video/*" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => choose(e.target.files?.[0])} />
        <button type="submit" className="button" disabled={busy || !text.trim() || waitMs > 0}>
          {t('chat.send')}
        </button>
      </div>
      {refused && waitMs > 0 && (
        <p className="form-error composer__slow" role="alert" data-testid="slow-mode-refused">
          {refused.message || t('chat.slowModeRefused')}
        </p>
      )}
      {(slowSeconds > 0 || waitMs > 0) && (
        // One short line under the pinned composer: the rule, then the wait left.
        <p className="hint composer__slow">
          {slowSeconds > 0 && <span data-testid="slow-mode">{t('chat.slowMode', { seconds: slowSeconds })}</span>}
          {slowSeconds > 0 && waitMs > 0 && ' '}
          {waitMs > 0 && <span data-testid="slow-mode-wait">{t('chat.slowModeWait', { seconds: waitSeconds(waitMs) })}</span>}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
