/**
 * @fanfare/protocol: the one definition of the wire (REST bodies and responses, socket events,
 * constants) shared by the server, the web apps, the tests and the benchmarks.
 */
export * from './common.ts';
export * from './webConfig.ts';
export * from './routeDef.ts';
export * from './dataRights.ts';
export * from './party/constants.ts';
export * from './providerSdks.ts';
export * from './party/entities.ts';
export * from './party/chat.ts';
export * from './party/calls.ts';
export * from './party/socket.ts';
export * from './party/dashboard.ts';
export * from './party/source.ts';
export * from './party/routes.ts';
export * from './party/replay.ts';
export * from './party/preview.ts';
export * from './party/abilities.ts';
export * from './campaign/index.ts';
export * from './campaign/permissions.ts';
export * from './campaign/routes.ts';
