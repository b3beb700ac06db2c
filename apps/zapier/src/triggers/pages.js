// Hidden trigger behind the "Page" dropdowns: the creator's pages, from /api/v1/pages.
const { apiUrl } = require('../api');

module.exports = {
  key: 'page',
  noun: 'Page',
  display: { label: 'Page', description: 'Lists your Plink pages (for the page dropdowns).', hidden: true },
  operation: {
    perform: async (z, bundle) => (await z.request({ url: apiUrl(bundle, '/pages') })).data,
    sample: { id: 12, slug: 'free-guide', title: 'My free guide', url: 'https://plink.page/free-guide', createdAt: '2026-11-24T10:15:30.118Z' },
  },
};
