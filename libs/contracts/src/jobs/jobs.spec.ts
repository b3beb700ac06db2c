import { JOBS, QUEUE_OWNER, QUEUE_SETTINGS, QueueName, jobsOfQueue, isJobName, isMessageOf } from '../index';

describe('job contracts', () => {
  it('binds every job to a queue that has settings', () => {
    for (const [name, job] of Object.entries(JOBS)) {
      expect(QUEUE_SETTINGS[job.queue]).toBeDefined();
      expect(name).toMatch(/^[a-z]+\.[a-z-]+$/);
    }
  });

  it('lists the e-mail jobs on the e-mail queue', () => {
    expect(jobsOfQueue(QueueName.Email).sort()).toEqual([
      'email.account-deleted',
      'email.account-export-ready',
      'email.email-change-confirm',
      'email.email-change-notice',
      'email.file-delivery',
      'email.file-delivery-many',
      'email.lead-confirmation',
      'email.lead-removal-warning',
      'email.page-under-attack',
      'email.password-reset',
      'email.payment-failed',
      'email.pro-ended',
      'email.pro-started',
      'email.trial-ending',
      'email.verification',
      'email.webhook-disabled',
    ]);
  });

  it('puts every webhook job on the webhooks queue, served by the notifications service, with the endpoint copy', () => {
    expect(jobsOfQueue(QueueName.Webhooks).sort()).toEqual([
      'hook.deliver',
      'hook.deliver-many',
      'leads.deleted',
      'user.deleted',
      'webhook-endpoint.changed',
      'webhook.clean-log',
      'webhook.deliver',
      'webhook.deliver-many',
      'webhook.redeliver',
    ]);
    expect(QUEUE_OWNER[QueueName.Webhooks]).toBe('notifications');
    expect(QUEUE_SETTINGS[QueueName.Webhooks].backoffType).toBe('webhook-schedule');
    const redeliver = JOBS['webhook.redeliver'].schema;
    expect(redeliver.safeParse({ v: 1, messageId: 'msg_0123456789abcdefghijklmnop' }).success).toBe(true);
    expect(redeliver.safeParse({ v: 1, messageId: 'msg_../../etc' }).success).toBe(false);
    const disable = JOBS['pages.disable-webhook'].schema;
    expect(disable.safeParse({ v: 1, pageId: 3, url: 'https://hooks.example.com/x', reason: 'gone' }).success).toBe(true);
    expect(disable.safeParse({ v: 1, pageId: 3, url: 'https://hooks.example.com/x', reason: 'bored' }).success).toBe(false);
  });

  it("hands each service the plan change on its own queue, and billing its own work and users' new addresses", () => {
    expect(jobsOfQueue(QueueName.Identity).sort()).toEqual(['identity.account-email', 'identity.account-export-ready', 'identity.sweep-exports', 'plan.changed']);
    expect(jobsOfQueue(QueueName.Pages)).toContain('plan.changed');
    expect(jobsOfQueue(QueueName.Leads)).toEqual(expect.arrayContaining(['plan.changed', 'page.changed']));
    expect(jobsOfQueue(QueueName.Billing)).toEqual(['billing.expire-grants', 'billing.lead-removal', 'billing.stripe-event', 'user.changed', 'user.deleted']);
    expect(JOBS['billing.stripe-event'].schema.safeParse({ v: 1, eventId: 'evt_1' }).success).toBe(true);
    expect(JOBS['billing.stripe-event'].schema.safeParse({ v: 1, eventId: '' }).success).toBe(false);
    expect(isMessageOf(QueueName.Leads, 'plan.changed')).toBe(true);
    expect(isMessageOf(QueueName.Email, 'plan.changed')).toBe(false);
    expect(isMessageOf(QueueName.Leads, 'webhook.deliver')).toBe(false);
  });

  it('routes the 30-day lead removal: billing decides, pages knows the paused pages, leads removes the contacts', () => {
    expect(JOBS['pages.remove-paused-leads'].queue).toBe(QueueName.Pages);
    expect(JOBS['leads.delete-contacts-for-page'].queue).toBe(QueueName.Leads);
    const warning = JOBS['email.lead-removal-warning'].schema;
    const to = { userId: 4, email: 'ada@example.com', username: 'ada' };
    expect(warning.safeParse({ v: 1, to, removalAt: '2026-12-24T10:00:00.000Z' }).success).toBe(true);
    expect(warning.safeParse({ v: 1, to, removalAt: 'in a week' }).success).toBe(false);
    expect(warning.safeParse({ v: 1, to }).success).toBe(false);
  });

  it('carries in a webhook delivery what the event says, and the plan and page versions the capture read', () => {
    const deliver = JOBS['webhook.deliver'].schema;
    const lead = {
      v: 1,
      leadId: 7,
      pageId: 3,
      email: 'ada@example.com',
      createdAt: '2026-11-24T10:00:00.123456+00:00',
      consentAt: null,
      page: { slug: 'guide', title: 'The guide', url: 'https://plink.example/guide' },
      pageVersion: 1764000000000,
      planVersion: 3,
    };
    expect(deliver.safeParse(lead).success).toBe(true);
    expect(deliver.safeParse({ ...lead, page: undefined }).success).toBe(false);
    expect(deliver.safeParse({ ...lead, planVersion: undefined }).success).toBe(false);
    expect(deliver.safeParse({ v: 1, leadId: 7, pageId: 3 }).success).toBe(false);
  });

  it('addresses account e-mails; identity, which has the addresses, records them', () => {
    const proEnded = JOBS['email.pro-ended'].schema;
    expect(proEnded.safeParse({ v: 1, to: { userId: 4, email: 'ada@example.com', username: 'ada' } }).success).toBe(true);
    expect(proEnded.safeParse({ v: 1, userId: 4 }).success).toBe(false);
    const account = JOBS['identity.account-email'];
    expect(account.queue).toBe(QueueName.Identity);
    expect(account.schema.safeParse({ v: 1, userId: 4, email: 'email.pro-ended', content: {} }).success).toBe(true);
    expect(account.schema.safeParse({ v: 1, userId: 4, email: 'email.file-delivery', content: {} }).success).toBe(false);
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
    const to = { userId: 3, email: 'ada@example.com', username: 'ada' };
    expect(schema.safeParse({ v: 1, to, sealedToken: 'x' }).success).toBe(true);
    expect(schema.safeParse({ v: 2, to, sealedToken: 'x' }).success).toBe(false);
    expect(schema.safeParse({ v: 1, to: { ...to, userId: '3' }, sealedToken: 'x' }).success).toBe(false);
    expect(isJobName('email.verification')).toBe(true);
    expect(isJobName('constructor')).toBe(false);
  });
});
