/** The README lists every event, storage key and error message the code defines. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDK_ERRORS } from './errors.ts';
import { DOCUMENT_EVENTS } from './events.ts';
import { MOCK_FLAGS } from './playback/mockPlayer.ts';
import { NEWSLETTER_BANNER_SHOWN_KEY, storageKeys } from './storage.ts';
import { TRACKING_EVENTS } from './tracking.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every document event, tracking event and global flag', () => {
    for (const name of [...Object.values(DOCUMENT_EVENTS), ...Object.values(TRACKING_EVENTS)]) expect(readme).toContain(`\`${name}\``);
    for (const flag of Object.values(MOCK_FLAGS)) expect(readme).toContain(`window.${flag}`);
  });

  it('lists every storage key', () => {
    for (const key of [...Object.values(storageKeys('{campaignId}')), NEWSLETTER_BANNER_SHOWN_KEY]) expect(readme).toContain(`\`${key}\``);
  });

  it('lists every error message', () => {
    for (const message of Object.values(SDK_ERRORS)) {
      const text = typeof message === 'function' ? message(message.toString().includes('service') ? '{service}' : message.toString().includes('form') ? '{form}' : '{id}') : message;
      expect(readme).toContain(text);
    }
  });
});
