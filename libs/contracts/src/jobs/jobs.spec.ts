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
    expect(jobsOfQueue(QueueName.Webhooks).sort()).toEqual(['webhook.clean-log', 'webhook.deliver', 'webhook.redeliver']);
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
    expect(jobsOfQueue(QueueName.Identity)).toEqual(['identity.plan-changed']);
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
