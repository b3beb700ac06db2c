import {
	NodeApiError,
	NodeConnectionTypes,
	type IDataObject,
	type IHookFunctions,
	type ILoadOptionsFunctions,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	type JsonObject,
} from 'n8n-workflow';
import { plinkApiRequest } from '../../shared/transport';
import { verifySignature } from '../../shared/signature';

interface PlinkHook {
	id: number | string;
	event: string;
	target_url: string;
	page_id: number | null;
	secret?: string;
}

/** What the node keeps between activations: the hook Plink made for this workflow's URL and its secret. */
interface HookState {
	hookId?: number | string;
	secret?: string;
}

// Activating the workflow subscribes its webhook URL to lead.created through /api/v1/hooks (Plink Pro);
// deactivating deletes the subscription. Each delivery is checked against the hook's secret.
export class PlinkTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Plink Trigger',
		name: 'plinkTrigger',
		icon: { light: 'file:../../icons/plink.svg', dark: 'file:../../icons/plink.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '=New lead',
		description: 'Starts the workflow when someone signs up on one of your Plink pages (Plink Pro)',
		defaults: { name: 'Plink Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'plinkApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Page Name or ID',
				name: 'pageId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getPages' },
				default: '',
				description: 'Only the leads of this page (empty: every page). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	};

	methods = {
		loadOptions: {
			async getPages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const pages = (await plinkApiRequest.call(this, 'GET', '/pages')) as Array<{ id: number; title: string; slug: string }>;
				return [
					{ name: 'All Pages', value: '' },
					...pages.map((page) => ({ name: page.title || page.slug, value: page.id, description: page.slug })),
				];
			},
		},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as HookState;
				const url = this.getNodeWebhookUrl('default') as string;
				const pageId = pageOf(this.getNodeParameter('pageId', '') as string | number);
				const hooks = (await plinkApiRequest.call(this, 'GET', '/hooks', undefined, { target_url: url })) as PlinkHook[];
				const ours = hooks.find((hook) => String(hook.id) === String(state.hookId));
				if (ours && ours.page_id === pageId && state.secret) return true;
				// A hook for this URL that this node cannot check (secret unknown, or another page): replaced by create.
				for (const hook of hooks) await deleteHook.call(this, hook.id);
				delete state.hookId;
				delete state.secret;
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as HookState;
				const body: IDataObject = { event: 'lead.created', target_url: this.getNodeWebhookUrl('default') as string };
				const pageId = pageOf(this.getNodeParameter('pageId', '') as string | number);
				if (pageId !== null) body.page_id = pageId;
				const hook = (await plinkApiRequest.call(this, 'POST', '/hooks', body)) as PlinkHook;
				state.hookId = hook.id;
				state.secret = hook.secret;
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as HookState;
				if (state.hookId !== undefined) await deleteHook.call(this, state.hookId);
				delete state.hookId;
				delete state.secret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const state = this.getWorkflowStaticData('node') as HookState;
		const request = this.getRequestObject() as ReturnType<IWebhookFunctions['getRequestObject']> & { rawBody?: Buffer };
		const raw = request.rawBody ? request.rawBody.toString('utf8') : JSON.stringify(this.getBodyData());
		if (!state.secret || !verifySignature(state.secret, this.getHeaderData() as Record<string, string>, raw)) {
			// Not from Plink (or from a hook this workflow no longer has): refused, and no execution.
			const response = this.getResponseObject();
			response.status(401).send('Invalid signature');
			return { noWebhookResponse: true };
		}
		const event = this.getBodyData() as { type?: string; data?: IDataObject };
		if (event.type !== 'lead.created' || !event.data) return { webhookResponse: 'ignored' };
		return { workflowData: [this.helpers.returnJsonArray([event.data])] };
	}
}

function pageOf(value: string | number): number | null {
	return value === '' || value === undefined || value === null ? null : Number(value);
}

/** Deletes a hook; one already gone (404) counts as deleted. */
async function deleteHook(this: IHookFunctions, id: number | string): Promise<void> {
	try {
		await plinkApiRequest.call(this, 'DELETE', `/hooks/${encodeURIComponent(String(id))}`);
	} catch (error) {
		const status = (error as { httpCode?: string; response?: { status?: number } }).httpCode ?? (error as { response?: { status?: number } }).response?.status;
		if (String(status) !== '404') throw new NodeApiError(this.getNode(), error as JsonObject);
	}
}
