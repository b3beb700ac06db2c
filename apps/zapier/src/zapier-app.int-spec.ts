import { Webhook } from 'standardwebhooks';
import { createAppTester } from 'zapier-platform-core';
import { eventually, AutomationTestbed, type PlinkCreator, type ReceivedWebhook } from '@plink/testing';

// The app exactly as `zapier push` uploads it (index.js at the package root).
const App = require('../index.js');
// Untyped in the SDK's declarations; it is what Zapier's runtime calls with `validate`.
const { createAppHandler } = require('zapier-platform-core');
const tester = createAppTester(App);
/** The app tester, with the loose bundles Zapier itself hands over (raw hook requests included). */
const appTester = (method: unknown, bundle: Record<string, unknown>): Promise<any> => tester(method as never, bundle as never);

interface Lead {
  id: number;
  email: string;
  createdAt: string;
  consentAt: string | null;
  page: { id: number; slug: string; title: string; url: string };
  source: Record<string, string | null>;
}

/**
 * Plink's Zapier app run by the Zapier SDK's own app tester (the code path Zapier runs in production: middleware,
 * z.request, error handling, schema) against a real Plink started for this file (`npm start`, built apps,
 * PostgreSQL, Redis, every worker). Nothing is mocked: where Zapier would receive a hook, a local HTTP server
 * does, and its request is handed to the trigger's perform as Zapier hands it over.
 */
