// @vitest-environment happy-dom
import { BRIDGE_CHANNEL } from '@fanfare/protocol';
import { act, cleanup, render, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCampaign, type CampaignInstance } from '../campaign.ts';
import { campaignFixture, fakeEnv, tokenFixture } from '../test/fakes.ts';
import { CampaignProvider, useCampaign, useLogin, useNewsletter, usePlayback, useTiming, useTokenGate, useTranslation } from './index.ts';

const EDITOR = 'https://cms.fanfare.example';

function setup(href?: string) {
  const f = fakeEnv({ parentOrigin: EDITOR, href });
  const instance = createCampaign({ env: f.env, campaign: campaignFixture({ newsletters: [{ id: 'n', enabled: true, signup_mode: 'implicit', locales: { de: { addressbook_id: 'a', form_id: 'f' } } }] }) });
  const wrapper = ({ children }: { children: ReactNode }) => <CampaignProvider campaign={instance}>{children}</CampaignProvider>;
  return { ...f, instance, wrapper };
}

describe('React binding', () => {
  afterEach(() => cleanup());

  it('hooks need a CampaignProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useLogin())).toThrow('CampaignProvider');
    vi.restoreAllMocks();
  });

  it('useCampaign follows the editor: campaignInfo:v2 and theme re-render with the new values', async () => {
    const { instance, wrapper, receive } = setup();
    const { result } = renderHook(() => useCampaign(), { wrapper });
    expect(result.current.campaign.name).toBe('Demo');
    expect(result.current.isEmbedded).toBe(true);
    await act(async () => {
      receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'campaignInfo:v2', campaign: campaignFixture({ name: 'Edited' }), simulation: { locale: 'en' } });
      receive(EDITOR, { channel: BRIDGE_CHANNEL, type: 'theme', theme: { font: 'rubik' } });
      await instance.bridge.settled();
    });
    expect(result.current.campaign.name).toBe('Edited');
    expect(result.current.simulation).toEqual({ locale: 'en' });
    expect(result.current.theme).toEqual({ font: 'rubik' });
    instance.destroy();
  });

  it('useLogin re-renders on login (callback) and logout', async () => {
    const q = new URLSearchParams({ ...tokenFixture(), service_expires_at: '1900000000000', auth_service: 'spotify', state: 'cms_account_auth' });
    q.delete('service');
    const { instance, wrapper } = setup(`https://cms.fanfare.example/c/a/b?${q}`);
    const { result } = renderHook(() => useLogin(), { wrapper });
    expect(result.current.isLoggedIn).toBe(false);
    await act(async () => instance.login.init());
    expect(result.current.token?.account_id).toBe('acct-1');
    await act(async () => result.current.logout());
    expect(result.current.isLoggedIn).toBe(false);
    instance.destroy();
  });

  it('useNewsletter reports submitting, then sent or error; the banner can be dismissed', async () => {
    const { instance, wrapper } = setup('https://cms.fanfare.example/c/a/b?newsletter_state=success&locale=en');
    const signup = vi.fn(async () => undefined);
    (instance.api as unknown as { newsletterSignup: unknown }).newsletterSignup = signup;
    const { result } = renderHook(() => useNewsletter(), { wrapper });
    await act(async () => instance.start().catch(() => undefined));
    expect(result.current.banner?.message).toMatch(/^Your newsletter subscription was successful/);
    await act(async () => void (await result.current.signup({ email: 'fan@example.com', consents: [], locale: 'de' })));
    expect(result.current.status).toBe('sent');
    signup.mockRejectedValueOnce(new Error('Request failed with status code 500'));
    await act(async () => void (await result.current.signup({ email: 'fan@example.com', consents: [], locale: 'de' })));
    expect(result.current).toMatchObject({ status: 'error', error: new Error('Request failed with status code 500') });
    act(() => result.current.dismissBanner());
    expect(result.current.banner).toBeNull();
    instance.destroy();
  });

  it('useTokenGate, useTiming, useTranslation and usePlayback subscribe to the core', async () => {
    const { instance, wrapper } = setup();
    const { result } = renderHook(() => ({ gate: useTokenGate(), timing: useTiming(), i18n: useTranslation(), playback: usePlayback() }), { wrapper });
    expect(result.current.timing.phase).toBe('upcoming');
    expect(result.current.gate.hasAccess).toBeNull();
    await act(async () => {
      instance.timing.start();
      await instance.tokenGate.check();
      instance.i18n.apply({ default_locale: 'de', locales: [], items: [{ locale: 'en', messages: { hi: 'Hi {name}' } }] });
      instance.i18n.setLocale('en');
      instance.playback.store.update({ isPaused: false });
    });
    expect(result.current.timing).toEqual({ phase: 'running', hasStarted: true, hasEnded: false });
    expect(result.current.gate.hasAccess).toBe(true);
    expect(result.current.i18n.locale).toBe('en');
    expect(result.current.i18n.t('hi', { name: 'Mara' })).toBe('Hi Mara');
    expect(result.current.playback.state.isPaused).toBe(false);
    instance.destroy();
  });

  it('two providers on one page render two independent campaigns', () => {
    const a = setup();
    const b = setup();
    function Name() {
      const { state } = usePlayback();
      return <span>{state.isPaused ? 'paused' : 'playing'}</span>;
    }
    const view = render(
      <>
        <CampaignProvider campaign={a.instance}><Name /></CampaignProvider>
        <CampaignProvider campaign={b.instance}><Name /></CampaignProvider>
      </>,
    );
    act(() => a.instance.playback.store.update({ isPaused: false }));
    expect(view.container.textContent).toBe('playingpaused');
    for (const i of [a.instance, b.instance] as CampaignInstance[]) i.destroy();
  });
});
