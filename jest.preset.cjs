// Shared jest settings for the Node side (Nest, MikroORM, BullMQ). Run through
// `node --experimental-vm-modules` on Node 24 so the ESM-only Nest/MikroORM packages load.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2023',
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    // Another project from its source: its main entry, and the contracts' test data (`@plink/contracts/testing`).
    '^@plink/contracts/testing$': path.join(__dirname, 'libs/contracts/src/testing/index.ts'),
    '^@plink/([a-z-]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
  testTimeout: 30000,
};
