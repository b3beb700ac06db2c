import {
	NodeApiError,
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type JsonObject,
} from 'n8n-workflow';
import { plinkApiRequest } from '../../shared/transport';

export class Plink implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Plink',
		name: 'plink',
		icon: { light: 'file:../../icons/plink.svg', dark: 'file:../../icons/plink.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Add leads to your Plink pages and read your pages and leads',
		defaults: { name: 'Plink' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'plinkApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Lead', value: 'lead' },
					{ name: 'Page', value: 'page' },
				],
				default: 'lead',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['lead'] } },
				options: [
					{ name: 'Create', value: 'create', action: 'Create a lead', description: 'Add an e-mail address to a page’s leads' },
					{ name: 'Get Many', value: 'getAll', action: 'Get many leads', description: 'Get the newest leads' },
				],
				default: 'create',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['page'] } },
				options: [{ name: 'Get Many', value: 'getAll', action: 'Get many pages', description: 'Get your pages' }],
				default: 'getAll',
			},
			{
				displayName: 'Page Name or ID',
				name: 'pageId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getPages' },
				required: true,
				default: '',
				description: 'The page whose leads the address joins. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { resource: ['lead'], operation: ['create'] } },
			},
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				required: true,
				default: '',
				displayOptions: { show: { resource: ['lead'], operation: ['create'] } },
			},
			{
				displayName: 'Consent Given',
				name: 'consent',
				type: 'boolean',
				default: false,
				description: 'Whether the person agreed to your privacy policy where you collected the address',
				displayOptions: { show: { resource: ['lead'], operation: ['create'] } },
			},
			{
				displayName: 'Page Name or ID',
				name: 'filterPageId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getPages' },
				default: '',
				description: 'Only the leads of this page (empty: every page). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { resource: ['lead'], operation: ['getAll'] } },
			},
			{
				displayName: 'Limit',
				name: 'limit',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 50,
				description: 'Max number of results to return',
				displayOptions: { show: { resource: ['lead'], operation: ['getAll'] } },
			},
		],
	};

	methods = {
		loadOptions: {
			async getPages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const pages = (await plinkApiRequest.call(this, 'GET', '/pages')) as Array<{ id: number; title: string; slug: string }>;
				return pages.map((page) => ({ name: page.title || page.slug, value: page.id, description: page.slug }));
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const resource = this.getNodeParameter('resource', i) as string;
			const operation = this.getNodeParameter('operation', i) as string;
			try {
				let result: IDataObject | IDataObject[];
				if (resource === 'lead' && operation === 'create') {
					const pageId = this.getNodeParameter('pageId', i) as string | number;
					const body: IDataObject = {
						email: this.getNodeParameter('email', i) as string,
						consent: this.getNodeParameter('consent', i, false) as boolean,
					};
					const answer = (await plinkApiRequest.call(this, 'POST', `/pages/${encodeURIComponent(String(pageId))}/leads`, body)) as {
						created: boolean;
						lead: IDataObject;
					};
					result = { created: answer.created, ...answer.lead };
				} else if (resource === 'lead' && operation === 'getAll') {
					const qs: IDataObject = { limit: this.getNodeParameter('limit', i, 50) as number };
					const pageId = this.getNodeParameter('filterPageId', i, '') as string | number;
					if (pageId !== '') qs.page_id = pageId;
					result = (await plinkApiRequest.call(this, 'GET', '/leads', undefined, qs)) as IDataObject[];
				} else {
					result = (await plinkApiRequest.call(this, 'GET', '/pages')) as IDataObject[];
				}
				const rows = Array.isArray(result) ? result : [result];
				out.push(...rows.map((json) => ({ json, pairedItem: { item: i } })));
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex: i });
			}
		}
		return [out];
	}
}
