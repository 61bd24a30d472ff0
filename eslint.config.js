import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Syntax refused everywhere. */
const RESTRICTED = [
  { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip|todo)$/]", message: 'No .only/.skip/.todo in committed tests.' },
  { selector: 'TSEnumDeclaration', message: 'Use `as const` objects with a derived union, not enum.' },
];

/**
 * One publish path: outside the real-time wing (and the composition root that builds it), an event
 * leaves only through the unit of work (`runPartyWrite`), after its write committed.
 */
const ONE_PUBLISH_PATH = [
  { selector: "CallExpression[callee.property.name=/^(emit|publish|nextSeq)$/]:matches([callee.object.name='hub'], [callee.object.property.name='hub'])", message: 'Publish party events through runPartyWrite (realtime/unitOfWork.ts), not the hub.' },
  { selector: "ImportSpecifier[imported.name=/^(PartyHub|LocalPartyHub|RedisPartyHub)$/]", message: 'Only the real-time wing and server.ts hold the hub\'s publishing side; use ctx.hub (PartyStream) and runPartyWrite.' },
];
const SERVER_OUTSIDE_REALTIME = { files: ['apps/server/src/**/*.ts'], ignores: ['apps/server/src/realtime/**', 'apps/server/src/server.ts'] };

/** Node 20 builds an object literal with keys after a spread slowly (decision 0035). */
const NO_SPREAD_THEN_KEYS = { selector: 'ObjectExpression > SpreadElement ~ :matches(Property, SpreadElement)', message: 'Hot path: use Object.assign, not `{ ...x, more }` (slow in Node 20, decision 0035).' };

/** What every chat post, event, reused statement and memory answer runs (decision 0035). */
const HOT_PATHS = ['apps/server/src/party/chat/messages/*.ts', 'apps/server/src/platform/db/reusedQuery.ts', 'apps/server/src/platform/answersFromMemory.ts'];
const REALTIME_HOT_PATHS = ['apps/server/src/realtime/hub.ts'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'bench/results/**', 'apps/server/catalog/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...RESTRICTED],
    },
  },
  { ...SERVER_OUTSIDE_REALTIME, rules: { 'no-restricted-syntax': ['error', ...RESTRICTED, ...ONE_PUBLISH_PATH] } },
  // Node 20 builds an object literal with keys after a spread slowly: about 1 µs a key, where
  // Object.assign takes a tenth of a µs (decision 0035).
  { files: HOT_PATHS, ignores: ['**/*.test.ts'], rules: { 'no-restricted-syntax': ['error', ...RESTRICTED, ...ONE_PUBLISH_PATH, NO_SPREAD_THEN_KEYS] } },
  { files: REALTIME_HOT_PATHS, rules: { 'no-restricted-syntax': ['error', ...RESTRICTED, NO_SPREAD_THEN_KEYS] } },
  {
    // Packages never import apps.
    files: ['packages/**/*.ts', 'packages/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@fanfare/server', '@fanfare/party-web'], message: 'Packages must not import apps.' }] }] },
  },
  {
    // The rules of hooks (and the React Compiler's checks) for every React codebase.
    files: ['apps/*-web/src/**/*.{ts,tsx}', 'packages/ui/src/**/*.{ts,tsx}', 'packages/campaign-sdk/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
