export * from './http.ts';
export * from './partyClient.ts';
