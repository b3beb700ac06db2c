module.exports = { ...require('../../jest.preset.cjs'), displayName: 'zapier', testTimeout: 60_000 };
