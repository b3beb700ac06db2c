import { createHmac, timingSafeEqual } from 'crypto';

const TOLERANCE_SECONDS = 5 * 60;

/**
 * Standard Webhooks (Plink's docs/webhooks.md): one of the space-separated `v1,<base64>` signatures must be the
 * HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}" under the secret's key (`whsec_<base64>`), and the
 * timestamp within 5 minutes of now.
 */
export function verifySignature(
	secret: string,
	headers: Record<string, string | string[] | undefined>,
	body: string,
	nowSeconds = Date.now() / 1000,
): boolean {
	const one = (name: string) => {
		const value = headers[name];
		return Array.isArray(value) ? value[0] : value;
	};
	const id = one('webhook-id');
	const timestamp = one('webhook-timestamp');
	const signatures = one('webhook-signature');
	if (!secret || !id || !timestamp || !signatures) return false;
	if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
	return signatures.split(' ').some((part) => {
		const [version, value] = part.split(',');
		if (version !== 'v1' || !value) return false;
		const given = Buffer.from(value, 'base64');
		return given.length === expected.length && timingSafeEqual(given, expected);
	});
}
