import { lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from '../app/router.tsx';
import { useParty } from '../app/context.tsx';
import { Chat } from '../party/Chat.tsx';
import { NowPlaying } from '../party/NowPlaying.tsx';
import { TrackList } from '../party/TrackList.tsx';
import { usePlayer } from '../party/usePlayer.ts';
import { loadWithTimeout } from '../rules/loadTimeout.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { LoadErrorBoundary } from '../ui/LoadErrorBoundary.tsx';
import { LoadFailed } from '../ui/LoadFailed.tsx';

// The host controls load only for hosts and admins: a fan's player does not carry them.
const HostPanel = lazy(() => loadWithTimeout(() => import('../party/host/HostPanel.tsx')));

/** Player (spec 2): synchronized listening, chat, votes, polls and quizzes; host tools for hosts. */
export default function Player() {
  const { t } = useTranslation();
  const token = useParty((s) => s.token);
  const user = useParty((s) => s.user);
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  const quizTotal = useParty((s) => s.messages.filter((m) => m.type === 'quiz_question').length);
  const myScore = useParty((s) => (s.user ? (s.scores[s.user.id] ?? s.user.quiz_score) : 0));
  const audio = useRef<HTMLAudioElement>(null);
  const { playback, kind, source, isPreviewEnded } = usePlayer(audio, !!token && !!user);
  if (!token || !user) return <Navigate to="/" replace />;
  return (
    <div className="player-layout">
      <audio ref={audio} data-testid="party-audio" aria-hidden="true" />
      <div className="player-layout__playing">
        <NowPlaying playback={playback} kind={kind} source={source} isPreviewEnded={isPreviewEnded} />
      </div>
      <div className="player-layout__chat">
        <Chat />
      </div>
      <div className="player-layout__extras">
        {quizTotal > 0 && (
          <p className="card quiz-score" data-testid="my-quiz-score">
            {t('player.myScore', { score: myScore })}
          </p>
        )}
        {/* Hosts see their controls first, within a 1280×800 screen (issue 15). */}
        {isHost && (
          <LoadErrorBoundary fallback={<LoadFailed />}>
            <Suspense fallback={null}>
              <HostPanel />
            </Suspense>
          </LoadErrorBoundary>
        )}
        <TrackList compact />
      </div>
    </div>
  );
}
