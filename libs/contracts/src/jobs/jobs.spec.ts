import { JOBS, QUEUE_SETTINGS, QueueName, jobsOfQueue, isJobName } from '../index';

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
      'email.password-reset',
      'email.payment-failed',
      'email.pro-ended',
      'email.pro-started',
      'email.trial-ending',
      'email.verification',
    ]);
  });

  it('sends plan changes to identity, then to pages, and the grant expiry to billing', () => {
    expect(jobsOfQueue(QueueName.Identity)).toEqual(['identity.plan-changed']);
    expect(JOBS['pages.owner-plan-changed'].queue).toBe(QueueName.Pages);
    expect(jobsOfQueue(QueueName.Billing)).toEqual(['billing.expire-grants', 'billing.stripe-event']);
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
