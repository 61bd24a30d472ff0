/** The campaign system's wire (spec `campaign-pages.md`): constants, entities, calls, lookups. */
export * from './constants.ts';
export * from './entities.ts';
export * from './calls.ts';
export * from './lookups.ts';
export * from './bridge.ts';
export * from './page.ts';
export * from './backOffice.ts';
export * from './editorial.ts';
export * from './handover.ts';
export * from './funnel.ts';
export * from './funnelRules.ts';
export * from './presave.ts';
