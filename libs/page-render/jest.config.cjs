// Node by default (renderToString, the HTML document); component suites opt into jsdom with a
// `@jest-environment jsdom` docblock.
const preset = require('../../jest.preset.cjs');

module.exports = {
  ...preset,
  displayName: 'page-render',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
};
