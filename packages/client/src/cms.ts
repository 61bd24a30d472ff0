/**
 * `@fanfare/client/cms`: a typed client of the CMS API, built on `CMS_ROUTES` of
 * `@fanfare/protocol`. Browser and Node.
 *
 * Usage:
 *
 *   import { ApiError, createCmsClient } from '@fanfare/client/cms';
 *
 *   const cms = createCmsClient({
 *     baseUrl: 'http://127.0.0.1:1337',
 *     token: () => storage.getItem('token'),   // sent as `Authorization: Bearer ...` (sync or async)
 *     sessionId: () => sessionId,              // optional: `x-session-id` header
 *     timeoutMs: 10_000,                       // optional: none by default (spec section 9)
 *   });
 *   const campaign = await cms.call('getCampaign', { params: { id } });          // typed `Campaign`
 *   await cms.call('patchCampaign', { params: { id }, body: { name: 'New' } });
 *   await cms.call('createUser', { body: { email, password } }, { includeToken: false }); // no token
 *   const geo = await cms.call('getGeo');                                       // no args needed
 *   await cms.call('createUpload', { form });                                   // multipart: FormData
 *   const csv = await cms.call('exportSubscribers', { query: { newsletter_id } }); // text answers: string
 *   location.href = cms.url('accountLogin', { params: { id, service: 'spotify' }, query: { redirect_uri } });
 *   const asOther = cms.with({ token: () => otherToken });                      // same client, other options
 *
 *   try { ... } catch (e) {
 *     if (e instanceof ApiError) e.status, e.url, e.body, e.message; // message from `detail` (spec 8)
 *   }
 *
 * Call names, params, bodies and answers are the entries of `CMS_ROUTES`; who may call each one is
 * its `auth` (and `permission`). A 2xx answer is checked against the entry's response schema.
 */
import { CMS_ROUTES } from '@fanfare/protocol';
import { createApiClient, type ApiClient, type ApiClientOptions } from './apiClient.ts';

export * from './http.ts';
export type { ApiClient, ApiClientOptions, CallArgs, CallOptions, CallResult, RedirectResult } from './apiClient.ts';

export type CmsRoutes = typeof CMS_ROUTES;
export type CmsCallName = keyof CmsRoutes;
export type CmsClient = ApiClient<CmsRoutes>;

/** A client of the CMS API. */
export function createCmsClient(options: ApiClientOptions): CmsClient {
  return createApiClient(CMS_ROUTES, options);
}
