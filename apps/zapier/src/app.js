// The app definition Zapier loads: authentication, the New Lead trigger (and the hidden page list behind its
// dropdown), the Create Lead action, and the middleware that adds the token and turns Plink's errors into
// messages a Zapier user can act on.
const { version: platformVersion } = require('zapier-platform-core');
const { version } = require('../package.json');
const authentication = require('./authentication');
const { addBearer, explainErrors } = require('./api');
const pages = require('./triggers/pages');
const newLead = require('./triggers/new-lead');
const createLead = require('./creates/create-lead');

module.exports = {
  version,
  platformVersion,
  authentication,
  // Every request goes through z.request; patching Node's http for Zapier's request log is not needed.
  flags: { skipHttpPatch: true },
  beforeRequest: [addBearer],
  afterResponse: [explainErrors],
  triggers: { [pages.key]: pages, [newLead.key]: newLead },
  creates: { [createLead.key]: createLead },
};
