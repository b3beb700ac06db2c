// One lint config for the whole workspace. The boundary rule keeps the architecture honest:
// a service lib reaches another service only through its public index (for reads), the SPA
// imports nothing from the server, and nothing imports an app.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/test-results/**', '**/playwright-report/**', '.data/**', '.nx/**'] },
  { files: ['**/*.{cjs,mjs,js}', 'tools/**'], languageOptions: { globals: { ...globals.node } } },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Another project only through its public index: never its internals.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@plink/*/**'], message: 'Import another project only through its public index (@plink/<name>).' }] },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // The SPA: shared contracts (and, later, the shared page renderer) only.
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['type:contracts', 'type:ui'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            // The page renderer: React, shared by the SPA's preview and the server render.
            { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', 'type:testing'] },
            // Services: the platform, the contracts, and other services' public API for reads.
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:service', 'type:testing', 'type:ui'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:service', 'type:platform', 'type:contracts', 'type:testing', 'type:ui'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:contracts'] },
            { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['type:contracts'] },
          ],
        },
      ],
    },
  },
);
