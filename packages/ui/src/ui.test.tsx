// @vitest-environment happy-dom
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { BUTTON_FONT_SIZE_PX, CARD_DEFAULT, MODAL_OVERLAY_OPACITY_DEFAULT } from '@fanfare/protocol';
import {
  Button,
  Card,
  FONT_CHOICES,
  FONT_STACKS,
  FullScreenModal,
  Icon,
  ICON_NAMES,
  NO_SCROLL_CLASS,
  ProviderBadge,
  ServiceIconRow,
  buttonFontSizePx,
  deviceIcon,
  fontStack,
  lockBodyScroll,
} from './index.ts';

afterEach(() => cleanup());

describe('Button', () => {
  it('campaign spec §9 button font size: 26px when big', () => {
    expect(BUTTON_FONT_SIZE_PX.big).toBe(26);
    for (const font of FONT_CHOICES) expect(buttonFontSizePx(true, font)).toBe(26);
    render(<Button big>Go</Button>);
    expect(screen.getByRole('button', { name: 'Go' }).style.fontSize).toBe('26px');
  });

  it('campaign spec §9 button font size: otherwise 16px or 18px by font', () => {
    expect(buttonFontSizePx(false, 'mono')).toBe(16);
    expect(buttonFontSizePx(false, 'merriweather')).toBe(16);
    expect(buttonFontSizePx(false, 'poppins')).toBe(18);
    expect(buttonFontSizePx(false, 'rubik')).toBe(18);
    expect(buttonFontSizePx(false, 'playfair')).toBe(18);
    expect(buttonFontSizePx(false, undefined)).toBe(18);
    for (const font of FONT_CHOICES) expect([16, 18]).toContain(buttonFontSizePx(false, font));
    render(<Button font="mono">Small</Button>);
    expect(screen.getByRole('button', { name: 'Small' }).style.fontSize).toBe('16px');
  });

  it('is a type=button by default so it never submits a form by accident', () => {
    render(<Button>Plain</Button>);
    expect(screen.getByRole('button', { name: 'Plain' }).getAttribute('type')).toBe('button');
  });
});

