import { fileDeliveryEmail } from './file-delivery-email';

describe('file-delivery e-mail', () => {
  it('carries the product name, the page title and the file link as a button and a plain link', () => {
    const mail = fileDeliveryEmail('https://plink.example', 'visitor@example.com', {
      title: 'The Photo Guide',
      fileUrl: 'https://files.example/guide.pdf?a=1&b=2',
    });
    expect(mail.to).toBe('visitor@example.com');
    expect(mail.subject).toBe('Your download: The Photo Guide');
    expect(mail.text).toContain('The Photo Guide');
    expect(mail.text).toContain('https://files.example/guide.pdf?a=1&b=2');
    expect(mail.html).toContain('Plink');
    expect(mail.html.match(/href="https:\/\/files\.example\/guide\.pdf\?a=1&amp;b=2"/g)).toHaveLength(2);
  });

  it('makes the product’s own upload paths absolute', () => {
    const mail = fileDeliveryEmail('http://localhost:3000', 'v@example.com', { title: 'x', fileUrl: '/uploads/abc.pdf' });
    expect(mail.text).toContain('http://localhost:3000/uploads/abc.pdf');
  });

  it('escapes the title in the HTML and keeps the subject on one line', () => {
    const mail = fileDeliveryEmail('https://plink.example', 'v@example.com', {
      title: 'Guide <script>alert(1)</script>\r\nBcc: evil@example.com',
      fileUrl: 'https://files.example/g.pdf',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('reads well without a title', () => {
    const mail = fileDeliveryEmail('https://plink.example', 'v@example.com', { title: '  ', fileUrl: 'https://f.example/x' });
    expect(mail.subject).toBe('Your download from Plink');
    expect(mail.text).toContain('Thanks for signing up. Here is the file you asked for.');
  });
});
