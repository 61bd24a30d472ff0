/** `@fanfare/client/party`: the party API (REST and socket). */
export * from './http.ts';
export type { ApiClient, ApiClientOptions, CallArgs, CallOptions, CallResult, RedirectResult } from './apiClient.ts';
export * from './partyClient.ts';
export * from './partySocket.ts';
