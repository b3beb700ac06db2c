// What every part of the app shares: the creator's Plink address and the calls to its /api/v1.

/** The instance URL as typed ("https://plink.example.com/" or without the scheme), as an origin without a slash. */
function instanceOrigin(authData) {
  let url = String((authData && authData.instanceUrl) || '').trim();
  if (!/^https?:\/\//i.test(url)) url = `https://${url}`;
  return url.replace(/\/+$/, '');
}

/** The full address of an /api/v1 path on the creator's Plink. */
function apiUrl(bundle, path) {
  return `${instanceOrigin(bundle.authData)}/api/v1${path}`;
}

/** Sends the token on every request to the creator's Plink (never to another host). */
function addBearer(request, z, bundle) {
  const token = bundle.authData && bundle.authData.apiToken;
  if (token && request.url.startsWith(`${instanceOrigin(bundle.authData)}/api/v1/`)) {
    request.headers = { ...request.headers, Authorization: `Bearer ${token}` };
  }
  return request;
}

/** Plink's own error message (`{ message }`) in the Zap's error, instead of a bare status code. */
function explainErrors(response, z) {
  if (response.status >= 400) {
    let message = '';
    try {
      message = JSON.parse(response.content).message || '';
    } catch {
      // not JSON: a proxy's page, shown by status only
    }
    const text = message || `Plink answered ${response.status}.`;
    if (response.status === 401) throw new z.errors.ExpiredAuthError(text);
    if (response.status === 429) {
      const retry = Number(response.getHeader('retry-after')) || 60;
      throw new z.errors.ThrottledError(text, retry);
    }
    throw new z.errors.Error(text, 'PlinkError', response.status);
  }
  return response;
}

module.exports = { instanceOrigin, apiUrl, addBearer, explainErrors };
