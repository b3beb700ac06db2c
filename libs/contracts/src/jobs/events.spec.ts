import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS, EVENT_NAMES, QUEUE_OWNER, queuesOfEvent, type EventDeclaration } from '../index';
import { eventsDoc } from './events-doc';

const DOC = join(__dirname, '../../../../docs/events.md');

describe('events', () => {
  it("sends each event to its subscribers' own queues, never back to its owner", () => {
    for (const name of EVENT_NAMES) {
      const event = EVENTS[name] as EventDeclaration;
      expect(name).toMatch(/^[a-z-]+\.[a-z-]+$/);
      for (const [service, queue] of Object.entries(event.subscribers)) {
        expect({ name, service, served: QUEUE_OWNER[queue!] }).toEqual({ name, service, served: service });
      }
      expect(Object.keys(event.subscribers)).not.toContain(event.owner);
      expect(queuesOfEvent(name).length).toBeGreaterThan(0);
    }
  });

  it('has billing tell the plan to identity, pages and leads directly', () => {
    expect(EVENTS['plan.changed'].owner).toBe('billing');
    expect(Object.keys(EVENTS['plan.changed'].subscribers).sort()).toEqual(['identity', 'leads', 'pages']);
    const change = {
      v: 1,
      userId: 4,
      isPremium: true,
      planStatus: 'active',
      periodEnd: '2026-12-01T00:00:00.000Z',
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      version: 2,
      changedAt: '2026-11-23T10:00:00.000Z',
    };
    const schema = EVENTS['plan.changed'].schema;
    expect(schema.safeParse(change).success).toBe(true);
    expect(schema.safeParse({ ...change, planStatus: 'gold' }).success).toBe(false);
    expect(schema.safeParse({ ...change, version: 0 }).success).toBe(false);
    expect(schema.safeParse({ ...change, periodEnd: 'next week' }).success).toBe(false);
  });

  it('tells the notifications service every change of a webhook endpoint, a deleted page as no endpoint', () => {
    const schema = EVENTS['webhook-endpoint.changed'].schema;
    const endpoint = { url: 'https://hooks.example/x', secret: 's', previousSecret: null, previousSecretUntil: null, enabled: true, enabledAt: '2026-11-24T10:00:00.000Z' };
    expect(schema.safeParse({ v: 1, pageId: 3, ownerId: 4, at: '2026-11-24T10:00:00.000Z', endpoint }).success).toBe(true);
    expect(schema.safeParse({ v: 1, pageId: 3, ownerId: 4, at: '2026-11-24T10:00:00.000Z', endpoint: null }).success).toBe(true);
    expect(schema.safeParse({ v: 1, pageId: 3, ownerId: 4, at: 'now', endpoint: null }).success).toBe(false);
  });

  it('is committed as docs/events.md exactly as the declarations generate it', () => {
    const generated = eventsDoc();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, generated);
    const committed = readFileSync(DOC, 'utf8');
    if (committed !== generated) {
      throw new Error('docs/events.md differs from the declarations: run UPDATE_DOCS=1 npm test -- --projects=@plink/contracts');
    }
  });
});
