import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

type PlinkContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions | IWebhookFunctions;

/** The credential's instance address as an origin without a trailing slash ("plink.example" gets https://). */
export function instanceOrigin(instanceUrl: unknown): string {
	let url = String(instanceUrl ?? '').trim();
	if (!/^https?:\/\//i.test(url)) url = `https://${url}`;
	return url.replace(/\/+$/, '');
}

/** A call to the creator's Plink /api/v1, with the token the credential adds. */
export async function plinkApiRequest(
	this: PlinkContext,
	method: IHttpRequestMethods,
	path: string,
	body?: IDataObject,
	qs?: IDataObject,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
	const credentials = await this.getCredentials('plinkApi');
	return await this.helpers.httpRequestWithAuthentication.call(this, 'plinkApi', {
		method,
		url: `${instanceOrigin(credentials.instanceUrl)}/api/v1${path}`,
		body,
		qs,
		json: true,
	});
}
