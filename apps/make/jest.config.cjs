module.exports = { ...require('../../jest.preset.cjs'), displayName: 'make', testTimeout: 60_000 };
