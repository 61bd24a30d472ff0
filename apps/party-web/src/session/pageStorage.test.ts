import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../test/fixtures.ts';
import { pageStorage } from './pageStorage.ts';

describe('pageStorage', () => {
  it('is the page\'s localStorage when the browser allows it', () => {
    const local = memoryStorage();
    expect(pageStorage({ localStorage: local })).toBe(local);
  });

  it('keeps values for the page\'s lifetime when the browser refuses localStorage (a frame on another site with third-party storage blocked)', () => {
    const refusing = {
      get localStorage(): Storage {
        throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
      },
    };
    const storage = pageStorage(refusing);
    storage.setItem('fanfare.token', 't');
    expect(storage.getItem('fanfare.token')).toBe('t');
    expect(storage.length).toBe(1);
  });
});
