import { leadRemovalWarningEmail, proEndedEmail, proStartedEmail } from './plan-emails';

describe('plan e-mails', () => {
  const to = { email: 'ann@example.com', username: 'ann' };

  it('welcomes to Pro, with the end date of a grant that has one', () => {
    const mail = proStartedEmail('https://app.plink.example', to, new Date('2026-12-12T10:00:00Z'));
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Welcome to Plink Pro');
    expect(mail.text).toContain('on the Pro plan until 12 December 2026.');
    expect(mail.text).toContain('https://app.plink.example/dashboard');
    expect(proStartedEmail('https://app.plink.example', to, null).text).toContain('Your account is now on the Pro plan.');
  });

  it('says the Pro plan ended and what that changes', () => {
    const mail = proEndedEmail('https://app.plink.example', to);
    expect(mail.subject).toBe('Your Plink Pro plan has ended');
    expect(mail.text).toContain('back on the Free plan');
    expect(mail.text).toContain('your oldest page stays online and keeps collecting leads, and any other pages are paused');
    expect(mail.text).toContain('removed 30 days after the downgrade');
    expect(mail.html).toContain('Hi ann,');
  });

  it('warns when the leads of paused pages will be removed, where to export them, and that Pro keeps them', () => {
    const mail = leadRemovalWarningEmail('https://app.plink.example', to, new Date('2026-12-24T10:00:00Z'));
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Leads of your paused Plink pages will be removed on 24 December 2026');
    expect(mail.text).toContain('The e-mail addresses collected by your paused pages will be removed on 24 December 2026.');
    expect(mail.text).toContain('Export them from your dashboard: https://app.plink.example/dashboard');
    expect(mail.text).toContain('Upgrading to Pro keeps them');
    expect(mail.html).toContain('href="https://app.plink.example/dashboard"');
  });
});
