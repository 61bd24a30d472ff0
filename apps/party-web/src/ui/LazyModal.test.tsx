// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { SCRIPT_LOAD_TIMEOUT_MS } from '@fanfare/protocol';
import { createI18n } from '../i18n/setup.ts';

/**
 * Listening-party §8 and §9: "chunk or CSS load failure raises a load error (timeout 120 s)". The
 * lazily loaded modal chunk (and the stylesheet Vite loads before it) is replaced by one that
 * never arrives or fails, and the app must show its load error: at once on a failure, after
 * exactly 120 s when nothing arrives.
 */
beforeEach(() => {
  vi.resetModules();
});
afterEach(() => {
  cleanup();
  vi.doUnmock('./ThemedModal.tsx');
  vi.useRealTimers();
});

async function renderModalWithChunk(chunk: () => Promise<unknown>) {
  vi.doMock('./ThemedModal.tsx', chunk);
  const { LazyModal } = await import('./LazyModal.tsx');
  const i18n = await createI18n('de', { strict: true });
  render(
    <I18nextProvider i18n={i18n}>
      <LazyModal title="Video" onClose={() => undefined}>
        <p>content</p>
      </LazyModal>
    </I18nextProvider>,
  );
}

const loadFailed = () => screen.queryByRole('alert');

describe('load error of a lazily loaded chunk (listening-party §8, §9 script load timeout)', () => {
  it(`a chunk that never arrives shows the load error after ${SCRIPT_LOAD_TIMEOUT_MS / 1000} s, not before`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await renderModalWithChunk(() => new Promise(() => undefined));
    await act(async () => vi.advanceTimersByTimeAsync(SCRIPT_LOAD_TIMEOUT_MS - 1_000));
    expect(loadFailed()).toBeNull();
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    expect(loadFailed()?.textContent).toContain('Da ist etwas schiefgelaufen');
    expect(screen.getByRole('button', { name: 'Neu laden' })).toBeTruthy();
  });

  it("a stylesheet that fails to load (Vite's CSS preload error) shows the load error at once", async () => {
    await renderModalWithChunk(async () => {
      throw new Error('Unable to preload CSS for /assets/ThemedModal-abc123.css');
    });
    await act(async () => undefined);
    expect((await screen.findByRole('alert')).textContent).toContain('Da ist etwas schiefgelaufen');
  });
});
