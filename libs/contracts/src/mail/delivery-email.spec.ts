import { contrastingTextColor, deliveryEmailSubject, renderDeliveryEmail, richTextToPlainText, type DeliveryEmailContent } from './delivery-email';

const content = (over: Partial<DeliveryEmailContent> = {}): DeliveryEmailContent => ({
  pageTitle: 'The Photo Guide',
  fileUrl: 'https://files.example/guide.pdf?a=1&b=2',
  subject: null,
  bodyHtml: null,
  buttonColor: '#000000',
  branding: true,
  senderName: 'Ana',
  ...over,
});

describe('delivery e-mail', () => {
  it('without the creator’s own texts, says today’s words, signed by the sender', () => {
    const mail = renderDeliveryEmail(content());
    expect(mail.subject).toBe('Your download: The Photo Guide');
    expect(mail.text).toContain('Thanks for signing up on “The Photo Guide”. Here is the file you asked for.');
    expect(mail.text).toContain('Download file: https://files.example/guide.pdf?a=1&b=2');
    expect(mail.text).toContain('— Ana');
    expect(mail.text).not.toContain('The Plink team');
    expect(mail.html.match(/href="https:\/\/files\.example\/guide\.pdf\?a=1&amp;b=2"/g)).toHaveLength(2);
    expect(deliveryEmailSubject({ subject: null, pageTitle: ' ' })).toBe('Your download from Plink');
  });

  it('uses the creator’s subject and text, with no signature, and derives the text part with links kept', () => {
    const mail = renderDeliveryEmail(
      content({ subject: 'Here is your guide', bodyHtml: '<h1>Welcome!</h1><p>Read <a href="https://ana.example/tips" rel="nofollow">my tips</a> &amp; enjoy.</p><ul><li>One</li><li>Two</li></ul>' }),
    );
    expect(mail.subject).toBe('Here is your guide');
    expect(mail.html).toContain('<h1>Welcome!</h1>');
    expect(mail.html).not.toContain('— Ana');
    expect(mail.text).toBe(
      [
        'Welcome!',
        '',
        'Read my tips (https://ana.example/tips) & enjoy.',
        '',
        '- One',
        '- Two',
        '',
        'Download file: https://files.example/guide.pdf?a=1&b=2',
        '',
        'You received this email because this address was entered on a page to get this file. If that was not you, you can ignore this email.',
        '',
        'Sent via Plink',
      ].join('\n'),
    );
  });

  it('paints the file button in the page’s button colour with a readable text colour', () => {
    expect(renderDeliveryEmail(content({ buttonColor: '#ffeb3b' })).html).toMatch(/data-file-button style="background:#ffeb3b;color:#000000/);
    expect(renderDeliveryEmail(content({ buttonColor: '#1d4ed8' })).html).toMatch(/data-file-button style="background:#1d4ed8;color:#ffffff/);
    expect(contrastingTextColor('#ffffff')).toBe('#000000');
    expect(contrastingTextColor('#000000')).toBe('#ffffff');
  });

  it('carries "Sent via Plink" only with the branding on', () => {
    expect(renderDeliveryEmail(content({ branding: true })).html).toContain('Sent via Plink');
    const unbranded = renderDeliveryEmail(content({ branding: false }));
    expect(unbranded.html).not.toContain('Plink');
    expect(unbranded.text).not.toContain('Plink');
  });

  it('keeps the title escaped and the subject on one line', () => {
    const mail = renderDeliveryEmail(content({ pageTitle: 'Guide <script>alert(1)</script>\r\nBcc: evil@example.com' }));
    expect(mail.html).not.toContain('<script>');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('turns breaks, images and entities into plain text', () => {
    expect(richTextToPlainText('<p>a<br>b <img src="https://i.example/x.png"> &lt;c&gt;&nbsp;d</p><p><a href="https://x.example">https://x.example</a></p>')).toBe(
      'a\nb <c> d\n\nhttps://x.example',
    );
  });
});
