import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

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
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip|todo)$/]", message: 'No .only/.skip/.todo in committed tests.' },
        { selector: 'TSEnumDeclaration', message: 'Use `as const` objects with a derived union, not enum.' },
      ],
    },
  },
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
