// "Create Lead": adds an address to a page's leads (POST /api/v1/pages/{id}/leads). An address already on the page
// is not an error: the existing lead comes back with created=false.
const { apiUrl } = require('../api');
const sample = require('../sample-lead');

module.exports = {
  key: 'create_lead',
  noun: 'Lead',
  display: { label: 'Create Lead', description: 'Adds an e-mail address to the leads of one of your Plink pages.' },
  operation: {
    inputFields: [
      { key: 'page_id', label: 'Page', dynamic: 'page.id.title', required: true },
      { key: 'email', label: 'Email', required: true },
      {
        key: 'consent',
        label: 'Consent Given',
        type: 'boolean',
        required: false,
        helpText: 'Yes when the person agreed to your privacy policy where you collected the address.',
      },
    ],
    perform: async (z, bundle) => {
      const body = { email: bundle.inputData.email };
      if (bundle.inputData.consent !== undefined && bundle.inputData.consent !== '') body.consent = bundle.inputData.consent === true || bundle.inputData.consent === 'true';
      const response = await z.request({
        url: apiUrl(bundle, `/pages/${encodeURIComponent(bundle.inputData.page_id)}/leads`),
        method: 'POST',
        body,
      });
      return { created: response.data.created, ...response.data.lead };
    },
    sample: { created: true, ...sample },
    outputFields: [
      { key: 'created', label: 'Created (false: already a lead)', type: 'boolean' },
      { key: 'id', label: 'Lead ID', type: 'integer' },
      { key: 'email', label: 'Email' },
    ],
  },
};
