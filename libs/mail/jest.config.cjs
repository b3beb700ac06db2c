module.exports = { ...require('../../jest.preset.cjs'), displayName: 'mail' };
