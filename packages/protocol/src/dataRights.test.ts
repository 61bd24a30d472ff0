import { describe, expect, it } from 'vitest';
import { DataRightsAuditResponse, DataSubjectBody, DataSubjectExport, ErasureReport, FanDataExport } from './dataRights.ts';
import { OAuthCallbackQuery } from './oauth.ts';

const visitor = {
  newsletter_subscriptions: [
    { newsletter_id: 'n1', campaign_id: 'c1', email: 'ada@example.com', name: null, country: 'de', locale: 'de', state: 'confirmed', created_at: 1, confirmed_at: 2 },
  ],
  newsletter_consents: [
    {
      newsletter_id: 'n1',
      campaign_id: 'c1',
      email: 'ada@example.com',
      accepted: true,
      consent_text_version: 'v3',
      consent_text: 'Yes, send me news',
      locale: 'de',
      source_page: 'https://label.example.com/c1',
      ip: '203.0.113.7',
      user_agent: null,
      created_at: 1,
      confirmed_at: null,
      withdrawn_at: 3,
    },
  ],
  campaign_accounts: [
    { id: 'acc1', service: 'spotify', service_user_id: 'sp1', email: null, has_service_tokens: true, created_at: 1, updated_at: 2, sessions: 1 },
  ],
  presaves: [
    {
      campaign_id: 'c1',
      campaign_name: 'Single',
      service: 'apple',
      territory: 'de',
      save: 'album',
      follow_artist: true,
      state: 'done',
      consent_text: 'Save it on release',
      consent_text_version: 'v1',
      locale: 'de',
      source_page: 'https://label.example.com/c1',
      ip: '203.0.113.7',
      user_agent: 'Firefox',
      email: 'ada@example.com',
      results: [{ step: 'save', outcome: 'ok', detail: null }],
      created_at: 1,
      done_at: 5,
      receipt_sent_at: null,
    },
  ],
};

/** A fan's export with one record of every kind, so a record the schema drops shows in the output. */
const fan = {
  exported_at: 10,
  profile: {
    id: 'f1',
    service: 'spotify',
    service_user_id: 'sp1',
    display_name: 'ada',
    email: 'ada@example.com',
    country: 'de',
    premium: false,
    profile_picture: null,
    has_service_tokens: true,
    created_at: 1,
    updated_at: 2,
  },
  party_signups: [
    {
      party_id: 'p1',
      party_name: 'Release night',
      real_name: 'Ada Lovelace',
      display_name: 'ada',
      email: null,
      country: 'de',
      profile_picture: null,
      profile_sticker: 'fire',
      competition_accepted: false,
      can_chat: true,
      created_at: 3,
    },
  ],
  grants: [
    { party_id: 'p1', role: 'host', display_name: 'The Band', profile_picture: null, via: 'account', created_at: 4 },
    { party_id: 'p2', role: 'admin', display_name: 'Manager', profile_picture: null, via: 'link', created_at: 5 },
  ],
  chat_messages: [
    { id: 'm1', party_id: 'p1', timestamp_ms: 6, display_name: 'ada', text: 'hi', sticker: null, photo: null, video: null, reply_to_message_id: null },
  ],
  track_votes: [{ party_id: 'p1', track_id: 't1', created_at: 7 }],
  answers: [{ party_id: 'p1', question_id: 'q1', kind: 'quiz', question: 'Year?', answer_id: 1, is_correct: true, created_at: 8 }],
  uploads: [{ party_id: 'p1', url: '/uploads/media/a.jpg', size: 1024, created_at: 9 }],
  campaigns: visitor,
};