describe('the Zapier app against a running Plink', () => {
  let bed: AutomationTestbed;
  const auth = (creator: PlinkCreator) => ({ instanceUrl: bed.plink.origin, apiToken: creator.token });

  beforeAll(async () => {
    bed = await AutomationTestbed.start();
  }, 180_000);

  afterAll(() => bed?.stop());

  it('passes the Zapier schema validation', async () => {
    const handler = createAppHandler(App);
    const answer = await new Promise<{ results: unknown[] }>((resolve, reject) =>
      handler({ command: 'validate', bundle: {} } as never, {} as never, (err: unknown, res: { results: unknown[] }) => (err ? reject(err) : resolve(res))),
    );
    expect(answer.results).toEqual([]);
  });

  it('connects with the instance address and token, labelled with the account e-mail; a bad token is refused with Plink’s message', async () => {
    const me = await appTester(App.authentication.test, { authData: auth(bed.pro) });
    expect(me).toEqual({ id: bed.pro.id, email: bed.pro.email, username: expect.any(String), plan: 'pro' });
    expect(App.authentication.connectionLabel).toBe('{{json.email}}');
    // As a self-hoster may paste it: with a trailing slash.
    expect(await appTester(App.authentication.test, { authData: { ...auth(bed.free), instanceUrl: `${bed.plink.origin}/` } })).toMatchObject({ email: bed.free.email, plan: 'free' });

    await expect(appTester(App.authentication.test, { authData: { ...auth(bed.pro), apiToken: 'plk_not-a-real-token' } })).rejects.toThrow(
      'Your API token is not valid.',
    );
  });

  it('fills the Page dropdown with the creator’s pages', async () => {
    const pages = await appTester(App.triggers.page.operation.perform, { authData: auth(bed.pro) });
    expect(pages).toEqual([expect.objectContaining({ id: bed.pro.page.id, slug: bed.pro.page.slug, title: bed.pro.page.title, url: expect.stringContaining(bed.pro.page.slug) })]);
  });

  it('Create Lead adds the address to the page; the same address again answers created=false with the same lead', async () => {
    const inputData = { page_id: String(bed.free.page.id), email: 'grace@example.org', consent: 'true' };
    const first = await appTester(App.creates.create_lead.operation.perform, { authData: auth(bed.free), inputData });
    expect(first).toMatchObject({ created: true, id: expect.any(Number), email: 'grace@example.org', consentAt: expect.any(String), page: { id: bed.free.page.id } });

    const again = await appTester(App.creates.create_lead.operation.perform, { authData: auth(bed.free), inputData: { ...inputData, email: 'Grace@Example.org' } });
    expect(again).toMatchObject({ created: false, id: first.id });

    // Another creator's page is not theirs to fill.
    await expect(
      appTester(App.creates.create_lead.operation.perform, { authData: auth(bed.pro), inputData: { ...inputData, email: 'eve@example.org' } }),
    ).rejects.toThrow();
    const leads = (await appTester(App.triggers.new_lead.operation.performList, { authData: auth(bed.free), inputData: {} })) as Lead[];
    expect(leads.map((l) => l.email)).toEqual(['grace@example.org']);
  });

  it('New Lead: subscribing registers Zapier’s URL, each new lead arrives signed and becomes the lead performList shows; unsubscribing stops it', async () => {
    const targetUrl = `${bed.receiver.origin}/zapier/hooks/standard/123/abc`;
    const path = new URL(targetUrl).pathname;
    const subscribeData = await appTester(App.triggers.new_lead.operation.performSubscribe, {
      authData: auth(bed.pro),
      targetUrl,
      inputData: { page_id: String(bed.pro.page.id) },
    });
    expect(subscribeData).toEqual({ id: expect.anything(), event: 'lead.created', target_url: targetUrl, page_id: bed.pro.page.id, secret: expect.stringMatching(/^whsec_/) });

    await appTester(App.creates.create_lead.operation.perform, { authData: auth(bed.pro), inputData: { page_id: String(bed.pro.page.id), email: 'ada@example.org' } });
    const delivery = await eventually(async () => bed.receiver.on(path)[0], 20_000);
    // Plink signed it with the secret the subscription answered (checked here with the reference implementation).
    expect(() => new Webhook(subscribeData.secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();

    const [fromHook] = (await appTester(App.triggers.new_lead.operation.perform, zapierHookBundle(delivery, subscribeData))) as Lead[];
    expect(fromHook).toMatchObject({ email: 'ada@example.org', consentAt: null, page: { id: bed.pro.page.id, slug: bed.pro.page.slug, title: bed.pro.page.title } });
    // The sample (performList) has the very same shape, so fields mapped while setting up the Zap match live runs.
    const listed = (await appTester(App.triggers.new_lead.operation.performList, { authData: auth(bed.pro), inputData: { page_id: String(bed.pro.page.id) } })) as Lead[];
    expect(listed[0]).toEqual(fromHook);

    // A request not signed with the hook's secret starts no Zap run.
    const forged = { ...delivery, body: delivery.body.replace('ada@example.org', 'mallory@example.org') };
    await expect(appTester(App.triggers.new_lead.operation.perform, zapierHookBundle(forged, subscribeData))).rejects.toThrow(/not signed by Plink/);

    await appTester(App.triggers.new_lead.operation.performUnsubscribe, { authData: auth(bed.pro), subscribeData });
    expect(await bed.hooks(bed.pro, targetUrl)).toEqual([]);
    await appTester(App.creates.create_lead.operation.perform, { authData: auth(bed.pro), inputData: { page_id: String(bed.pro.page.id), email: 'late@example.org' } });
    // Deliveries take well under a second here; after 3 s nothing more has come.
    await new Promise((r) => setTimeout(r, 3000));
    expect(bed.receiver.on(path)).toHaveLength(1);
  });

  it('New Lead: when Zapier answers 410 Gone (the Zap was deleted without unsubscribing), Plink drops the subscription', async () => {
    const targetUrl = `${bed.receiver.origin}/zapier/hooks/standard/123/gone`;
    const path = new URL(targetUrl).pathname;
    bed.receiver.answer(path, { status: 410, body: 'gone' });
    await appTester(App.triggers.new_lead.operation.performSubscribe, { authData: auth(bed.pro), targetUrl, inputData: {} });
    await appTester(App.creates.create_lead.operation.perform, { authData: auth(bed.pro), inputData: { page_id: String(bed.pro.page.id), email: 'gone@example.org' } });
    const hooksFor = () => bed.hooks(bed.pro, targetUrl);
    expect(await hooksFor()).toHaveLength(1);
    await eventually(async () => bed.receiver.on(path).length === 1, 20_000);
    await eventually(async () => (await hooksFor()).length === 0, 10_000);
  });

  it('New Lead on Free: turning the Zap on fails with Plink’s reason', async () => {
    await expect(
      appTester(App.triggers.new_lead.operation.performSubscribe, { authData: auth(bed.free), targetUrl: `${bed.receiver.origin}/free`, inputData: {} }),
    ).rejects.toThrow('Webhooks are part of Plink Pro.');
  });
});

/** What Zapier's perform gets for a caught POST: the parsed body, and the raw request with `Http-`-prefixed headers. */
function zapierHookBundle(delivery: ReceivedWebhook, subscribeData: unknown) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) {
    headers[`Http-${name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())}`] = String(value);
  }
  return { cleanedRequest: JSON.parse(delivery.body), rawRequest: { method: 'POST', headers, content: delivery.body }, subscribeData };
}
