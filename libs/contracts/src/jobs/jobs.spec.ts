import { JOBS, QUEUE_OWNER, QUEUE_SETTINGS, QueueName, jobsOfQueue, isJobName } from '../index';

describe('job contracts', () => {
  it('binds every job to a queue that has settings', () => {
    for (const [name, job] of Object.entries(JOBS)) {
      expect(QUEUE_SETTINGS[job.queue]).toBeDefined();
      expect(name).toMatch(/^[a-z]+\.[a-z-]+$/);
    }
  });

  it('lists the e-mail jobs on the e-mail queue', () => {
    expect(jobsOfQueue(QueueName.Email).sort()).toEqual([
      'email.file-delivery',
      'email.lead-removal-warning',
      'email.password-reset',
      'email.payment-failed',
      'email.pro-ended',
      'email.pro-started',
      'email.trial-ending',
      'email.verification',
      'email.webhook-disabled',
    ]);
  });

  it('puts every webhook job on the webhooks queue, served by the notifications service', () => {
    expect(jobsOfQueue(QueueName.Webhooks).sort()).toEqual(['webhook.clean-log', 'webhook.deliver', 'webhook.deliver-many', 'webhook.endpoint-changed', 'webhook.redeliver']);
    expect(QUEUE_OWNER[QueueName.Webhooks]).toBe('notifications');
    expect(QUEUE_SETTINGS[QueueName.Webhooks].backoffType).toBe('webhook-schedule');
    const redeliver = JOBS['webhook.redeliver'].schema;
    expect(redeliver.safeParse({ v: 1, messageId: 'msg_0123456789abcdefghijklmnop' }).success).toBe(true);
    expect(redeliver.safeParse({ v: 1, messageId: 'msg_../../etc' }).success).toBe(false);
    const disable = JOBS['pages.disable-webhook'].schema;
    expect(disable.safeParse({ v: 1, pageId: 3, url: 'https://hooks.example.com/x', reason: 'gone' }).success).toBe(true);
    expect(disable.safeParse({ v: 1, pageId: 3, url: 'https://hooks.example.com/x', reason: 'bored' }).success).toBe(false);
  });

  it('sends plan changes to identity, then to pages, and the grant expiry to billing', () => {
    expect(jobsOfQueue(QueueName.Identity).sort()).toEqual(['identity.account-email', 'identity.plan-changed']);
    expect(JOBS['pages.owner-plan-changed'].queue).toBe(QueueName.Pages);
    expect(jobsOfQueue(QueueName.Billing)).toEqual(['billing.expire-grants', 'billing.lead-removal', 'billing.stripe-event']);
    expect(JOBS['billing.stripe-event'].schema.safeParse({ v: 1, eventId: 'evt_1' }).success).toBe(true);
    expect(JOBS['billing.stripe-event'].schema.safeParse({ v: 1, eventId: '' }).success).toBe(false);
    const schema = JOBS['identity.plan-changed'].schema;
    const change = {
      v: 1,
      userId: 4,
      isPremium: true,
      planStatus: 'active',
      periodEnd: '2026-12-01T00:00:00.000Z',
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      changedAt: '2026-11-23T10:00:00.000Z',
    };
    expect(schema.safeParse(change).success).toBe(true);
    expect(schema.safeParse({ ...change, planStatus: 'gold' }).success).toBe(false);
    expect(schema.safeParse({ ...change, periodEnd: 'next week' }).success).toBe(false);
    expect(schema.safeParse({ ...change, changedAt: undefined }).success).toBe(false);
  });

  it('routes the 30-day lead removal: billing decides, pages knows the paused pages, leads removes the contacts', () => {
    expect(JOBS['pages.remove-paused-leads'].queue).toBe(QueueName.Pages);
    expect(JOBS['leads.delete-contacts-for-page'].queue).toBe(QueueName.Leads);
    const warning = JOBS['email.lead-removal-warning'].schema;
    expect(warning.safeParse({ v: 1, userId: 4, removalAt: '2026-12-24T10:00:00.000Z' }).success).toBe(true);
    expect(warning.safeParse({ v: 1, userId: 4, removalAt: 'in a week' }).success).toBe(false);
    expect(warning.safeParse({ v: 1, userId: 4 }).success).toBe(false);
    // The plan-change job keeps its first shape: jobs queued before this release are still handled.
    expect(JOBS['pages.owner-plan-changed'].schema.safeParse({ v: 1, userId: 4 }).success).toBe(true);
  });

  it('carries in a webhook delivery what the event says, and still accepts the former shape (ids only)', () => {
    const deliver = JOBS['webhook.deliver'].schema;
    const lead = {
      v: 2,
      leadId: 7,
      pageId: 3,
      email: 'ada@example.com',
      createdAt: '2026-11-24T10:00:00.123456+00:00',
      consentAt: null,
      page: { slug: 'guide', title: 'The guide', url: 'https://plink.example/guide' },
    };
    expect(deliver.safeParse(lead).success).toBe(true);
    expect(deliver.safeParse({ v: 1, leadId: 7, pageId: 3 }).success).toBe(true);
    expect(deliver.safeParse({ ...lead, page: undefined }).success).toBe(false);
    expect(deliver.safeParse({ v: 2, leadId: 7, pageId: 3 }).success).toBe(false);
  });

  it('addresses account e-mails in their second version, and has identity address the first (user id only)', () => {
    const proEnded = JOBS['email.pro-ended'].schema;
    expect(proEnded.safeParse({ v: 1, userId: 4 }).success).toBe(true);
    expect(proEnded.safeParse({ v: 2, to: { userId: 4, email: 'ada@example.com', username: 'ada' } }).success).toBe(true);
    expect(proEnded.safeParse({ v: 2, userId: 4 }).success).toBe(false);
    const account = JOBS['identity.account-email'];
    expect(account.queue).toBe(QueueName.Identity);
    expect(account.schema.safeParse({ v: 1, userId: 4, email: 'email.pro-ended', content: {} }).success).toBe(true);
    expect(account.schema.safeParse({ v: 1, userId: 4, email: 'email.file-delivery', content: {} }).success).toBe(false);
  });

  it('tells the notifications service every change of a webhook endpoint, a deleted page as no endpoint', () => {
    const changed = JOBS['webhook.endpoint-changed'];
    expect(changed.queue).toBe(QueueName.Webhooks);
    const endpoint = { url: 'https://hooks.example/x', secret: 's', previousSecret: null, previousSecretUntil: null, enabled: true, enabledAt: '2026-11-24T10:00:00.000Z' };
    expect(changed.schema.safeParse({ v: 1, pageId: 3, ownerId: 4, at: '2026-11-24T10:00:00.000Z', endpoint, ownerIsPro: true }).success).toBe(true);
    expect(changed.schema.safeParse({ v: 1, pageId: 3, ownerId: 4, at: '2026-11-24T10:00:00.000Z', endpoint: null }).success).toBe(true);
    expect(changed.schema.safeParse({ v: 1, pageId: 3, ownerId: 4, at: 'now', endpoint: null }).success).toBe(false);
  });

  it('puts the upload sweep on the uploads queue, with only a version as payload', () => {
    expect(JOBS['pages.sweep-uploads'].queue).toBe(QueueName.Uploads);
    const schema = JOBS['pages.sweep-uploads'].schema;
    expect(schema.safeParse({ v: 1 }).success).toBe(true);
    expect(schema.safeParse({ v: 2 }).success).toBe(false);
    expect(schema.safeParse({}).success).toBe(false);
  });

  it('rejects a payload of the wrong shape', () => {
    const schema = JOBS['email.verification'].schema;
    expect(schema.safeParse({ v: 1, userId: 3, sealedToken: 'x' }).success).toBe(true);
    expect(schema.safeParse({ v: 2, userId: 3, sealedToken: 'x' }).success).toBe(false);
    expect(schema.safeParse({ v: 1, userId: '3', sealedToken: 'x' }).success).toBe(false);
    expect(isJobName('email.verification')).toBe(true);
    expect(isJobName('constructor')).toBe(false);
  });
});
