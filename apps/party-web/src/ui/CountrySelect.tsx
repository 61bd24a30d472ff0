import { useTranslation } from 'react-i18next';
import { COUNTRIES } from '../screens/countries.ts';

/** A country picker with "no answer" first (spec 5: an empty country is omitted from payloads). */
export function CountrySelect(props: { id: string; name?: string; value: string; onChange: (country: string) => void }) {
  const { t } = useTranslation();
  return (
    <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      <option value="">{t('register.countryNone')}</option>
      {COUNTRIES.map((c) => (
        <option key={c} value={c}>
          {t(`country.${c}`)}
        </option>
      ))}
    </select>
  );
}