describe('Card', () => {
  it('campaign spec §9 card default: height 285px, corner radius 20px', () => {
    expect(CARD_DEFAULT).toEqual({ height: '285px', borderRadius: '20px' });
    const { container } = render(<Card text="Hello" />);
    const card = container.querySelector<HTMLElement>('.ffui-card')!;
    // Spec §9 says height: the card is exactly 285 px high, not at least.
    expect(card.style.height).toBe('285px');
    expect(card.style.minHeight).toBe('');
    expect(card.style.borderRadius).toBe('20px');
  });

  it('campaign spec §2 card: optional text and a button that emits a click', () => {
    const onClick = vi.fn();
    render(<Card text="Tickets on sale" buttonLabel="Buy" onButtonClick={onClick} />);
    expect(screen.getByText('Tickets on sale')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Buy' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('campaign spec §2 card: without text or button it renders neither', () => {
    const { container } = render(<Card />);
    expect(container.querySelector('.ffui-card__text')).toBeNull();
    expect(container.querySelector('button')).toBeNull();
  });
});

describe('FullScreenModal', () => {
  it('campaign spec §2 overlays add and remove the no-scroll class on the body', () => {
    const { unmount } = render(<FullScreenModal title="Hi">x</FullScreenModal>);
    expect(document.body.classList.contains(NO_SCROLL_CLASS)).toBe(true);
    expect(NO_SCROLL_CLASS).toBe('no-scroll');
    unmount();
    expect(document.body.classList.contains('no-scroll')).toBe(false);
  });

  it('campaign spec §2 no-scroll stays while another overlay is still open', () => {
    const releaseA = lockBodyScroll();
    const releaseB = lockBodyScroll();
    releaseA();
    releaseA();
    expect(document.body.classList.contains('no-scroll')).toBe(true);
    releaseB();
    expect(document.body.classList.contains('no-scroll')).toBe(false);
  });

  it('campaign spec §9 modal overlay opacity default 0.6, and it can be set', () => {
    expect(MODAL_OVERLAY_OPACITY_DEFAULT).toBe(0.6);
    const { unmount } = render(<FullScreenModal title="A">x</FullScreenModal>);
    expect(screen.getByTestId('ffui-modal-overlay').style.opacity).toBe('0.6');
    unmount();
    render(<FullScreenModal title="B" overlayOpacity={0.3}>x</FullScreenModal>);
    expect(screen.getByTestId('ffui-modal-overlay').style.opacity).toBe('0.3');
  });

  it('campaign spec §2 modal: blurred background image when given', () => {
    const { container } = render(<FullScreenModal title="A" backgroundImage="/cover.jpg">x</FullScreenModal>);
    expect(container.querySelector<HTMLElement>('.ffui-modal__background')!.style.backgroundImage).toContain('/cover.jpg');
  });

  it('campaign spec §2 modal: optional close control, also Escape; none without onClose', () => {
    const onClose = vi.fn();
    const { unmount } = render(
      <FullScreenModal title="Closable" onClose={onClose} closeLabel="Close it">
        x
      </FullScreenModal>,
    );
    expect(screen.getByRole('dialog', { name: 'Closable' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close it' }));
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(onClose).toHaveBeenCalledTimes(2);
    unmount();
    render(<FullScreenModal title="Fixed">x</FullScreenModal>);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('icons and services', () => {
  it('campaign spec §2 icon set: providers, arrows, hamburger, ticket, play, pause, check, devices, camera, sticker, socials, video', () => {
    const needed = ['spotify', 'apple', 'arrowLeft', 'arrowRight', 'hamburger', 'ticket', 'play', 'pause', 'check', 'smartphone', 'laptop', 'speaker', 'console', 'camera', 'sticker', 'instagram', 'facebook', 'tiktok', 'youtube', 'x', 'video'];
    for (const name of needed) expect(ICON_NAMES).toContain(name);
  });

  it('an icon is hidden from screen readers unless it has a label', () => {
    const { container } = render(
      <>
        <Icon name="play" />
        <Icon name="pause" label="Pause" />
      </>,
    );
    expect(container.querySelector('[data-icon="play"]')!.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('img', { name: 'Pause' })).toBeTruthy();
  });

  it('campaign spec §3 device types map to the device icons', () => {
    expect(deviceIcon('Smartphone')).toBe('smartphone');
    expect(deviceIcon('Computer')).toBe('laptop');
    expect(deviceIcon('GameConsole')).toBe('console');
    expect(deviceIcon('Speaker')).toBe('speaker');
    expect(deviceIcon('CastVideo')).toBe('speaker');
  });

  it('campaign spec §2 a row of circular icons for the enabled services', () => {
    render(<ServiceIconRow services={['spotify', 'apple']} label="Listen on" />);
    const row = screen.getByRole('list', { name: 'Listen on' });
    expect(row.querySelectorAll('li')).toHaveLength(2);
    expect(screen.getByRole('img', { name: 'Spotify' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Apple Music' })).toBeTruthy();
  });

  it('campaign spec §2 a service badge for the two streaming providers', () => {
    render(
      <>
        <ProviderBadge service="spotify" />
        <ProviderBadge service="apple" prefix="via" />
      </>,
    );
    expect(screen.getByText('Spotify')).toBeTruthy();
    expect(screen.getByText('via Apple Music')).toBeTruthy();
  });
});

describe('fonts', () => {
  it('campaign spec §2 font choices: poppins, mono, rubik, playfair, merriweather, each with a stack', () => {
    expect([...FONT_CHOICES].sort()).toEqual(['merriweather', 'mono', 'playfair', 'poppins', 'rubik']);
    expect(FONT_STACKS.playfair.startsWith("'Playfair Display'")).toBe(true);
    expect(fontStack('nope')).toBe(FONT_STACKS.poppins);
    expect(fontStack('rubik')).toBe(FONT_STACKS.rubik);
  });

  it('fonts.css loads the five families from the installed @fontsource packages, no font CDN', () => {
    // The suite runs from the repository root (happy-dom gives import.meta.url no file scheme).
    const uiDir = path.resolve('packages/ui');
    const css = readFileSync(path.join(uiDir, 'src/fonts.css'), 'utf8');
    expect(css).not.toMatch(/https?:\/\//);
    const imports = [...css.matchAll(/@import '([^']+)'/g)].map((m) => m[1]!);
    for (const pkg of ['poppins', 'rubik', 'playfair-display', 'merriweather', 'roboto-mono']) expect(imports.some((i) => i.startsWith(`@fontsource/${pkg}/`))).toBe(true);
    // Each imported face file exists, so the build bundles it and serves it from our origin.
    const requireFromUi = createRequire(path.join(uiDir, 'package.json'));
    for (const spec of imports) {
      const file = requireFromUi.resolve(spec);
      const faces = [...readFileSync(file, 'utf8').matchAll(/url\((\.\/files\/[^)]+\.woff2)\)/g)].map((m) => m[1]!);
      expect(faces.length).toBeGreaterThan(0);
      for (const face of faces) expect(existsSync(path.join(path.dirname(file), face))).toBe(true);
    }
  });
});
