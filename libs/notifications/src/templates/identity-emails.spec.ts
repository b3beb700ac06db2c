import { passwordResetEmail, verificationEmail } from './identity-emails';

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
});
