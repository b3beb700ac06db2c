import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { leadsGateway, type Creator } from './testing/leads-gateway';

/**
 * Leads where they meet the other services, through the whole gateway (see leadsGateway); the leads service's
 * own behaviour is tested in its lib (libs/leads, LeadsTestApp). Here: the thank-you page a form post leads
 * to (rendered by pages), and the page routes beside the API, health and the SPA.
 */
describe('leads, across the services', () => {
  const world = leadsGateway();
  const { browser, createPage, formPost, leadCount } = world;
  let origin: string;
  let pro: Creator;
  beforeAll(() => {
    ({ origin, pro } = world);
  });

  it('leads a form post without JavaScript to the thank-you state of the page, as pages renders it', async () => {
    const page = await createPage(pro, { thankYouHeadline: 'Welcome aboard friend' });
    const ok = await formPost(`/${page.slug}`, { email: 'nojs@example.com', consent: 'on', website: '' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/${page.slug}?submitted=1`);
    const thanks = await fetch(`${origin}/${page.slug}?submitted=1`);
    expect(thanks.status).toBe(200);
    expect(thanks.headers.get('content-type')).toMatch(/text\/html/);
    expect(await thanks.text()).toContain('Welcome aboard friend');
    expect(await leadCount(page.id)).toBe(1);
  });

  it('keeps the API, health, the SPA and its assets reachable beside the page routes', async () => {
    expect(await browser().post('/api', { email: 'a@example.com' })).toMatchObject({ status: 404, body: { message: 'Not found' } });
    expect(await browser().get('/api/no-such-call')).toMatchObject({ status: 404, body: { message: 'Not found' } });
    expect(await browser().post('/api/no-such-call', {})).toMatchObject({ status: 404 });
    expect((await browser().get('/health')).status).toBe(200);
    const spa = await fetch(`${origin}/dashboard`);
    expect([200, 503]).toContain(spa.status); // 503 only when the SPA is not built
    if (spa.status === 200) expect(await spa.text()).toMatch(/<div id="root">/);
    const assets = join(__dirname, '../../web/dist/assets');
    const script = existsSync(assets) ? readdirSync(assets).find((f) => f.endsWith('.js')) : undefined;
    if (script) {
      const asset = await fetch(`${origin}/assets/${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
    }
  });
});
