import type { ICredentialType, IExecuteFunctions, IHookFunctions, ILoadOptionsFunctions, IWebhookFunctions } from 'n8n-workflow';

/** Every kind of `this` n8n gives a node method; the fake below answers all of them. */
type N8nThis = IExecuteFunctions & IHookFunctions & ILoadOptionsFunctions & IWebhookFunctions;

/** What n8n's runtime gives a node method, reduced to what Plink's nodes use. */
export interface FakeN8n {
	/** Passed as `this` to the node's methods. */
	context: N8nThis;
	/** The answer a webhook() call wrote itself (status and body), when it did. */
	response: { statusCode: number; body: unknown };
}

export interface FakeN8nOptions {
	credential: ICredentialType;
	credentials: Record<string, string>;
	parameters?: Record<string, unknown>;
	staticData?: Record<string, unknown>;
	webhookUrl?: string;
	items?: { json: Record<string, unknown> }[];
	/** For webhook(): the request as it reached n8n. */
	request?: { headers: Record<string, string | string[] | undefined>; rawBody: string };
}

/**
 * Evaluates a credential's `=…{{ expression }}…` string as n8n does, for the expressions Plink's credential uses:
 * `$credentials.name`, optionally followed by `.replace(/regex/flags, "text")`. Anything else throws, so a
 * credential using more than this knows fails its test instead of being half checked.
 */
export function resolveCredentialExpression(value: string, credentials: Record<string, string>): string {
	if (!value.startsWith('=')) return value;
	return value.slice(1).replace(/\{\{([\s\S]+?)\}\}/g, (_m, source: string) => {
		const match = /^\s*\$credentials\.(\w+)(?:\.replace\(\/(.+)\/([gimsuy]*),\s*"([^"]*)"\))?\s*$/.exec(source);
		if (!match) throw new Error(`expression not supported by the test: {{${source}}}`);
		const [, name, pattern, flags, replacement] = match;
		const text = String(credentials[name] ?? '');
		return pattern === undefined ? text : text.replace(new RegExp(pattern, flags), replacement);
	});
}

/**
 * n8n's httpRequestWithAuthentication for a generic credential: the credential's `authenticate` headers added to
 * the request, sent with fetch, the JSON answer returned, an HTTP error thrown like n8n's request helper throws it
 * (message, httpCode, response.status and response.data), which NodeApiError then reads.
 */
async function httpRequestWithAuthentication(
	credential: ICredentialType,
	credentials: Record<string, string>,
	options: { method?: string; url: string; body?: unknown; qs?: Record<string, unknown>; json?: boolean },
): Promise<unknown> {
	const auth = credential.authenticate as { properties: { headers?: Record<string, string> } };
	const headers: Record<string, string> = { accept: 'application/json' };
	for (const [name, value] of Object.entries(auth.properties.headers ?? {})) headers[name] = resolveCredentialExpression(value, credentials);
	const url = new URL(options.url);
	for (const [key, value] of Object.entries(options.qs ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const answer = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
	const text = await answer.text();
	const data = text ? JSON.parse(text) : undefined;
	if (!answer.ok) {
		throw Object.assign(new Error(`Request failed with status code ${answer.status}`), {
			httpCode: String(answer.status),
			response: { status: answer.status, data, headers: Object.fromEntries(answer.headers) },
		});
	}
	return data;
}

export function fakeN8n(options: FakeN8nOptions): FakeN8n {
	const response = { statusCode: 200, body: undefined as unknown };
	const parameters = options.parameters ?? {};
	const staticData = options.staticData ?? {};
	const context = {
		getCredentials: async (name: string) => {
			if (name !== options.credential.name) throw new Error(`unknown credential ${name}`);
			return options.credentials;
		},
		// IExecuteFunctions: (name, itemIndex, fallback); IHookFunctions and the others: (name, fallback).
		getNodeParameter: (name: string, indexOrFallback?: unknown, fallback?: unknown) =>
			name in parameters ? parameters[name] : typeof indexOrFallback === 'number' ? fallback : indexOrFallback,
		getWorkflowStaticData: () => staticData,
		getNodeWebhookUrl: () => options.webhookUrl,
		getNode: () => ({ id: 'node-1', name: 'Plink', type: 'n8n-nodes-plink.plink', typeVersion: 1, position: [0, 0], parameters }),
		getInputData: () => options.items ?? [{ json: {} }],
		continueOnFail: () => false,
		getRequestObject: () => ({ headers: options.request?.headers ?? {}, rawBody: Buffer.from(options.request?.rawBody ?? '') }),
		getHeaderData: () => options.request?.headers ?? {},
		getBodyData: () => JSON.parse(options.request?.rawBody || '{}'),
		getResponseObject: () => ({
			status(code: number) {
				response.statusCode = code;
				return this;
			},
			send(body: unknown) {
				response.body = body;
				return this;
			},
		}),
		helpers: {
			httpRequestWithAuthentication: (credentialName: string, requestOptions: Parameters<typeof httpRequestWithAuthentication>[2]) => {
				if (credentialName !== options.credential.name) throw new Error(`unknown credential ${credentialName}`);
				return httpRequestWithAuthentication(options.credential, options.credentials, requestOptions);
			},
			returnJsonArray: (rows: Record<string, unknown>[]) => rows.map((json) => ({ json })),
		},
	};
	return { context: context as unknown as N8nThis, response };
}
