import { useTranslation } from 'react-i18next';

/** The load error (spec 8): a chunk did not arrive; reloading usually helps. */
export function LoadFailed() {
  const { t } = useTranslation();
  return (
    <div className="global-error" role="alert">
      <h1>{t('error.title')}</h1>
      <p>{t('error.load')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </div>
  );
}
