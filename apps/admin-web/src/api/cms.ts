/**
 * The back office's CMS calls, on the typed client `@fanfare/client/cms` (the protocol's
 * `CMS_ROUTES`): every body and answer is a protocol type and every answer is checked with its
 * schema. This module only names the calls the screens use and turns a 401 into "session ended".
 */
import { ApiError, createCmsClient, type CmsCallName, type CmsClient } from '@fanfare/client/cms';
import type {
  AuditLogQuery,
  CampaignsPageQuery,
  PublishCampaignBody,
  ScheduleCampaignBody,
  CloneCampaignBody,
  CmsAccountSetupBody,
  CmsRole,
  CmsUserState,
  CreateAppBody,
  CreateCampaignBody,
  CreateCmsUserBody,
  NewsletterLedgerQuery,
  AllNewsletterLedgerQuery,
  FunnelQuery,
  PatchCampaignBody,
} from '@fanfare/protocol';

export { ApiError };

export interface CmsApiOptions {
  /** Origin of the CMS (the page's own in the back office). */
  baseUrl: string;
  /** The signed-in user's bearer token. */
  token: () => string | null;
  /** The server answered 401: the session ended (expired, revoked, or dropped). */
  onExpired: () => void;
}

/** A folder path such as `/covers/2027` as the `*` of `/api/uploads/folders/*`. */
const folderParam = (path: string) => ({ '*': path.split('/').filter(Boolean).join('/') });

