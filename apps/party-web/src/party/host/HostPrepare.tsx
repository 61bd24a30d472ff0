import { useTranslation } from 'react-i18next';
import { HostSection } from './HostSection.tsx';
import { PollForm } from './PollForm.tsx';
import { PreparedProvider } from './prepared.tsx';
import { PreparedList } from './PreparedList.tsx';
import { QuizForm } from './QuizForm.tsx';

/**
 * In the waiting room: the host sets up polls and quizzes for later, and starts them here (the
 * waiting room's chat is already open) or from the host panel once the party runs.
 */
export function HostPrepare() {
  const { t } = useTranslation();
  return (
    <section className="host-panel card" aria-labelledby="host-prepare-title" data-testid="host-prepare">
      <h2 id="host-prepare-title">{t('host.prepareTitle')}</h2>
      <p className="hint">{t('host.prepareLead')}</p>
      <PreparedProvider>
        <HostSection title={t('host.pollTitle')}>
          <PollForm prepare />
        </HostSection>
        <HostSection title={t('host.quizTitle')}>
          <QuizForm prepare />
        </HostSection>
        <PreparedList launch />
      </PreparedProvider>
    </section>
  );
}
