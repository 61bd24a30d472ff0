export * from './http.ts';
export * from './partyClient.ts';
export * from './partySocket.ts';
