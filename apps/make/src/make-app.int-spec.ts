import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { eventually, AutomationTestbed, type PlinkCreator } from '@plink/testing';
import { evaluate } from './iml';
import { APP_DIR, callMake, definition } from './make-runner';

interface Manifest {
  generalCodeFiles: { base: string };
  components: Record<string, Record<string, { codeFiles: Record<string, string>; connection?: string; webhook?: string }>>;
}
interface Field {
  name: string;
  spec?: Field[];
}

const manifest = definition<Manifest>('makecomapp.json');
const files = (kind: string, name: string) => manifest.components[kind][name].codeFiles;
const base = definition<any>(manifest.generalCodeFiles.base);
const connection = definition<any>(files('connection', 'plink').communication);
const attach = definition<any>(files('webhook', 'newLead').attach);
const detach = definition<any>(files('webhook', 'newLead').detach);
const watchLeads = definition<any>(files('module', 'watchNewLeads').communication);
const createLead = definition<any>(files('module', 'createLead').communication);
const listPages = definition<any>(files('rpc', 'listPages').communication);

/**
 * Plink's Make app as the JSON Make imports, run by a small interpreter of those files (src/make-runner.ts, the IML
 * subset in src/iml.ts) against a real Plink started for this file (`npm start`: built apps, PostgreSQL, Redis,
 * every worker): the connection check, the pages RPC, the create-lead action, the instant trigger's attach and
 * detach and its output for a real delivery, caught by a local server and checked against the hook's secret.
 */
describe('the Make app definition against a running Plink', () => {
  let bed: AutomationTestbed;
  const connectionOf = (creator: PlinkCreator) => ({ instanceUrl: `${bed.plink.origin}/`, apiToken: creator.token });

  beforeAll(async () => {
    bed = await AutomationTestbed.start();
  }, 180_000);

  afterAll(() => bed?.stop());

  it('names only files that exist, and every module and webhook a connection the app has', () => {
    const named = [manifest.generalCodeFiles.base, ...Object.values(manifest.components).flatMap((group) => Object.values(group).flatMap((c) => Object.values(c.codeFiles)))];
    expect(named.filter((file) => !existsSync(join(APP_DIR, file)))).toEqual([]);
    const connections = Object.keys(manifest.components.connection);
    for (const group of ['webhook', 'rpc']) for (const c of Object.values(manifest.components[group])) expect(connections).toContain(c.connection);
    expect(manifest.components.webhook).toHaveProperty(manifest.components.module.watchNewLeads.webhook!);
  });

  it('connection: verified with /api/v1/me and labelled with the e-mail; a bad token gets Plink’s message', async () => {
    const checked = await callMake(connection, { parameters: connectionOf(bed.pro) });
    expect(checked.metadata).toEqual({ type: 'email', value: bed.pro.email });
    expect(checked.request.url).toBe(`${bed.plink.origin}/api/v1/me`);
    await expect(callMake(connection, { parameters: { ...connectionOf(bed.pro), apiToken: 'plk_wrong' } })).rejects.toThrow('[401] Your API token is not valid.');
  });

  it('pages RPC: the creator’s pages as the dropdown’s label and value', async () => {
    const pages = await callMake(listPages, { connection: connectionOf(bed.free) }, base);
    expect(pages.output).toEqual([{ label: bed.free.page.title, value: bed.free.page.id }]);
  });

  it('Create a Lead: adds the address once; again answers created=false; another creator’s page is refused', async () => {
    const scope = (parameters: Record<string, unknown>) => ({ connection: connectionOf(bed.free), parameters });
    const made = await callMake(createLead, scope({ pageId: bed.free.page.id, email: 'kim@example.org', consent: true }), base);
    expect(made.output).toMatchObject({ created: true, id: expect.any(Number), email: 'kim@example.org', consentAt: expect.any(String), page: { id: bed.free.page.id } });
    const again = await callMake(createLead, scope({ pageId: bed.free.page.id, email: 'kim@example.org' }), base);
    expect(again.output).toMatchObject({ created: false, id: (made.output as { id: number }).id });
    await expect(callMake(createLead, { connection: connectionOf(bed.pro), parameters: { pageId: bed.free.page.id, email: 'eve@example.org' } }, base)).rejects.toThrow(/^\[40[34]\]/);
  });

  it('Watch New Leads: attach subscribes Make’s URL, a new lead arrives signed and comes out as the interface says, detach unsubscribes', async () => {
    const webhookUrl = `${bed.receiver.origin}/make/hook/abc123`;
    const attached = await callMake(attach, { connection: connectionOf(bed.pro), parameters: { pageId: bed.pro.page.id }, webhook: { url: webhookUrl } }, base);
    const webhook = attached.data as { hookId: number; secret: string };
    expect(webhook).toEqual({ hookId: expect.anything(), secret: expect.stringMatching(/^whsec_/) });

    await callMake(createLead, { connection: connectionOf(bed.pro), parameters: { pageId: bed.pro.page.id, email: 'ada@example.org' } }, base);
    const path = new URL(webhookUrl).pathname;
    const delivery = await eventually(async () => bed.receiver.on(path)[0], 20_000);
    // Signed with the secret attach kept (Make's IML cannot see the raw body, so the scenario cannot check it itself).
    expect(() => new Webhook(webhook.secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();

    const bundle = evaluate(watchLeads.output, { body: JSON.parse(delivery.body), webhook }) as Record<string, unknown>;
    expect(bundle).toMatchObject({ email: 'ada@example.org', page: { id: bed.pro.page.id, slug: bed.pro.page.slug } });
    // Every key of the bundle is in the module's interface (so the scenario editor offers each for mapping).
    const iface = definition<Field[]>(files('module', 'watchNewLeads').interface);
    const described = (fields: Field[], value: Record<string, unknown>): string[] =>
      Object.keys(value).flatMap((key) => {
        const field = fields.find((f) => f.name === key);
        if (!field) return [key];
        const nested = value[key];
        return field.spec && nested && typeof nested === 'object' ? described(field.spec, nested as Record<string, unknown>).map((k) => `${key}.${k}`) : [];
      });
    expect(described(iface, bundle)).toEqual([]);

    await callMake(detach, { connection: connectionOf(bed.pro), webhook }, base);
    expect(await bed.hooks(bed.pro, webhookUrl)).toEqual([]);
  });

  it('Watch New Leads on Free: attaching fails with Plink’s reason', async () => {
    await expect(callMake(attach, { connection: connectionOf(bed.free), parameters: {}, webhook: { url: `${bed.receiver.origin}/make/free` } }, base)).rejects.toThrow(
      '[403] Webhooks are part of Plink Pro.',
    );
  });
});
