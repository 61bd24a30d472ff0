import { useTranslation } from 'react-i18next';
import { POLL_OPTIONS_MAX, POLL_OPTIONS_MIN } from '@fanfare/protocol';

/** Answer inputs for polls and quizzes (2 to 10); with `onCorrect`, a radio marks the correct one. */
export function OptionsEditor(props: { options: string[]; onChange: (o: string[]) => void; correct?: number; onCorrect?: (i: number) => void; name: string }) {
  const { t } = useTranslation();
  return (
    <fieldset className="field">
      <legend>{t('host.options')}</legend>
      {props.options.map((o, i) => (
        <div className="option-row" key={i}>
          {props.onCorrect && (
            <input type="radio" name={props.name} checked={props.correct === i} onChange={() => props.onCorrect!(i)} aria-label={t('host.correctOption', { n: i + 1 })} />
          )}
          <input
            aria-label={t('host.option', { n: i + 1 })}
            value={o}
            required
            onChange={(e) => props.onChange(props.options.map((x, j) => (j === i ? e.target.value : x)))}
          />
          {props.options.length > POLL_OPTIONS_MIN && (
            <button type="button" className="icon-button" aria-label={t('host.removeOption', { n: i + 1 })} onClick={() => props.onChange(props.options.filter((_, j) => j !== i))}>
              ✕
            </button>
          )}
        </div>
      ))}
      {props.options.length < POLL_OPTIONS_MAX && (
        <button type="button" className="link-button" onClick={() => props.onChange([...props.options, ''])}>
          {t('host.addOption')}
        </button>
      )}
    </fieldset>
  );
}
