import { JOBS, QUEUE_SETTINGS, QueueName, jobsOfQueue, isJobName } from '../index';

describe('job contracts', () => {
  it('binds every job to a queue that has settings', () => {
    for (const [name, job] of Object.entries(JOBS)) {
      expect(QUEUE_SETTINGS[job.queue]).toBeDefined();
      expect(name).toMatch(/^[a-z]+\.[a-z-]+$/);
    }
  });

  it('lists the e-mail jobs on the e-mail queue', () => {
    expect(jobsOfQueue(QueueName.Email).sort()).toEqual(['email.file-delivery', 'email.password-reset', 'email.verification']);
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
