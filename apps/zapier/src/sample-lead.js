// The shape of a lead everywhere in the app: the `data` of Plink's lead.created event (docs/webhooks.md).
module.exports = {
  id: 4182,
  email: 'ada@example.com',
  createdAt: '2026-11-24T10:15:30.118Z',
  consentAt: '2026-11-24T10:15:30.118Z',
  page: { id: 12, slug: 'free-guide', title: 'My free guide', url: 'https://plink.page/free-guide' },
  source: { referrer: 'news.example', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'launch', device: 'phone' },
};
