/** The code under mutation testing: each target names its source files and the tests that guard them. */
export const MUTATION_TARGETS = {
  'campaign-sdk': {
    mutate: ['packages/campaign-sdk/src/**/*.ts', '!packages/campaign-sdk/src/**/*.test.ts', '!packages/campaign-sdk/src/test/**', '!packages/campaign-sdk/src/react/**'],
    tests: ['packages/campaign-sdk/src/**/*.test.ts'],
  },
  protocol: {
    mutate: ['packages/protocol/src/**/*.ts', '!packages/protocol/src/**/*.test.ts', '!packages/protocol/src/test/**'],
    tests: ['packages/protocol/src/**/*.test.ts'],
  },
  'party-rules': {
    mutate: ['apps/party-web/src/rules/**/*.ts', '!apps/party-web/src/rules/**/*.test.ts'],
    tests: ['apps/party-web/src/rules/**/*.test.ts'],
  },
};
