// "New Lead": a REST hook. Turning the Zap on subscribes Zapier's URL through POST /api/v1/hooks (Pro), turning it
// off deletes it; Plink then POSTs each new lead there, signed with the hook's secret. performList (the sample
// when setting up, and polling-style tests) reads the newest leads from /api/v1/leads, in the same shape.
const { apiUrl } = require('../api');
const { verifySignature } = require('../signature');
const sample = require('../sample-lead');

const subscribe = async (z, bundle) => {
  const body = { event: 'lead.created', target_url: bundle.targetUrl };
  if (bundle.inputData.page_id) body.page_id = Number(bundle.inputData.page_id);
  const response = await z.request({ url: apiUrl(bundle, '/hooks'), method: 'POST', body });
  // Kept by Zapier as bundle.subscribeData: the id to unsubscribe, the secret to check each delivery.
  return response.data;
};

const unsubscribe = async (z, bundle) => {
  await z.request({ url: apiUrl(bundle, `/hooks/${encodeURIComponent(bundle.subscribeData.id)}`), method: 'DELETE' });
  return {};
};

const receive = (z, bundle) => {
  const raw = bundle.rawRequest;
  const secret = bundle.subscribeData && bundle.subscribeData.secret;
  // A delivery whose signature is not the hook's secret was not sent by Plink: no Zap run for it.
  if (secret && raw && !verifySignature(secret, raw.headers, raw.content)) {
    throw new z.errors.HaltedError('The request is not signed by Plink (webhook-signature does not match).');
  }
  const event = bundle.cleanedRequest || {};
  if (event.type !== 'lead.created' || !event.data) return [];
  return [event.data];
};

const list = async (z, bundle) => {
  const params = { limit: '25' };
  if (bundle.inputData.page_id) params.page_id = String(bundle.inputData.page_id);
  const response = await z.request({ url: apiUrl(bundle, '/leads'), params });
  return response.data;
};

module.exports = {
  key: 'new_lead',
  noun: 'Lead',
  display: { label: 'New Lead', description: 'Triggers when someone signs up on one of your Plink pages (Plink Pro).' },
  operation: {
    type: 'hook',
    inputFields: [
      {
        key: 'page_id',
        label: 'Page',
        dynamic: 'page.id.title',
        required: false,
        helpText: 'Only leads of this page. Leave empty for every page.',
      },
    ],
    performSubscribe: subscribe,
    performUnsubscribe: unsubscribe,
    perform: receive,
    performList: list,
    sample,
    outputFields: [
      { key: 'id', label: 'Lead ID', type: 'integer' },
      { key: 'email', label: 'Email' },
      { key: 'createdAt', label: 'Signed Up At', type: 'datetime' },
      { key: 'consentAt', label: 'Consent Given At', type: 'datetime' },
      { key: 'page__id', label: 'Page ID', type: 'integer' },
      { key: 'page__slug', label: 'Page Slug' },
      { key: 'page__title', label: 'Page Title' },
      { key: 'page__url', label: 'Page URL' },
      { key: 'source__referrer', label: 'Referrer' },
      { key: 'source__utmSource', label: 'UTM Source' },
      { key: 'source__utmMedium', label: 'UTM Medium' },
      { key: 'source__utmCampaign', label: 'UTM Campaign' },
      { key: 'source__device', label: 'Device' },
    ],
  },
};
