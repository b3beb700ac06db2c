import { pageUnderAttackEmail, webhookDisabledEmail } from './webhook-emails';

describe('webhook e-mails', () => {
  const to = { email: 'ann@example.com', username: 'ann' };
  const page = { id: 12, title: 'My <guide>', url: 'https://hooks.example.com/catch' };

  it('says why the webhook was turned off and links to the page settings', () => {
    const mail = webhookDisabledEmail('https://app.plink.example', to, page, 'gone');
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Webhook turned off for My <guide>');
    expect(mail.text).toContain('(https://hooks.example.com/catch) because its receiver answered "410 Gone"');
    expect(mail.text).toContain('https://app.plink.example/editor/12');
    expect(mail.text).toContain('Re-enable');
    expect(mail.html).toContain('My &lt;guide&gt;');
    expect(mail.html).not.toContain('My <guide>');
  });

  it('names each reason', () => {
    expect(webhookDisabledEmail('https://a.example', to, page, 'failing').text).toContain('every delivery to it failed for 24 hours');
    expect(webhookDisabledEmail('https://a.example', to, page, 'exhausted').text).toContain('three new leads in a row');
    expect(webhookDisabledEmail('https://a.example', to, { ...page, title: ' ' }, 'gone').subject).toBe('Webhook turned off for your page');
  });

  it('tells the owner of a page under attack that visitors confirm by e-mail for 24 h, until when, and how to end it', () => {
    const until = new Date('2026-11-28T04:40:00.000Z');
    const mail = pageUnderAttackEmail('https://app.plink.example', to, { id: 12, title: 'My <guide>' }, until);
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Your page My <guide> is receiving bot sign-ups');
    expect(mail.text).toContain('confirm-by-e-mail is on for 24 hours (until Sat, 28 Nov 2026 04:40:00 GMT)');
    expect(mail.text).toContain('End confirm-by-e-mail');
    expect(mail.text).toContain('https://app.plink.example/editor/12');
    expect(mail.html).not.toContain('My <guide>');
  });
});
