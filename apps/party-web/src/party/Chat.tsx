import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { isArtistMessage, needsExactOlderPage, olderMessagesQuery } from '../rules/chat.ts';
import { ChatMessageView } from './ChatMessageView.tsx';
import { Composer } from './Composer.tsx';

type Filter = 'all' | 'artist';

/** The chat (spec 4): all messages or the artist filter, older messages on demand, the composer. */
export function Chat() {
  const { t } = useTranslation();
  const services = useServices();
  const messages = useParty((s) => s.messages);
  const me = useParty((s) => s.user?.id ?? null);
  const [filter, setFilter] = useState<Filter>('all');
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [noMore, setNoMore] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);
  const shown = filter === 'artist' ? messages.filter((m) => isArtistMessage(m, me)) : messages;

  useLayoutEffect(() => {
    const el = listRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [shown.length]);
  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const onScroll = () => {
      stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    };
    el.addEventListener('scroll', onScroll);
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  /**
   * Older messages (spec 9): ask for 200 before the oldest time rounded up to 30 s, keep the newest
   * 20 not present. The cursor carries the oldest message's seq_id (issue 10), and a full page with
   * nothing new is asked for again from the exact edge.
   */
  const loadOlder = async () => {
    const oldest = messages[0];
    if (!oldest) return;
    setLoadingOlder(true);
    stick.current = false;
    try {
      const fetchBefore = async (mode: 'rounded' | 'exact') => {
        const res = await services.api().call('listChatMessages', { params: { id: services.partyId }, query: olderMessagesQuery(oldest, mode) });
        const count = services.store.getState().messages.length;
        services.store.getState().mergeOlder(res.items);
        return { size: res.items.length, added: services.store.getState().messages.length - count };
      };
      let page = await fetchBefore('rounded');
      if (needsExactOlderPage(page.size, page.added)) page = await fetchBefore('exact');
      if (page.added === 0) setNoMore(true);
    } catch {
      // The button stays; the fan may try again.
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <section className="chat" aria-labelledby="chat-title">
      <div className="chat__head">
        <h2 id="chat-title">{t('chat.title')}</h2>
        <div className="tabs" role="group" aria-label={t('chat.filterLabel')}>
          {(['all', 'artist'] as const).map((f) => (
            <button key={f} type="button" className="tab" aria-pressed={filter === f} onClick={() => setFilter(f)}>
              {t(`chat.filter.${f}`)}
            </button>
          ))}
        </div>
      </div>
      <div className="chat__list" ref={listRef} role="log" aria-live="polite" aria-relevant="additions" tabIndex={0} aria-label={t('chat.logLabel')}>
        {messages.length > 0 && !noMore && (
          <button type="button" className="link-button chat__older" onClick={() => void loadOlder()} disabled={loadingOlder}>
            {loadingOlder ? t('common.pleaseWait') : t('chat.older')}
          </button>
        )}
        {shown.length === 0 && <p className="hint chat__empty">{filter === 'artist' ? t('chat.emptyArtist') : t('chat.empty')}</p>}
        {shown.map((m) => (
          <ChatMessageView key={m.id} message={m} onReply={setReplyTo} replyTo={m.reply_to_message_id ? (byId.get(m.reply_to_message_id) ?? null) : null} />
        ))}
      </div>
      <Composer replyTo={replyTo} onCancelReply={() => setReplyTo(null)} onSent={() => { stick.current = true; setReplyTo(null); }} />
    </section>
  );
}
