import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** How long a poll or quiz question stays open, in seconds (the server closes it then). */
export function DurationField({ value, onChange }: { value: number; onChange: (seconds: number) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{t('host.duration')}</label>
      <input id={id} type="number" min={5} max={3600} value={value} onChange={(e) => onChange(Number(e.target.value))} />
    </div>
  );
}
