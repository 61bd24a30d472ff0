import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@fanfare/client';
import { REACTIONS, type Reaction } from '@fanfare/protocol';
import { useParty, useServices } from '../app/context.tsx';
import { retryAfterSeconds } from '../rules/errors.ts';

/** How each reaction looks. */
export const REACTION_EMOJI: Record<Reaction, string> = { fire: '🔥', heart: '❤️', clap: '👏', wow: '😮', party: '🎉' };

/**
 * Quick reactions on the current track (issue 15): a small fixed set; the server sums everyone's
 * reactions per second and every fan sees them as a live burst.
 */
export function Reactions() {
  const { t } = useTranslation();
  const services = useServices();
  const bursts = useParty((s) => s.reactionBursts);
  const [waitSeconds, setWaitSeconds] = useState<number | null>(null);
  const react = async (reaction: Reaction) => {
    setWaitSeconds(null);
    try {
      await services.api().call('sendReaction', { params: { id: services.partyId }, body: { reaction } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) setWaitSeconds(retryAfterSeconds(err.body) ?? 1);
    }
  };
  return (
    <div className="reactions" data-testid="reactions">
      <div className="reactions__bar" role="group" aria-label={t('reactions.label')}>
        {REACTIONS.map((r) => (
          <button key={r} type="button" className="reactions__button" aria-label={t('reactions.send', { name: t(`reactions.${r}`) })} onClick={() => void react(r)}>
            <span aria-hidden="true">{REACTION_EMOJI[r]}</span>
          </button>
        ))}
      </div>
      {waitSeconds !== null && (
        <p className="hint" role="status">
          {t('reactions.rateLimited', { seconds: waitSeconds })}
        </p>
      )}
      <div className="reactions__bursts" aria-hidden="true">
        {bursts.map((b) => (
          <span key={b.id} className="reactions__burst" data-testid="reaction-burst" data-reaction={b.reaction} style={{ left: `${(b.id * 37) % 80}%` }}>
            {REACTION_EMOJI[b.reaction]}
            {b.count > 1 && <small>×{b.count}</small>}
          </span>
        ))}
      </div>
    </div>
  );
}
