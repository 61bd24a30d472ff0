/**
 * The back office's typed CMS calls: every body is a protocol type and every answer is parsed
 * with its protocol schema. One module, so moving onto `@fanfare/client/cms` touches only this file.
 */
import {
  AppsResponse,
  Campaign,
  CampaignLock,
  CampaignsPage,
  CmsApp,
  CmsLoginResponse,
  CmsUser,
  CmsUsersResponse,
  ConsentsPage,
  CountriesResponse,
  FolderListing,
  SlugExistsResponse,
  SubscribersPage,
  TokenGateCodesPage,
  TokenGateCodesResponse,
  TokenGateKeysResponse,
  TranslationsResponse,
  UploadFolder,
  type CampaignsPageQuery,
  type CloneCampaignBody,
  type CmsRole,
  type CmsUserState,
  type CreateAppBody,
  type CreateCampaignBody,
  type CreateCmsUserBody,
  type NewsletterLedgerQuery,
  type PatchCampaignBody,
} from '@fanfare/protocol';
import type { Http, Query } from './http.ts';

const enc = encodeURIComponent;
const folderPath = (path: string) => path.split('/').filter(Boolean).map(enc).join('/');

export function createCmsApi(http: Http) {
  return {
    http,
    users: {
      login: (email: string, password: string) => http.json(CmsLoginResponse, 'POST', '/api/users/login', { body: { email, password } }),
      logout: () => http.send('DELETE', '/api/users/session'),
      me: () => http.json(CmsUser, 'GET', '/api/users/me'),
      list: () => http.json(CmsUsersResponse, 'GET', '/api/users'),
      create: (body: CreateCmsUserBody) => http.json(CmsUser, 'POST', '/api/users', { body }),
      setRoles: (id: string, roles: CmsRole[]) => http.json(CmsUser, 'POST', `/api/users/${enc(id)}/roles`, { body: { roles } }),
      setState: (id: string, state: CmsUserState) => http.json(CmsUser, 'POST', `/api/users/${enc(id)}/state`, { body: { state } }),
      requestReset: (email: string) => http.send('POST', '/api/users/password_reset', { body: { email, cms: true } }),
      setPassword: (token: string, newPassword: string) => http.send('PUT', '/api/users/password', { body: { token, new_password: newPassword } }),
    },
    apps: {
      list: () => http.json(AppsResponse, 'GET', '/api/apps'),
      create: (body: CreateAppBody) => http.json(CmsApp, 'POST', '/api/apps', { body }),
      reload: (id: string) => http.json(CmsApp, 'POST', `/api/apps/${enc(id)}/config/reload`),
      translations: (app: string) => http.json(TranslationsResponse, 'GET', `/api/apps/${enc(app)}/translations`, { query: { fresh: 'true' } }),
    },
    campaigns: {
      page: (query: CampaignsPageQuery) => http.json(CampaignsPage, 'GET', '/api/campaigns/search', { query: query as Query }),
      get: (id: string) => http.json(Campaign, 'GET', `/api/campaigns/${enc(id)}`),
      create: (body: CreateCampaignBody) => http.json(Campaign, 'POST', '/api/campaigns', { body }),
      patch: (id: string, body: PatchCampaignBody) => http.json(Campaign, 'POST', `/api/campaigns/${enc(id)}/patch`, { body }),
      clone: (id: string, body: CloneCampaignBody) => http.json(Campaign, 'POST', `/api/campaigns/${enc(id)}/clone`, { body: body ?? {} }),
      remove: (id: string) => http.send('DELETE', `/api/campaigns/${enc(id)}`),
      slugExists: (app: string, slug: string) => http.json(SlugExistsResponse, 'GET', `/api/campaigns/${enc(app)}/${enc(slug)}/exists`),
      lock: (id: string) => http.json(CampaignLock, 'PUT', `/api/campaigns/${enc(id)}/lock`),
      takeOver: (id: string) => http.json(CampaignLock, 'POST', `/api/campaigns/${enc(id)}/lock/takeover`),
      unlock: (id: string) => http.send('DELETE', `/api/campaigns/${enc(id)}/lock`),
      /** The lock's change stream (server-sent events); read with `readLockEvents`. */
      lockEvents: (id: string, signal: AbortSignal) =>
        fetch(http.url(`/api/campaigns/${enc(id)}/lock/events`), { headers: { authorization: `Bearer ${http.token() ?? ''}`, accept: 'text/event-stream' }, signal }),
    },
    uploads: {
      folder: (path: string) => http.json(FolderListing, 'GET', path === '/' ? '/api/uploads/folders' : `/api/uploads/folders/${folderPath(path)}`),
      createFolder: (path: string) => http.json(UploadFolder, 'POST', `/api/uploads/folders/${folderPath(path)}`),
      deleteFolder: (path: string) => http.send('DELETE', `/api/uploads/folders/${folderPath(path)}`),
      moveFolder: (path: string, to: string) => http.json(UploadFolder, 'POST', `/api/uploads/folders_move`, { body: { from: path, to } }),
      remove: (id: string) => http.send('DELETE', `/api/uploads/${enc(id)}`),
    },
    newsletter: {
      subscribers: (campaignId: string, query: NewsletterLedgerQuery) =>
        http.json(SubscribersPage, 'GET', `/api/campaigns/${enc(campaignId)}/newsletter/subscribers`, { query: query as Query }),
      consents: (campaignId: string, query: NewsletterLedgerQuery) =>
        http.json(ConsentsPage, 'GET', `/api/campaigns/${enc(campaignId)}/newsletter/consents`, { query: query as Query }),
      /** Path of a CSV export (fetched with the token, then saved as a file). */
      csvPath: (campaignId: string, kind: 'subscribers' | 'consents') => `/api/campaigns/${enc(campaignId)}/newsletter/${kind}.csv`,
    },
    tokenGate: {
      keys: (campaignId: string) => http.json(TokenGateKeysResponse, 'GET', `/api/campaigns/${enc(campaignId)}/token_gate/keys`),
      revoke: (campaignId: string, keyId: string) => http.send('DELETE', `/api/campaigns/${enc(campaignId)}/token_gate/keys/${enc(keyId)}`),
      codes: (productId: string, page: number) => http.json(TokenGateCodesPage, 'GET', `/api/token_gate/products/${enc(productId)}/codes`, { query: { page } }),
      uploadUrl: (productId: string, maxUses: number) => http.url(`/api/token_gate/products/${enc(productId)}/codes`, { max_uses: maxUses }),
      parseUpload: (body: unknown) => TokenGateCodesResponse.parse(body),
    },
    i18n: {
      countries: () => http.json(CountriesResponse, 'GET', '/api/i18n/countries'),
    },
  };
}

export type CmsApi = ReturnType<typeof createCmsApi>;
