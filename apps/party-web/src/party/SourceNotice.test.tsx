// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { SOURCE_REASONS } from '@fanfare/protocol';
import { createI18n } from '../i18n/setup.ts';
import { sourceDe, sourceEn } from '../i18n/source.ts';
import { SourceNotice } from './SourceNotice.tsx';

afterEach(cleanup);

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));
}

describe('the effective-source notice: what the fan hears, why, and how to get their own provider back', () => {
  it('names the label stream, the free tier and the Premium upgrade (de)', async () => {
    const i18n = await createI18n('de', { strict: true });
    render(
      <I18nextProvider i18n={i18n}>
        <SourceNotice choice={{ kind: 'umg_hls', source: 'label_stream', reason: 'free_tier' }} isPreviewEnded={false} />
      </I18nextProvider>,
    );
    const notice = screen.getByTestId('source-notice');
    expect(notice.getAttribute('role')).toBe('status');
    expect(notice.textContent).toContain('Du hörst den Stream des Labels');
    expect(notice.textContent).toContain('Spotify Free');
    expect(notice.textContent).toContain('Mit Spotify Premium');
    expect(screen.queryByTestId('preview-ended')).toBeNull();
  });

  it('on a phone the why is one tap away (the chat stays in view); on a wide screen it is open', async () => {
    const i18n = await createI18n('de', { strict: true });
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
    try {
      render(
        <I18nextProvider i18n={i18n}>
          <SourceNotice choice={{ kind: 'umg_hls', source: 'label_stream', reason: 'no_sdk' }} isPreviewEnded={false} />
        </I18nextProvider>,
      );
      expect(screen.getByTestId('source-notice').querySelector('details')!.open).toBe(false);
      expect(screen.getByText('Warum?')).toBeTruthy();
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
    cleanup();
    render(
      <I18nextProvider i18n={i18n}>
        <SourceNotice choice={{ kind: 'umg_hls', source: 'label_stream', reason: 'no_sdk' }} isPreviewEnded={false} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('source-notice').querySelector('details')!.open).toBe(true);
  });

  it('on previews says when the clip has ended (en)', async () => {
    const i18n = await createI18n('en', { strict: true });
    render(
      <I18nextProvider i18n={i18n}>
        <SourceNotice choice={{ kind: 'umg_hls', source: 'preview', reason: 'no_subscription' }} isPreviewEnded />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('source-notice').textContent).toContain("You're hearing 30-second previews");
    expect(screen.getByTestId('preview-ended').textContent).toContain('preview has ended');
  });

  it('says nothing when the own provider or the party stream plays', async () => {
    const i18n = await createI18n('de', { strict: true });
    render(
      <I18nextProvider i18n={i18n}>
        <SourceNotice choice={{ kind: 'spotify', source: 'provider', reason: 'provider_ok' }} isPreviewEnded={false} />
        <SourceNotice choice={{ kind: 'umg_hls', source: 'label_stream', reason: 'party_stream' }} isPreviewEnded={false} />
      </I18nextProvider>,
    );
    expect(screen.queryByTestId('source-notice')).toBeNull();
  });

  it('has every string in de and en, a why and a hint for every fallback reason', () => {
    expect(keys(sourceEn).sort()).toEqual(keys(sourceDe).sort());
    for (const reason of SOURCE_REASONS.filter((r) => r !== 'provider_ok' && r !== 'party_stream')) {
      expect(sourceDe.why[reason]).toBeTruthy();
      expect(sourceEn.hint[reason]).toBeTruthy();
    }
  });
});
