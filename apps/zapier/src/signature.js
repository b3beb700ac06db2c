// Standard Webhooks signatures (docs/webhooks.md): v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}"> with the
// hook's secret (`whsec_<base64 key>`). Checked on the raw body as Plink sent it.
const crypto = require('node:crypto');

const TOLERANCE_SECONDS = 5 * 60;

/** The header's value whatever its case or Zapier's `Http-` prefix, or undefined. */
function header(headers, name) {
  const wanted = [name, `http-${name}`];
  const key = Object.keys(headers || {}).find((k) => wanted.includes(k.toLowerCase()));
  return key === undefined ? undefined : String(headers[key]);
}

/** True when one of the request's signatures is the secret's and its timestamp is within 5 minutes. */
function verifySignature(secret, headers, body, nowSeconds = Date.now() / 1000) {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!secret || !id || !timestamp || !signatures) return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(String(secret).replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((part) => {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}

module.exports = { verifySignature };
