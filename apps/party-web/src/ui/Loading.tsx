import { useTranslation } from 'react-i18next';

/** The loading animation shown until initialisation is done (spec 2). */
export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="loading" role="status" aria-live="polite">
      <div className="loading__bars" aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
        <span />
      </div>
      <span className="sr-only">{t('common.loading')}</span>
    </div>
  );
}