describe('data rights (GDPR access and portability): exports leave nothing out', () => {
  it("a fan's export parses to itself", () => {
    expect(FanDataExport.parse(fan)).toEqual(fan);
  });

  it('every record of the export keeps all its fields', () => {
    const records: [string, Record<string, unknown>, (r: Record<string, unknown>) => unknown][] = [
      ['profile', fan.profile, (r) => ({ ...fan, profile: r })],
      ['party signup', fan.party_signups[0]!, (r) => ({ ...fan, party_signups: [r] })],
      ['grant', fan.grants[0]!, (r) => ({ ...fan, grants: [r] })],
      ['chat message', fan.chat_messages[0]!, (r) => ({ ...fan, chat_messages: [r] })],
      ['vote', fan.track_votes[0]!, (r) => ({ ...fan, track_votes: [r] })],
      ['answer', fan.answers[0]!, (r) => ({ ...fan, answers: [r] })],
      ['upload', fan.uploads[0]!, (r) => ({ ...fan, uploads: [r] })],
      ['subscription', visitor.newsletter_subscriptions[0]!, (r) => ({ ...fan, campaigns: { ...visitor, newsletter_subscriptions: [r] } })],
      ['consent', visitor.newsletter_consents[0]!, (r) => ({ ...fan, campaigns: { ...visitor, newsletter_consents: [r] } })],
      ['account', visitor.campaign_accounts[0]!, (r) => ({ ...fan, campaigns: { ...visitor, campaign_accounts: [r] } })],
      ['presave', visitor.presaves[0]!, (r) => ({ ...fan, campaigns: { ...visitor, presaves: [r] } })],
      ['presave result', visitor.presaves[0]!.results[0]!, (r) => ({ ...fan, campaigns: { ...visitor, presaves: [{ ...visitor.presaves[0], results: [r] }] } })],
    ];
    for (const [name, record, place] of records) {
      for (const key of Object.keys(record)) {
        const { [key]: _dropped, ...without } = record;
        expect(FanDataExport.safeParse(place(without)).success, `${name} without ${key}`).toBe(false);
      }
    }
    expect(FanDataExport.safeParse({ ...fan, grants: [{ ...fan.grants[0], via: 'guess' }] }).success).toBe(false);
  });

  it('the back office export by e-mail lists the fans and the campaign visitor', () => {
    const subject = { exported_at: 11, email: 'ada@example.com', fans: [fan], visitor };
    expect(DataSubjectExport.parse(subject)).toEqual(subject);
    expect(DataSubjectExport.safeParse({ ...subject, visitor: undefined }).success).toBe(false);
  });

  it('an erasure reports what it removed, by kind', () => {
    const report = {
      erased_at: 12,
      fans_erased: 1,
      chat_messages_removed: 3,
      uploads_deleted: 1,
      party_signups_removed: 2,
      consents_withdrawn: 1,
      newsletter_subscriptions_removed: 1,
      campaign_accounts_removed: 1,
      presaves_removed: 1,
    };
    expect(ErasureReport.parse(report)).toEqual(report);
    for (const key of Object.keys(report)) {
      const { [key]: _dropped, ...without } = report as Record<string, unknown>;
      expect(ErasureReport.safeParse(without).success, `without ${key}`).toBe(false);
    }
  });

  it('the subject is named by a trimmed e-mail address in the body', () => {
    expect(DataSubjectBody.parse({ email: '  ada@example.com ' })).toEqual({ email: 'ada@example.com' });
    expect(DataSubjectBody.safeParse({ email: 'ada' }).success).toBe(false);
    expect(DataSubjectBody.safeParse({ email: `${'a'.repeat(310)}@example.com` }).success).toBe(false);
  });

  it('the audit lists exports and erasures by fans and the back office', () => {
    const entries = [
      { id: 'a1', action: 'export', actor_kind: 'fan', actor_id: 'f1', subject_hash: 'h1', summary: 'self-service export', created_at: 1 },
      { id: 'a2', action: 'erase', actor_kind: 'cms', actor_id: 'cms1', subject_hash: 'h2', summary: 'erased 1 fan', created_at: 2 },
    ];
    expect(DataRightsAuditResponse.parse({ items: entries })).toEqual({ items: entries });
    expect(DataRightsAuditResponse.safeParse({ items: [{ ...entries[0], action: 'delete' }] }).success).toBe(false);
    expect(DataRightsAuditResponse.safeParse({ items: [{ ...entries[0], actor_kind: 'admin' }] }).success).toBe(false);
    expect(DataRightsAuditResponse.safeParse({ items: [{ ...entries[0], summary: undefined }] }).success).toBe(false);
  });
});

describe('OAuth redirect back to us', () => {
  it('carries a code and state, or an error, each bounded', () => {
    const query = { code: 'c'.repeat(2000), state: 's'.repeat(4000), error: 'e'.repeat(200) };
    expect(OAuthCallbackQuery.parse(query)).toEqual(query);
    expect(OAuthCallbackQuery.safeParse({ code: 'c'.repeat(2001) }).success).toBe(false);
    expect(OAuthCallbackQuery.safeParse({ state: 's'.repeat(4001) }).success).toBe(false);
    expect(OAuthCallbackQuery.safeParse({ error: 'e'.repeat(201) }).success).toBe(false);
  });
});
