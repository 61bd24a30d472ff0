export * from './http.ts';
export * from './apiClient.ts';
export * from './partyClient.ts';
export * from './partySocket.ts';
export { createCmsClient, type CmsClient, type CmsCallName, type CmsRoutes } from './cms.ts';
