// One lint config for the whole workspace. The boundary rule keeps the architecture honest:
// a service lib never depends on another service (what it needs of one comes in jobs or from a read
// model of its own), the SPA imports nothing from the server, and nothing imports an app.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Another project only through its public index, never its internals. The one other entry is the contracts'
// test data (`@plink/contracts/testing`), which test code alone may import.
const deepImport = {
  group: ['@plink/*/**', '!@plink/contracts/testing'],
  message: 'Import another project only through its public index (@plink/<name>).',
};
const testData = { group: ['@plink/contracts/testing'], message: '@plink/contracts/testing is test data: only tests may import it.' };
const testFiles = ['**/*.spec.{ts,tsx}', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/__fixtures__/**', 'apps/web/src/test/**'];

/**
 * The platform's layers, bottom up: each capability lib may import only the ones listed for it (and the contracts).
 * Config and observability stand on nothing; the composition (`@plink/platform`: PlatformModule, the app
 * bootstraps, health) stands on all of them.
 */
const platformLayers = {
  'platform:config': [],
  'platform:observability': [],
  'platform:crypto': [],
  'platform:net': [],
  'platform:storage': ['platform:config', 'platform:observability'],
  'platform:mail': ['platform:config', 'platform:observability'],
  'platform:data': ['platform:config', 'platform:observability'],
  'platform:redis': ['platform:config', 'platform:observability'],
  'platform:queue': ['platform:config', 'platform:observability', 'platform:data', 'platform:redis'],
  'platform:http': ['platform:config', 'platform:observability', 'platform:data', 'platform:redis', 'platform:storage'],
  'platform:composition': [
    'platform:config',
    'platform:observability',
    'platform:data',
    'platform:redis',
    'platform:queue',
    'platform:storage',
    'platform:mail',
    'platform:http',
  ],
};

/**
 * Which projects a project of each tag may import. `forTests`: tests and the test helpers beside them may also use
 * the testing lib (throw-away databases, SMTP catcher, local Stripe); production code never does.
 */
function depConstraints(forTests) {
  const testing = forTests ? ['type:testing'] : [];
  return [
    // The SPA: shared contracts and the shared page renderer only.
    { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['type:contracts', 'type:ui'] },
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
    // The page renderer: React, shared by the SPA's preview and the server render.
    { sourceTag: 'type:ui', onlyDependOnLibsWithTags: ['type:contracts', ...testing] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: [] },
    { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...testing] },
    ...Object.entries(platformLayers).map(([sourceTag, below]) => ({
      sourceTag,
      onlyDependOnLibsWithTags: ['type:contracts', ...below, ...testing],
    })),
    // Services: the platform, the contracts and the page renderer; never another service (services own their
    // data: another's comes in a job's payload or from a read model fed by its jobs). Only the apps compose them.
    { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:ui', ...testing] },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:service', 'type:platform', 'type:contracts', 'type:ui', ...testing] },
    // Browser journeys and benchmarks are test code through and through.
    { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:contracts'] },
    // The Zapier, Make and n8n apps: stand-alone packages published to those tools; only their tests use Plink's code.
    { sourceTag: 'type:integration', onlyDependOnLibsWithTags: [...testing] },
    // The deploy checks read the apps' settings (the config schema) to hold the deploy files to them.
    { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform', ...testing] },
  ];
}

const boundaries = (forTests) => ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints(forTests) }];

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
      'no-restricted-imports': ['error', { patterns: [deepImport, testData] }],
      '@nx/enforce-module-boundaries': boundaries(false),
    },
  },
  {
    // Tests and the test helpers beside them: the contracts' test data, and (for a service) the testing lib.
    files: [...testFiles, '**/src/testing/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [deepImport] }], '@nx/enforce-module-boundaries': boundaries(true) },
  },
);
