import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@fanfare/client';
import { useTranslation } from 'react-i18next';
import { CHAT_TEXT_MAX_LENGTH, type ChatMessage } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { retryAfterSeconds } from '../rules/errors.ts';
import { allowedStickers } from '../rules/theme.ts';
import { stickerGlyph } from '../ui/stickers.ts';

/** Writing in the chat: text, stickers (when the party allows them), photos and videos, replies. Blocked fans cannot type. */
export function Composer(props: { replyTo: ChatMessage | null; onCancelReply: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const services = useServices();
  const canChat = useParty((s) => s.user?.can_chat ?? false);
  const stickers = allowedStickers(useParty((s) => s.party?.frontend.visual));
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
  /** The words for a failed send: how long to wait after the rate limit, else a plain failure. */
  const failure = (err: unknown, fallback: string) => {
    const seconds = err instanceof ApiError && err.status === 429 ? retryAfterSeconds(err.body) : null;
    return seconds !== null ? t('chat.rateLimited', { seconds }) : fallback;
  };

  if (!canChat) {
    return (
      <p className="composer composer--blocked" role="status" data-testid="chat-blocked">
        {t('chat.blocked')}
      </p>
    );
  }

  const post = async (body: { text?: string; sticker?: string }) => {
    setBusy(true);
    setError(null);
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
    setBusy(true);
    setError(null);
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
            <button type="button" className="button button--small" disabled={busy} onClick={() => void upload(pending)}>
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
              disabled={busy}
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
        <button type="submit" className="button" disabled={busy || !text.trim()}>
          {t('chat.send')}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
