import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParty, useServices } from '../app/context.tsx';
import { isAlbumFinished } from '../rules/sync.ts';
import { resultShares } from '../rules/chat.ts';
import { heldVotes, shownVoteCounts } from '../rules/votes.ts';

/** The party's tracks with live vote counts drawn as bars; fans vote while voting is enabled. */
export function TrackList(props: { compact?: boolean }) {
  const { t } = useTranslation();
  const services = useServices();
  const tracks = useParty((s) => s.tracks);
  const user = useParty((s) => s.user);
  const votingEnabled = useParty((s) => s.party?.voting_enabled ?? false);
  // After the album has finished nothing is "now playing" (issue 15).
  const currentId = useParty((s) => (isAlbumFinished(s.status, s.tracks) ? null : (s.status?.track.id ?? null)));
  const [error, setError] = useState(false);
  if (tracks.length === 0) return null;
  // Only unplayed tracks hold a vote mark and a count: a played track's vote is spent.
  const counts = shownVoteCounts(tracks);
  const shares = resultShares(counts);
  const voted = heldVotes(tracks, user?.track_votes ?? []);

  const toggle = async (trackId: string) => {
    if (!user) return;
    setError(false);
    const isVoted = voted.has(trackId);
    try {
      const res = await services.api().call(isVoted ? 'unvoteTrack' : 'voteTrack', { params: { id: services.partyId, trackId } });
      services.store.getState().applyVote(res);
    } catch {
      setError(true);
    }
  };

  return (
    <section className={`card tracks${props.compact ? ' tracks--compact' : ''}`} aria-labelledby="tracks-title">
      <h2 id="tracks-title">{votingEnabled ? t('tracks.titleVote') : t('tracks.title')}</h2>
      {votingEnabled && <p className="hint">{t('tracks.voteHint')}</p>}
      <ol className="tracks__list">
        {tracks.map((tr, i) => {
          const isVoted = voted.has(tr.id);
          return (
            <li key={tr.id} className={`track${tr.id === currentId ? ' is-current' : ''}${tr.played ? ' is-played' : ''}`}>
              <div className="track__text">
                <span className="track__name">{tr.name}</span>
                <span className="track__artist">{tr.artists.join(', ')}</span>
                {tr.id === currentId && <span className="badge">{t('tracks.nowPlaying')}</span>}
              </div>
              {votingEnabled && !tr.played && (
                <div className="track__vote">
                  <div className="bar" aria-hidden="true">
                    <span style={{ width: `${shares[i]}%` }} />
                  </div>
                  <span className="track__votes">{t('tracks.votes', { count: counts[i] })}</span>
                  <button
                    type="button"
                    className={`button button--small${isVoted ? '' : ' button--ghost'}`}
                    aria-pressed={isVoted}
                    disabled={!user}
                    onClick={() => void toggle(tr.id)}
                    aria-label={isVoted ? t('tracks.unvoteLabel', { name: tr.name }) : t('tracks.voteLabel', { name: tr.name })}
                  >
                    {isVoted ? t('tracks.voted') : t('tracks.vote')}
                  </button>
                </div>
              )}
              {votingEnabled && tr.played && tr.id !== currentId && <span className="track__played">{t('tracks.played')}</span>}
            </li>
          );
        })}
      </ol>
      {error && (
        <p className="form-error" role="alert">
          {t('tracks.voteError')}
        </p>
      )}
    </section>
  );
}
