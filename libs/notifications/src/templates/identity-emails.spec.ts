import { emailChangeConfirmEmail, emailChangeNoticeEmail, passwordResetEmail, verificationEmail } from './identity-emails';

const ada = { email: 'ada@example.com', username: 'ada<script>' };

describe('identity e-mails', () => {
  it('carry the product name and an absolute verification link in both parts', () => {
    const mail = verificationEmail('https://plink.example', ada, 'tok_EN-1');
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Verify your email for Plink');
    expect(mail.text).toContain('https://plink.example/verify-email?token=tok_EN-1');
    expect(mail.html).toContain('href="https://plink.example/verify-email?token=tok_EN-1"');
    expect(mail.text).toMatch(/24 hours/);
    expect(mail.html).toContain('Plink');
  });

  it('carry an absolute reset link valid for an hour', () => {
    const mail = passwordResetEmail('http://localhost:3000', ada, 'abc');
    expect(mail.subject).toBe('Reset your Plink password');
    expect(mail.text).toContain('http://localhost:3000/reset-password?token=abc');
    expect(mail.html).toContain('href="http://localhost:3000/reset-password?token=abc"');
    expect(mail.text).toMatch(/1 hour/);
  });

  it('escape what a user typed into the HTML', () => {
    const mail = verificationEmail('https://plink.example', ada, 't');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('ada&lt;script&gt;');
  });

  it('send the e-mail change link to the new address, saying the change waits for it', () => {
    const mail = emailChangeConfirmEmail('https://plink.example', { email: 'new@example.com', username: 'ada' }, 'tok_1');
    expect(mail.to).toBe('new@example.com');
    expect(mail.subject).toBe('Confirm your new email for Plink');
    expect(mail.text).toContain('https://plink.example/confirm-email?token=tok_1');
    expect(mail.html).toContain('href="https://plink.example/confirm-email?token=tok_1"');
    expect(mail.text).toMatch(/24 hours and works once/);
  });

  it('tell the old address of a requested change, with the new one masked and what to do if it was not them', () => {
    const mail = emailChangeNoticeEmail('https://plink.example', ada, 'n***@example.com', 'requested');
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Your Plink email is about to change');
    expect(mail.text).toContain('Someone asked to change the email of your Plink account to n***@example.com');
    expect(mail.text).toContain('If this was not you, change your password now');
    expect(mail.text).toContain('https://plink.example/settings?tab=account');
  });

  it('tell the old address once the change is made', () => {
    const mail = emailChangeNoticeEmail('https://plink.example', ada, 'n***@example.com', 'changed');
    expect(mail.subject).toBe('Your Plink email was changed');
    expect(mail.text).toContain('was changed to n***@example.com');
    expect(mail.text).toContain('https://plink.example/forgot-password');
    expect(mail.html).not.toContain('<script>');
  });
});
