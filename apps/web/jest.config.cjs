// React side: jsdom + @swc/jest. No --experimental-vm-modules needed: Mantine, react-router and
// react-query ship CommonJS builds (see docs/toolchain-notes.md).
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'web',
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/src'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  // The editor suites drive a whole rich-text editor in jsdom: a test takes 1-15 s alone on 2 cores, and
  // several times that while the integration tier or other work shares them. The bound catches a hang only.
  testTimeout: 60_000,
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@plink/contracts$': path.join(__dirname, '../../libs/contracts/src/index.ts'),
    '^@plink/contracts/testing$': path.join(__dirname, '../../libs/contracts/src/testing/index.ts'),
    '^@plink/page-render$': path.join(__dirname, '../../libs/page-render/src/browser.ts'),
    '\\.css$': '<rootDir>/src/test/style-stub.cjs',
  },
};
