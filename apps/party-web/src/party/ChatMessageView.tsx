import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { stickerGlyph } from '../ui/stickers.ts';
import { useUi } from '../ui/uiContext.tsx';
import { PollCard, ScoreboardCard } from './PollCard.tsx';

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
          {kind === 'artist' && <span className="badge">{t(`role.${sender!.role}`)}</span>}
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
        {m.text && <p className="msg__text">{m.text}</p>}
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
            <button type="button" className="link-button link-button--danger" onClick={() => void remove()} aria-label={t('chat.deleteLabel', { name })}>
              {t('chat.delete')}
            </button>
          )}
          {moderator && sender && !isOwn && sender.role === 'listener' && (
            <button type="button" className="link-button link-button--danger" onClick={() => void block()} aria-label={t('chat.blockLabel', { name })}>
              {t('chat.block')}
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
