import { paymentFailedEmail, proEndedEmail, proStartedEmail, trialEndingEmail } from './plan-emails';

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

  it('says when the free trial started and when it ends', () => {
    const mail = proStartedEmail('https://app.plink.example', to, new Date('2026-12-08T10:00:00Z'), 'trial');
    expect(mail.subject).toBe('Welcome to Plink Pro');
    expect(mail.text).toContain('Your free Pro trial has started. It ends on 8 December 2026;');
  });

  it('reminds that the trial ends in 3 days, with the date and the way to add a card', () => {
    const mail = trialEndingEmail('https://app.plink.example', to, new Date('2026-12-08T10:00:00Z'), false);
    expect(mail.subject).toBe('Your Plink Pro trial ends in 3 days');
    expect(mail.text).toContain('Your free Pro trial ends on 8 December 2026.');
    expect(mail.text).toContain('add a card');
    expect(mail.text).toContain('https://app.plink.example/settings?tab=subscription');
    const withCard = trialEndingEmail('https://app.plink.example', to, new Date('2026-12-08T10:00:00Z'), true);
    expect(withCard.text).toContain('continues on the card you added');
    expect(withCard.text).not.toContain('add a card');
  });

  it('says a payment failed and links to the subscription settings (not to an expiring portal session)', () => {
    const mail = paymentFailedEmail('https://app.plink.example', to);
    expect(mail.subject).toBe('Your Plink Pro payment failed');
    expect(mail.text).toContain('Update your card: https://app.plink.example/settings?tab=subscription');
    expect(mail.html).toContain('href="https://app.plink.example/settings?tab=subscription"');
  });

  it('says the Pro plan ended and what that changes', () => {
    const mail = proEndedEmail('https://app.plink.example', to);
    expect(mail.subject).toBe('Your Plink Pro plan has ended');
    expect(mail.text).toContain('back on the Free plan');
    expect(mail.html).toContain('Hi ann,');
  });
});
