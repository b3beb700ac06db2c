// Connect a Plink account: the instance's address (Plink's own or a self-hosted one) and an API token made in
// Plink's Settings. Zapier tests it with /api/v1/me and names the connection after the account's e-mail.
const { apiUrl } = require('./api');

module.exports = {
  type: 'custom',
  fields: [
    {
      key: 'instanceUrl',
      label: 'Plink address',
      type: 'string',
      required: true,
      helpText: 'The address you sign in to Plink at, e.g. `https://app.plink.example`. Self-hosting? Use your own instance\'s address.',
    },
    {
      key: 'apiToken',
      label: 'API token',
      type: 'password',
      required: true,
      helpText: 'Make one in Plink under Settings → API tokens. It starts with `plk_`.',
    },
  ],
  test: async (z, bundle) => {
    const response = await z.request({ url: apiUrl(bundle, '/me') });
    return response.data;
  },
  connectionLabel: '{{json.email}}',
};
