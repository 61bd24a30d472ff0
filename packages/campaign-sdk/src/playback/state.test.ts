import { describe, expect, it } from 'vitest';
import { PlaybackStore, initialPlaybackState, isProgressUpdateDue } from './state.ts';

describe('playback state model', () => {
  it('campaign spec §3: defaults (no track, paused, repeat off, no shuffle, progress 0, not loading, volume 1, supports volume)', () => {
    expect(initialPlaybackState()).toEqual({
      currentTrack: null,
      isPaused: true,
      repeatMode: 'off',
      isShuffle: false,
      progressMs: 0,
      isLoading: false,
      volume: 1,
      supportsVolume: true,
    });
  });

  it('campaign spec §4: every change is broadcast as a document event; an update that changes nothing is not', () => {
    const sent: unknown[] = [];
    const store = new PlaybackStore((s) => sent.push(s));
    store.update({ isPaused: false });
    store.update({ isPaused: false });
    store.update({ volume: 0.5 });
    expect(sent).toEqual([
      { ...initialPlaybackState(), isPaused: false },
      { ...initialPlaybackState(), isPaused: false, volume: 0.5 },
    ]);
  });

  it('campaign spec §9: progress updates when time moves back or by at least 1000 ms', () => {
    expect(isProgressUpdateDue(5000, 5999)).toBe(false);
    expect(isProgressUpdateDue(5000, 6000)).toBe(true);
    expect(isProgressUpdateDue(5000, 4999)).toBe(true);
    const store = new PlaybackStore(() => undefined);
    store.updateProgress(999);
    expect(store.state.progressMs).toBe(0);
    store.updateProgress(1000);
    store.updateProgress(1500);
    expect(store.state.progressMs).toBe(1000);
    store.updateProgress(200);
    expect(store.state.progressMs).toBe(200);
    store.updateProgress(700, true);
    expect(store.state.progressMs).toBe(700);
  });

  it('subscribers see each change until they unsubscribe', () => {
    const store = new PlaybackStore(() => undefined);
    const seen: boolean[] = [];
    const off = store.subscribe((s) => seen.push(s.isShuffle));
    store.update({ isShuffle: true });
    off();
    store.update({ isShuffle: false });
    expect(seen).toEqual([true]);
  });

  it('a change of the original provider event alone is no change; reset returns to the defaults and broadcasts', () => {
    const sent: unknown[] = [];
    const store = new PlaybackStore((s) => sent.push(s));
    store.update({ originalEvent: { raw: 1 } });
    expect(sent).toEqual([]);
    store.update({ isPaused: false, originalEvent: { raw: 2 } });
    expect(sent).toHaveLength(1);
    store.reset();
    expect(sent).toHaveLength(2);
    expect(store.state).toMatchObject(initialPlaybackState());
  });

  it('progress readings are rounded to whole ms and never below 0; destroy drops the subscribers', () => {
    const store = new PlaybackStore(() => undefined);
    store.updateProgress(2500.6);
    expect(store.state.progressMs).toBe(2501);
    store.updateProgress(-50);
    expect(store.state.progressMs).toBe(0);
    const seen: number[] = [];
    store.subscribe((s) => seen.push(s.progressMs));
    store.destroy();
    store.updateProgress(5000);
    expect(seen).toEqual([]);
    expect(store.state.progressMs).toBe(5000);
  });
});
