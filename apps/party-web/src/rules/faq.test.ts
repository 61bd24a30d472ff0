import { describe, expect, it } from 'vitest';
import type { FaqEntry } from '@fanfare/protocol';
import { filterFaq } from './faq.ts';

const e = (question: string, locations: FaqEntry['locations']): FaqEntry => ({ question, answer: '<p>a</p>', locations });

describe("FAQ filter rule: by page and service, 'All' matches everything (spec 2)", () => {
  const entries = [
    e('all', [{ page: 'All', service: 'All' }]),
    e('waiting-any', [{ page: 'waiting', service: 'All' }]),
    e('player-spotify', [{ page: 'player', service: 'spotify' }]),
    e('any-apple', [{ page: 'All', service: 'apple' }]),
    e('nowhere-set', []),
  ];
  it('filters by page', () => {
    expect(filterFaq(entries, 'waiting', 'spotify').map((x) => x.question)).toEqual(['all', 'waiting-any', 'nowhere-set']);
  });
  it('filters by service', () => {
    expect(filterFaq(entries, 'player', 'spotify').map((x) => x.question)).toEqual(['all', 'player-spotify', 'nowhere-set']);
    expect(filterFaq(entries, 'player', 'apple').map((x) => x.question)).toEqual(['all', 'any-apple', 'nowhere-set']);
  });
  it('without a service only All services match', () => {
    expect(filterFaq(entries, 'player', null).map((x) => x.question)).toEqual(['all', 'nowhere-set']);
  });
});

describe('FAQ filter rule: several locations, and services without a signed-in user', () => {
  it('one matching location of several is enough', () => {
    const multi = e('multi', [{ page: 'player', service: 'apple' }, { page: 'waiting', service: 'All' }]);
    expect(filterFaq([multi], 'waiting', 'spotify').map((x) => x.question)).toEqual(['multi']);
    expect(filterFaq([multi], 'player', 'spotify')).toEqual([]);
  });
  it('a service-specific entry never shows to a visitor without a service', () => {
    expect(filterFaq([e('sp', [{ page: 'All', service: 'spotify' }])], 'player', null)).toEqual([]);
  });
});
