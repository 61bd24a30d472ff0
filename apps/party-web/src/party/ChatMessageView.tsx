import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { stickerGlyph } from '../ui/stickers.ts';
import { useUi } from '../ui/uiContext.tsx';
import { splitLinks } from '../rules/links.ts';
import { PollCard, ScoreboardCard } from './PollCard.tsx';

/** Chat text with its web links clickable: a new tab, no opener, no referrer (issue 15). */
function LinkedText(props: { text: string }) {
  return (
    <>
      {splitLinks(props.text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** A moderation action that asks once more before it acts (issue 15: delete and block confirm). */
function ConfirmButton(props: { label: string; ariaLabel: string; confirmLabel: string; confirmAria: string; cancelLabel: string; onConfirm: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="link-button link-button--danger" onClick={() => setAsking(true)} aria-label={props.ariaLabel}>
        {props.label}
      </button>
    );
  }
  return (
    <span className="msg__confirm" role="group">
      <button type="button" className="button button--small button--danger" autoFocus onClick={() => void props.onConfirm().finally(() => setAsking(false))} aria-label={props.confirmAria}>
        {props.confirmLabel}
      </button>
      <button type="button" className="link-button" onClick={() => setAsking(false)}>
        {props.cancelLabel}
      </button>
    </span>
  );
}

/** One chat entry: text, sticker, photo, video, reply, poll, quiz or scoreboard; moderation for hosts. */
export function ChatMessageView(props: { message: ChatMessage; onReply: (m: ChatMessage) => void; replyTo: ChatMessage | null }) {
  const { t, i18n } = useTranslation();
  const services = useServices();
  const ui = useUi();
  const m = props.message;
  const me = useParty((s) => s.user?.id ?? null);
  const moderator = useParty((s) => isHostOrAdmin(roleOf(s)));
  const score = useParty((s) => (m.sender ? (s.scores[m.sender.id] ?? m.sender.quiz_score) : 0));
  if (m.type === 'poll' || m.type === 'quiz_question') return <PollCard message={m} />;
  if (m.type === 'quiz_scoreboard') return <ScoreboardCard message={m} />;
  const sender = m.sender;
  const isOwn = !!sender && sender.id === me;
  const kind = !sender ? 'system' : sender.role === 'admin' || sender.role === 'host' ? 'artist' : isOwn ? 'own' : 'user';
  const time = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(new Date(m.timestamp_ms));
  const name = sender?.display_name ?? t('chat.system');

  const remove = async () => {
    try {
      await services.api().call('deleteChatMessage', { params: { id: services.partyId, messageId: m.id } });
    } catch {
      // The message stays; the socket's deletion message is what removes it for everyone.
    }
  };
  const block = async () => {
    if (!sender) return;
    try {
      await services.api().call('blockUser', { params: { id: services.partyId, userId: sender.id } });
      await services.live?.loadBlocked();
    } catch {
      // Nothing changed at the server: nothing to show.
    }
  };

  return (
    <article className={`msg msg--${kind}`} data-testid="chat-message" data-message-id={m.id} aria-label={t('chat.messageFrom', { name, time })}>
      <div className="msg__profile" aria-hidden="true">
        <Avatar name={name} picture={sender?.profile_picture} sticker={sender?.profile_sticker} size={32} />
      </div>
      <div className="msg__content">
        <header className="msg__head">
          <span className="msg__name">{name}</span>
          {kind === 'artist' && (
            <span className="badge badge--role" data-testid="role-badge">
              <span aria-hidden="true">★ </span>
              {t(`role.${sender!.role}`)}
            </span>
          )}
          {score > 0 && <span className="badge badge--score" title={t('chat.quizScore')}>{t('chat.points', { count: score })}</span>}
          <time className="msg__time" dateTime={new Date(m.timestamp_ms).toISOString()}>
            {time}
          </time>
        </header>
        {props.replyTo && (
          <blockquote className="msg__reply">
            <span className="sr-only">{t('chat.inReplyTo')}</span>
            <strong>{props.replyTo.sender?.display_name ?? t('chat.system')}</strong>: {props.replyTo.text ?? stickerGlyph(props.replyTo.sticker)}
          </blockquote>
        )}
        {m.text && (
          <p className="msg__text">
            <LinkedText text={m.text} />
          </p>
        )}
        {m.sticker && (
          <p className="msg__sticker" role="img" aria-label={t('chat.sticker', { name: t(`sticker.${m.sticker}`, { defaultValue: m.sticker }) })}>
            {stickerGlyph(m.sticker)}
          </p>
        )}
        {m.photo && <img className="msg__photo" src={m.photo} alt={t('chat.photoAlt', { name })} loading="lazy" />}
        {m.video && (
          <button type="button" className="button button--ghost button--small" onClick={() => ui.openVideo(m.video!)}>
            ▶ {t('chat.playVideo')}
          </button>
        )}
        <div className="msg__actions">
          {sender && (
            <button type="button" className="link-button" onClick={() => props.onReply(m)} aria-label={t('chat.replyTo', { name })}>
              {t('chat.reply')}
            </button>
          )}
          {moderator && sender && (
            <ConfirmButton
              label={t('chat.delete')}
              ariaLabel={t('chat.deleteLabel', { name })}
              confirmLabel={t('chat.confirmDelete')}
              confirmAria={t('chat.confirmDeleteLabel', { name })}
              cancelLabel={t('common.cancel')}
              onConfirm={remove}
            />
          )}
          {moderator && sender && !isOwn && sender.role === 'listener' && (
            <ConfirmButton
              label={t('chat.block')}
              ariaLabel={t('chat.blockLabel', { name })}
              confirmLabel={t('chat.confirmBlock')}
              confirmAria={t('chat.confirmBlockLabel', { name })}
              cancelLabel={t('common.cancel')}
              onConfirm={block}
            />
          )}
        </div>
      </div>
    </article>
  );
}