export function createCmsApi(opts: CmsApiOptions) {
  const client: CmsClient = createCmsClient({ baseUrl: opts.baseUrl, token: opts.token });
  const call = (async (...args: Parameters<CmsClient['call']>) => {
    try {
      return await client.call(...args);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) opts.onExpired();
      throw e;
    }
  }) as CmsClient['call'];
  /** A call fetched by hand (a streamed body: CSV download, server-sent events), with the token. */
  const fetchRaw = async (name: CmsCallName, args: Parameters<CmsClient['url']>[1], init: RequestInit = {}) => {
    const url = client.url(name, args as never);
    const res = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${opts.token() ?? ''}` } });
    if (res.status === 401) opts.onExpired();
    if (res.status >= 400) {
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      throw new ApiError(res.status, body as ApiError['body'], url, { statusText: res.statusText });
    }
    return res;
  };

  return {
    token: opts.token,
    url: client.url,
    fetchRaw,
    users: {
      login: (email: string, password: string) => call('login', { body: { email, password } }, { includeToken: false }),
      logout: () => call('logout'),
      me: () => call('getMe'),
      completeSetup: (body: CmsAccountSetupBody) => call('completeAccountSetup', { body }),
      refreshSession: () => call('refreshSession'),
      list: () => call('listUsers'),
      create: (body: CreateCmsUserBody) => call('createUser', { body }),
      setRoles: (id: string, roles: CmsRole[]) => call('setUserRoles', { params: { id }, body: { roles } }),
      setState: (id: string, state: CmsUserState) => call('setUserState', { params: { id }, body: { state } }),
      requestReset: (email: string) => call('requestPasswordReset', { body: { email, cms: true } }, { includeToken: false }),
      setPassword: (token: string, newPassword: string) => call('setPassword', { body: { token, new_password: newPassword } }, { includeToken: false }),
    },
    apps: {
      list: () => call('listApps'),
      create: (body: CreateAppBody) => call('createApp', { body }),
      reload: (id: string) => call('reloadAppConfig', { params: { id } }),
      translations: (app: string) => call('getAppTranslations', { params: { app }, query: { fresh: 'true' } }),
    },
    campaigns: {
      page: (query: CampaignsPageQuery) => call('searchCampaigns', { query }),
      get: (id: string) => call('getCampaign', { params: { id } }),
      presaveReport: (id: string) => call('presaveReport', { params: { id } }),
      create: (body: CreateCampaignBody) => call('createCampaign', { body }),
      patch: (id: string, body: PatchCampaignBody) => call('patchCampaign', { params: { id }, body }),
      clone: (id: string, body: CloneCampaignBody) => call('cloneCampaign', { params: { id }, body: body ?? {} }),
      remove: (id: string) => call('deleteCampaign', { params: { id } }),
      slugExists: (app: string, slug: string) => call('slugExists', { params: { app, slug } }),
      lock: (id: string) => call('lockCampaign', { params: { id } }),
      takeOver: (id: string) => call('takeOverCampaignLock', { params: { id } }),
      unlock: (id: string) => call('unlockCampaign', { params: { id } }),
      /** The lock's change stream (server-sent events); read with `readLockEvents`. */
      lockEvents: (id: string, signal: AbortSignal) => fetchRaw('campaignLockEvents', { params: { id } }, { signal, headers: { accept: 'text/event-stream' } }),
      /** Releases the lock while the page unloads (`keepalive` lets the request outlive it). */
      unlockOnLeave: (id: string) =>
        fetch(client.url('unlockCampaign', { params: { id } }), { method: 'DELETE', keepalive: true, headers: { authorization: `Bearer ${opts.token() ?? ''}` } }).catch(() => undefined),
    },
    editorial: {
      publish: (id: string, body: PublishCampaignBody = null) => call('publishCampaign', { params: { id }, body }),
      unpublish: (id: string) => call('unpublishCampaign', { params: { id } }),
      schedule: (id: string, body: ScheduleCampaignBody) => call('scheduleCampaign', { params: { id }, body }),
      versions: (id: string) => call('campaignVersions', { params: { id } }),
      diff: (id: string, from: number, to: number) => call('campaignVersionDiff', { params: { id }, query: { from, to } }),
      restore: (id: string, version: number) => call('restoreCampaignVersion', { params: { id, version } }),
      previewLink: (id: string) => call('campaignPreviewLink', { params: { id } }),
      partyVersions: (id: string) => call('partyVersions', { params: { id } }),
      partyDiff: (id: string, from: number, to: number) => call('partyVersionDiff', { params: { id }, query: { from, to } }),
    },
    dataRights: {
      /** Everything stored about the fans and the campaign visitor with this address (art. 15, 20). */
      export: (email: string) => call('dataRightsExport', { body: { email } }),
      /** Erases them (art. 17); answers what went. */
      erase: (email: string) => call('dataRightsErase', { body: { email } }),
      audit: () => call('dataRightsAudit', {}),
    },
    audit: {
      page: (query: AuditLogQuery) => call('listAuditLog', { query }),
      /** The CSV export (every matching entry) as one file. */
      csv: async (query: AuditLogQuery) => (await fetchRaw('exportAuditLogCsv', { query })).blob(),
    },
    uploads: {
      folder: (path: string) => (folderParam(path)['*'] === '' ? call('getRootFolder', {}) : call('getFolder', { params: folderParam(path) })),
      createFolder: (path: string) => call('createFolder', { params: folderParam(path) }),
      deleteFolder: (path: string) => call('deleteFolder', { params: folderParam(path) }),
      moveFolder: (from: string, to: string) => call('moveUploadFolder', { body: { from, to } }),
      remove: (id: string) => call('deleteUpload', { params: { id } }),
      setAlt: (id: string, alt: string) => call('setUploadAlt', { params: { id }, body: { alt } }),
      /** Files named like `q` in every folder (each names its folder). */
      search: (q: string) => call('listUploads', { query: { q } }),
      uploadUrl: () => client.url('createUpload'),
    },
    newsletter: {
      subscribers: (id: string, query: NewsletterLedgerQuery) => call('listNewsletterSubscribers', { params: { id }, query }),
      consents: (id: string, query: NewsletterLedgerQuery) => call('listNewsletterConsents', { params: { id }, query }),
      /** The CSV export, streamed by the server, as one file. */
      csv: async (id: string, kind: 'subscribers' | 'consents', query: NewsletterLedgerQuery) =>
        (await fetchRaw(kind === 'subscribers' ? 'exportNewsletterSubscribersCsv' : 'exportNewsletterConsentsCsv', { params: { id }, query })).blob(),
      /** The same across every campaign (`campaign_id` narrows to one), for the Subscribers section. */
      all: {
        subscribers: (query: AllNewsletterLedgerQuery) => call('listAllNewsletterSubscribers', { query }),
        consents: (query: AllNewsletterLedgerQuery) => call('listAllNewsletterConsents', { query }),
        csv: async (kind: 'subscribers' | 'consents', query: AllNewsletterLedgerQuery) =>
          (await fetchRaw(kind === 'subscribers' ? 'exportAllNewsletterSubscribersCsv' : 'exportAllNewsletterConsentsCsv', { query })).blob(),
      },
    },
    funnel: {
      report: (id: string, query: FunnelQuery) => call('campaignFunnel', { params: { id }, query }),
      csv: async (id: string, query: FunnelQuery) => (await fetchRaw('exportCampaignFunnelCsv', { params: { id }, query })).blob(),
    },
    tokenGate: {
      keys: (id: string) => call('listAccessKeys', { params: { id } }),
      revoke: (id: string, keyId: string) => call('revokeAccessKey', { params: { id, key_id: keyId } }),
      codes: (productId: string, page: number) => call('listTokenGateCodes', { params: { product_id: productId }, query: { page } }),
      uploadUrl: (productId: string, maxUses: number) => client.url('uploadAccessCodes', { params: { product_id: productId }, query: { max_uses: maxUses } } as never),
    },
    i18n: {
      countries: () => call('listCountries', {}),
    },
  };
}

export type CmsApi = ReturnType<typeof createCmsApi>;
