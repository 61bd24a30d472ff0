import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../routeDef.ts';
import { PARTY_ROUTES } from './routes.ts';

const routes: RouteDef[] = Object.values(PARTY_ROUTES);

/** The table's entry for a call of the spec, written as the spec writes it (`{param}`). */
function route(method: string, specPath: string): RouteDef | undefined {
  const path = specPath.replace(/\{(\w+)\}/g, ':$1');
  return routes.find((r) => r.method === method && r.path === path);
}

/** Spec 7 "Calls made", with our names for the parameters the spec leaves unnamed or repeats. */
const SPEC_CALLS = [
  'PUT /api/parties/{id}',
  'GET /api/parties/{id}',
  'POST /api/parties/{id}/start',
  'POST /api/parties/{id}/stop',
  'POST /api/parties/{id}/end',
  'GET /api/parties/{id}/player/status',
  'GET /api/spotify/albums/{id}',
  'GET /api/spotify/playlists/{id}',
  'GET /api/spotify/artists/{id}',
  'GET /api/{service}/albums/{country}/{id}',
  'GET /api/{service}/playlists/{country}/{id}',
  'GET /api/parties/{id}/tracks',
  'PUT /api/parties/{id}/tracks',
  'POST /api/parties/{id}/tracks/{trackId}/votes',
  'DELETE /api/parties/{id}/tracks/{trackId}/votes',
  'GET /api/parties/{id}/chat/messages',
  'GET /api/parties/{id}/chat/recent',
  'POST /api/parties/{id}/chat/messages',
  'DELETE /api/parties/{id}/chat/messages/{messageId}',
  'POST /api/parties/{id}/chat/media',
  'POST /api/parties/{id}/chat/popups',
  'POST /api/parties/{id}/chat/polls',
  'POST /api/parties/{id}/chat/polls/{pollId}/answers',
  'POST /api/parties/{id}/chat/quiz/questions',
  'POST /api/parties/{id}/chat/quiz/questions/{questionId}/answers',
  'POST /api/parties/{id}/chat/quiz/scoreboard',
  'GET /api/parties/{id}/chat/quiz/scoreboard',
  'DELETE /api/parties/{id}/chat',
  'GET /api/parties/{id}/chat/schedule',
  'POST /api/parties/{id}/chat/schedule',
  'DELETE /api/parties/{id}/chat/schedule/{scheduleId}',
  'POST /api/parties/{id}/chat/fake',
  'DELETE /api/parties/{id}/chat/fake',
  'POST /api/parties/{id}/users',
  'GET /api/parties/{id}/users',
  'GET /api/parties/{id}/users/me',
  'GET /api/users/me',
  'GET /api/users/me/service_token',
  'DELETE /api/auth/session',
  'GET /api/parties/{id}/grants',
  'POST /api/parties/{id}/grants',
  'DELETE /api/parties/{id}/grants/{service}/{serviceId}',
  'DELETE /api/parties/{id}/grants/{token}',
  'DELETE /api/parties/{id}/users/{userId}/can_chat',
  'PUT /api/parties/{id}/users/{userId}/can_chat',
  'DELETE /api/parties/{id}/users',
  'POST /api/auth/apple/login',
  'GET /api/auth/spotify/login',
  'POST /api/parties/{id}/uploads/profile',
  'POST /api/parties/{id}/uploads/profile/{userId}',
  'POST /api/parties/{id}/uploads/admin/profile',
  'POST /api/parties/{id}/uploads/media',
];

describe('spec 7: every call of the party API is in the route table', () => {
  it.each(SPEC_CALLS)('%s', (call) => {
    const [method, path] = call.split(' ') as [string, string];
    expect(route(method, path)).toBeDefined();
  });
});

describe('spec 6: who may make each call', () => {
  it('the CMS-authenticated actions need a CMS token (edit, tracks, grants, clearing, schedule, fake chat, uploads for others)', () => {
    const cmsOnly = [
      'PUT /api/parties/{id}',
      'PUT /api/parties/{id}/tracks',
      'GET /api/parties/{id}/grants',
      'POST /api/parties/{id}/grants',
      'DELETE /api/parties/{id}/grants/{service}/{serviceId}',
      'DELETE /api/parties/{id}/grants/{token}',
      'DELETE /api/parties/{id}/chat',
      'DELETE /api/parties/{id}/users',
      'GET /api/parties/{id}/chat/schedule',
      'POST /api/parties/{id}/chat/schedule',
      'DELETE /api/parties/{id}/chat/schedule/{scheduleId}',
      'POST /api/parties/{id}/chat/fake',
      'DELETE /api/parties/{id}/chat/fake',
      'POST /api/parties/{id}/uploads/profile/{userId}',
      'POST /api/parties/{id}/uploads/admin/profile',
    ];
    for (const call of cmsOnly) {
      const [method, path] = call.split(' ') as [string, string];
      expect(route(method, path)?.auth, call).toBe('cms');
    }
  });

  it('start, stop and end take the CMS token or a host bearer, checked by the party abilities', () => {
    for (const [action, ability] of [
      ['start', 'party.start'],
      ['stop', 'party.stop'],
      ['end', 'party.end'],
    ] as const) {
      const entry = route('POST', `/api/parties/{id}/${action}`);
      expect(entry?.auth, action).toBe('cms_or_bearer');
      expect(entry?.ability, action).toBe(ability);
    }
  });

  it('a fan reads the party before login; the live calls carry the fan bearer', () => {
    expect(route('GET', '/api/parties/{id}')?.auth).toBe('none');
    expect(route('POST', '/api/auth/apple/login')?.auth).toBe('none');
    for (const call of ['POST /api/parties/{id}/chat/messages', 'POST /api/parties/{id}/tracks/{trackId}/votes', 'GET /api/users/me', 'GET /api/parties/{id}/users/me']) {
      const [method, path] = call.split(' ') as [string, string];
      expect(route(method, path)?.auth, call).toBe('bearer');
    }
    expect(route('POST', '/api/parties/{id}/chat/messages')?.ability).toBe('chat.post');
    expect(route('POST', '/api/parties/{id}/tracks/{trackId}/votes')?.ability).toBe('tracks.vote');
  });
});

describe('spec 7: how the calls answer', () => {
  it('uploads are multipart POSTs; the Spotify login is a browser redirect', () => {
    for (const path of ['/api/parties/{id}/uploads/profile', '/api/parties/{id}/uploads/profile/{userId}', '/api/parties/{id}/uploads/admin/profile', '/api/parties/{id}/uploads/media']) {
      expect(route('POST', path)?.multipart, path).toBe(true);
    }
    expect(route('GET', '/api/auth/spotify/login')?.redirect).toBe(true);
  });
});
