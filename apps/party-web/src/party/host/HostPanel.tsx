import { useTranslation } from 'react-i18next';
import { useParty } from '../../app/context.tsx';
import { isHostOrAdmin } from '../../rules/roles.ts';
import { roleOf } from '../../state/store.ts';
import { BlockedFansList } from './BlockedFansList.tsx';
import { HostSection } from './HostSection.tsx';
import { PartyRunControls } from './PartyRunControls.tsx';
import { PollForm } from './PollForm.tsx';
import { PopupForm } from './PopupForm.tsx';
import { PreparedProvider, usePrepared } from './prepared.tsx';
import { PreparedList } from './PreparedList.tsx';
import { QuizForm } from './QuizForm.tsx';
import { ScoreboardForm } from './ScoreboardForm.tsx';
import { SentPopupNotice } from './SentPopupNotice.tsx';
import { SlowModeForm } from './SlowModeForm.tsx';

/**
 * Host and admin controls inside the app (spec 6): start, stop, end, popups, polls, quizzes,
 * scoreboards, slow mode and the blocked fans, one component each. The server checks every
 * action again.
 */
export function HostPanel() {
  const role = useParty((s) => roleOf(s));
  const blockedCount = useParty((s) => s.blockedUsers.length);
  // Only hosts and admins read the prepared list (the server refuses everyone else).
  if (!isHostOrAdmin(role)) return null;
  return (
    <PreparedProvider>
      <HostControls role={role} blockedCount={blockedCount} />
    </PreparedProvider>
  );
}

/** The panel's controls, for a host or admin. */
function HostControls({ role, blockedCount }: { role: ReturnType<typeof roleOf>; blockedCount: number }) {
  const { t } = useTranslation();
  const prepared = usePrepared();
  return (
    <aside className="host-panel card" aria-labelledby="host-title" data-testid="host-panel">
      <h2 id="host-title">{t('host.title', { role: t(`role.${role}`) })}</h2>
      <PartyRunControls />
      <SentPopupNotice />
      <HostSection title={t('host.popupTitle')}>
        <PopupForm />
      </HostSection>
      {/* Always there: the outcome of a start stays in view after the list empties. */}
      <HostSection title={t('host.preparedTitle', { count: prepared.items.length })} testId="host-prepared">
        <PreparedList launch />
      </HostSection>
      <HostSection title={t('host.pollTitle')}>
        <PollForm />
      </HostSection>
      <HostSection title={t('host.quizTitle')}>
        <QuizForm />
      </HostSection>
      <HostSection title={t('host.scoreboardTitle')}>
        <ScoreboardForm />
      </HostSection>
      <HostSection title={t('host.slowModeTitle')}>
        <SlowModeForm />
      </HostSection>
      <HostSection title={t('host.blockedTitle', { count: blockedCount })}>
        <BlockedFansList />
      </HostSection>
    </aside>
  );
}

export default HostPanel;
