import { eventually, AutomationTestbed, type PlinkCreator } from '@plink/testing';
import { PlinkApi } from '../credentials/PlinkApi.credentials';
import { Plink } from '../nodes/Plink/Plink.node';
import { PlinkTrigger } from '../nodes/PlinkTrigger/PlinkTrigger.node';
import { fakeN8n, resolveCredentialExpression } from './n8n-context';

/**
 * The n8n nodes' own code (credential, trigger's webhook methods and webhook(), the action's execute and page
 * list) called as n8n calls them, against a real Plink started for this file (`npm start`: built apps, PostgreSQL,
 * Redis, every worker). The n8n runtime is reduced to the few functions the nodes use (src/n8n-context.ts: the
 * credential's header applied, the request sent with fetch); the hook deliveries are real, caught by a local server.
 */
describe('the n8n nodes against a running Plink', () => {
	let bed: AutomationTestbed;
	const credential = new PlinkApi();
	const credentialsOf = (creator: PlinkCreator) => ({ instanceUrl: `${bed.plink.origin}/`, apiToken: creator.token });

	beforeAll(async () => {
		bed = await AutomationTestbed.start();
	}, 180_000);

	afterAll(() => bed?.stop());

	/** The credential's own test request (what n8n's "Test" button sends), resolved and sent. */
	async function testCredential(credentials: Record<string, string>) {
		const request = credential.test.request;
		const url = `${resolveCredentialExpression(String(request.baseURL), credentials)}${request.url}`;
		const headers = { Authorization: resolveCredentialExpression(credential.authenticate.properties.headers!.Authorization as string, credentials) };
		const answer = await fetch(url, { method: request.method, headers });
		return { status: answer.status, body: await answer.json() };
	}

	it('the credential’s test request answers the account for a good token and Plink’s message for a bad one', async () => {
		expect(await testCredential(credentialsOf(bed.pro))).toEqual({ status: 200, body: expect.objectContaining({ email: bed.pro.email, plan: 'pro' }) });
		expect(await testCredential({ ...credentialsOf(bed.pro), apiToken: 'plk_wrong' })).toEqual({ status: 401, body: { message: 'Your API token is not valid.' } });
	});

	it('Plink node: lists pages (also in the page dropdown), creates a lead once, lists the page’s leads newest first', async () => {
		const node = new Plink();
		const run = (parameters: Record<string, unknown>, items?: { json: Record<string, unknown> }[]) =>
			node.execute.call(fakeN8n({ credential, credentials: credentialsOf(bed.free), parameters, items }).context);

		const dropdown = await node.methods.loadOptions.getPages.call(fakeN8n({ credential, credentials: credentialsOf(bed.free) }).context);
		expect(dropdown).toEqual([{ name: bed.free.page.title, value: bed.free.page.id, description: bed.free.page.slug }]);
		const [pages] = await run({ resource: 'page', operation: 'getAll' });
		expect(pages.map((p) => p.json)).toEqual([expect.objectContaining({ id: bed.free.page.id, slug: bed.free.page.slug })]);

		const create = { resource: 'lead', operation: 'create', pageId: bed.free.page.id, consent: true };
		const [made] = await run({ ...create, email: 'lin@example.org' }, [{ json: {} }]);
		expect(made[0].json).toMatchObject({ created: true, email: 'lin@example.org', consentAt: expect.any(String), page: { id: bed.free.page.id } });
		const [again] = await run({ ...create, email: 'lin@example.org' });
		expect(again[0].json).toMatchObject({ created: false, id: made[0].json.id });
		await run({ ...create, email: 'max@example.org' });

		const [leads] = await run({ resource: 'lead', operation: 'getAll', filterPageId: bed.free.page.id, limit: 10 });
		expect(leads.map((l) => l.json.email)).toEqual(['max@example.org', 'lin@example.org']);
		const [one] = await run({ resource: 'lead', operation: 'getAll', filterPageId: '', limit: 1 });
		expect(one.map((l) => l.json.email)).toEqual(['max@example.org']);

		// Another creator's page: the node fails with Plink's answer, nothing is added.
		await expect(
			node.execute.call(fakeN8n({ credential, credentials: credentialsOf(bed.pro), parameters: { ...create, email: 'eve@example.org' } }).context),
		).rejects.toThrow();
		const [after] = await run({ resource: 'lead', operation: 'getAll', filterPageId: bed.free.page.id, limit: 10 });
		expect(after).toHaveLength(2);
	});

	it('Plink Trigger: activation subscribes the workflow URL, a new lead runs the workflow with the lead, a forged call is refused, deactivation unsubscribes', async () => {
		const trigger = new PlinkTrigger();
		const webhookUrl = `${bed.receiver.origin}/webhook/4f1c2a/webhook`;
		const staticData: Record<string, unknown> = {};
		const hook = () => fakeN8n({ credential, credentials: credentialsOf(bed.pro), parameters: { pageId: bed.pro.page.id }, staticData, webhookUrl }).context;
		const methods = trigger.webhookMethods.default;
		const listHooks = () => bed.hooks(bed.pro, webhookUrl);

		expect(await methods.checkExists.call(hook())).toBe(false);
		expect(await methods.create.call(hook())).toBe(true);
		expect(staticData).toEqual({ hookId: expect.anything(), secret: expect.stringMatching(/^whsec_/) });
		expect(await methods.checkExists.call(hook())).toBe(true);
		expect(await listHooks()).toEqual([{ id: staticData.hookId, event: 'lead.created', target_url: webhookUrl, page_id: bed.pro.page.id }]);

		await new Plink().execute.call(
			fakeN8n({ credential, credentials: credentialsOf(bed.pro), parameters: { resource: 'lead', operation: 'create', pageId: bed.pro.page.id, email: 'ada@example.org', consent: false } }).context,
		);
		const path = new URL(webhookUrl).pathname;
		const delivery = await eventually(async () => bed.receiver.on(path)[0], 20_000);

		const received = fakeN8n({ credential, credentials: credentialsOf(bed.pro), staticData, request: { headers: delivery.headers, rawBody: delivery.body } });
		// The node itself checks the signature against the secret create() kept.
		const run = await trigger.webhook.call(received.context);
		expect(run.workflowData).toEqual([[{ json: expect.objectContaining({ email: 'ada@example.org', page: expect.objectContaining({ id: bed.pro.page.id }) }) }]]);

		const forged = fakeN8n({ credential, credentials: credentialsOf(bed.pro), staticData, request: { headers: delivery.headers, rawBody: delivery.body.replace('ada@', 'eve@') } });
		expect(await trigger.webhook.call(forged.context)).toEqual({ noWebhookResponse: true });
		expect(forged.response).toEqual({ statusCode: 401, body: 'Invalid signature' });

		expect(await methods.delete.call(hook())).toBe(true);
		expect(staticData).toEqual({});
		expect(await listHooks()).toEqual([]);
		expect(await methods.checkExists.call(hook())).toBe(false);
	});

	it('Plink Trigger: a subscription left from an earlier activation whose secret was lost is replaced, not kept', async () => {
		const trigger = new PlinkTrigger();
		const webhookUrl = `${bed.receiver.origin}/webhook/lost/webhook`;
		const first: Record<string, unknown> = {};
		const ctx = (staticData: Record<string, unknown>) =>
			fakeN8n({ credential, credentials: credentialsOf(bed.pro), parameters: { pageId: '' }, staticData, webhookUrl }).context;
		await trigger.webhookMethods.default.create.call(ctx(first));
		const fresh: Record<string, unknown> = {};
		expect(await trigger.webhookMethods.default.checkExists.call(ctx(fresh))).toBe(false);
		await trigger.webhookMethods.default.create.call(ctx(fresh));
		const hooks = await bed.hooks(bed.pro, webhookUrl);
		expect(hooks).toEqual([{ id: fresh.hookId, event: 'lead.created', target_url: webhookUrl, page_id: null }]);
		await trigger.webhookMethods.default.delete.call(ctx(fresh));
	});

	it('Plink Trigger on Free: activation fails with Plink’s reason', async () => {
		const context = fakeN8n({ credential, credentials: credentialsOf(bed.free), parameters: { pageId: '' }, staticData: {}, webhookUrl: `${bed.receiver.origin}/free` }).context;
		await expect(new PlinkTrigger().webhookMethods.default.create.call(context)).rejects.toMatchObject({
			response: { status: 403, data: { message: 'Webhooks are part of Plink Pro.' } },
		});
	});
});
