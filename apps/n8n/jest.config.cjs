module.exports = { ...require('../../jest.preset.cjs'), displayName: 'n8n', testTimeout: 60_000 };
