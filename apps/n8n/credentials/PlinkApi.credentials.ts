import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

// A Plink account: the instance's address (Plink's own or a self-hosted one) and an API token from its Settings.
export class PlinkApi implements ICredentialType {
	name = 'plinkApi';

	displayName = 'Plink API';

	icon: Icon = { light: 'file:../icons/plink.svg', dark: 'file:../icons/plink.dark.svg' };

	documentationUrl = 'https://plink.example/docs/integrations#n8n';

	properties: INodeProperties[] = [
		{
			displayName: 'Plink Address',
			name: 'instanceUrl',
			type: 'string',
			default: '',
			placeholder: 'https://app.plink.example',
			required: true,
			description: 'The address you sign in to Plink at. Self-hosting? Use your own instance’s address.',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Make one in Plink under Settings → API tokens. It starts with plk_.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.instanceUrl.replace(/\\/+$/, "")}}/api/v1',
			url: '/me',
			method: 'GET',
		},
	};
}
