import { sanitizeRichText } from './sanitize-rich-text';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Whatever got through: no script, no event handler, no dangerous URL, no styling. */
function expectHarmless(html: string | null) {
  const out = html ?? '';
  expect(out).not.toMatch(/<script/i);
  expect(out).not.toMatch(/<(?:svg|iframe|object|embed|style|math|form|input|meta|link|base|template)\b/i);
  expect(out).not.toMatch(/\son[a-z]+\s*=/i);
  expect(out).not.toMatch(/javascript:|vbscript:|data:text/i);
  expect(out).not.toMatch(/\sstyle\s*=/i);
}

describe('sanitizeRichText', () => {
  it('keeps the toolbar: headers 1-2, paragraphs, bold, italic, underline, lists, line breaks', () => {
    const html = '<h1>Big</h1><h2>Less</h2><p><strong>b</strong> <em>i</em> <u>u</u><br>next</p><ol><li>one</li></ol><ul><li>two</li></ul>';
    expect(sanitizeRichText(html)).toBe(html.replace('<br>', '<br />'));
  });

  it('writes <b> and <i> as <strong> and <em>', () => {
    expect(sanitizeRichText('<p><b>bold</b> <i>it</i></p>')).toBe('<p><strong>bold</strong> <em>it</em></p>');
  });

  it('drops other tags but keeps their text, and drops every attribute but href and src', () => {
    expect(sanitizeRichText('<div class="x" style="color:red"><h3 id="a">Title</h3><p style="x" class="y">Hi <span>there</span></p></div>')).toBe(
      '<p>Hi there</p>'.replace('<p>', 'Title<p>'),
    );
    expect(sanitizeRichText('<p title="t" data-x="1">a</p>')).toBe('<p>a</p>');
  });

  it('keeps http, https, mailto and tel links (opening apart from the page, without SEO credit)', () => {
    for (const href of ['https://example.com/a?b=1', 'http://example.com', 'mailto:me@example.com', 'tel:+123456']) {
      const out = sanitizeRichText(`<p><a href="${href}" onclick="x()" class="c">link</a></p>`);
      expect(out).toBe(`<p><a href="${href.replace(/&/g, '&amp;')}" rel="nofollow noopener noreferrer" target="_blank">link</a></p>`);
    }
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java&#x09;script:alert(1)',
    '&#106;avascript:alert(1)',
    'jav&#x61;script:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'file:///etc/passwd',
    '//evil.example/x',
    '/relative/path',
    'ftp://example.com',
  ])('removes the href %j but keeps the link text', (href) => {
    const out = sanitizeRichText(`<p><a href="${href}">click</a></p>`);
    expect(out).toBe('<p><a>click</a></p>');
    expectHarmless(out);
  });

  it('keeps images with inline png/gif/jpeg/bmp/x-icon data or http(s) sources, and nothing else of them', () => {
    expect(sanitizeRichText(`<p><img src="${PNG}" onerror="alert(1)" alt="x" width="10"></p>`)).toBe(`<p><img src="${PNG}" /></p>`);
    for (const type of ['gif', 'jpeg', 'bmp', 'x-icon']) {
      const src = `data:image/${type};base64,AAAA`;
      expect(sanitizeRichText(`<p><img src="${src}"></p>`)).toBe(`<p><img src="${src}" /></p>`);
    }
    expect(sanitizeRichText('<p><img src="https://cdn.example.com/a.png"></p>')).toBe('<p><img src="https://cdn.example.com/a.png" /></p>');
  });

  it.each([
    'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:image/png,notbase64<script>',
    'data:image/png;base64,AAA&quot; onerror=&quot;alert(1)',
    'javascript:alert(1)',
    'x',
    '',
  ])('drops an image whose source is %j', (src) => {
    const out = sanitizeRichText(`<p>a<img src="${src}" onerror="alert(1)">b</p>`);
    expect(out).toBe('<p>ab</p>');
    expectHarmless(out);
  });

  it.each([
    ['<script>alert(1)</script><p>ok</p>', '<p>ok</p>'],
    ['<p>ok</p><style>body{display:none}</style>', '<p>ok</p>'],
    ['<p>ok<svg onload="alert(1)"><script>alert(1)</script><text>t</text></svg></p>', '<p>ok</p>'],
    ['<p>ok</p><iframe src="javascript:alert(1)">inner</iframe>', '<p>ok</p>'],
    ['<p onmouseover="alert(1)">hover</p>', '<p>hover</p>'],
    ['<p><img src=x onerror=alert(1)>after</p>', '<p>after</p>'],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math><p>ok</p>', '<p>ok</p>'],
    ['<p>ok</p><object data="data:text/html,<script>alert(1)</script>"></object>', '<p>ok</p>'],
    ['<p>ok</p><form action="https://evil.example"><input name="email"><button>go</button></form>', '<p>ok</p>go'],
    ['<p>ok</p><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="https://evil.example/">', '<p>ok</p>'],
  ])('removes hostile markup: %s', (input, expected) => {
    const out = sanitizeRichText(input);
    expect(out).toBe(expected);
    expectHarmless(out);
  });

  it('does not let nested or broken tags rebuild a script', () => {
    for (const input of [
      '<p><scr<script>ipt>alert(1)</scr</script>ipt></p>',
      '<p><<script>script>alert(1)<</script>/script></p>',
      '<p><a href="javascript&colon;alert(1)">x</a></p>',
      '<p><a href="jav\nascript:alert(1)">x</a></p>',
      '<p><!--<script>alert(1)</script>--></p>',
      '<p><![CDATA[<script>alert(1)</script>]]></p>',
      '<p><img src="https://ok.example/a.png"/onerror=alert(1)></p>',
      '<p><a href="https://ok.example" <script>alert(1)</script>>x</a></p>',
      '"><script>alert(1)</script>',
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    ]) {
      expectHarmless(sanitizeRichText(input));
    }
    expect(sanitizeRichText('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  it('turns plain text into escaped paragraphs and line breaks', () => {
    expect(sanitizeRichText('First line\nsecond line\n\nNew paragraph')).toBe('<p>First line<br />second line</p><p>New paragraph</p>');
    expect(sanitizeRichText('a < b & c > d "quoted"')).toBe('<p>a &lt; b &amp; c &gt; d "quoted"</p>');
    expect(sanitizeRichText('Windows\r\nlines\r\n\r\n\r\nand gaps')).toBe('<p>Windows<br />lines</p><p>and gaps</p>');
  });

  it('splits inline-only HTML into paragraphs too, still sanitised', () => {
    expect(sanitizeRichText('Hello <strong>you</strong>\nthere\n\n<em>Bye</em> <script>x</script>')).toBe(
      '<p>Hello <strong>you</strong><br />there</p><p><em>Bye</em> </p>',
    );
  });

  it('answers null for nothing visible', () => {
    expect(sanitizeRichText(null)).toBeNull();
    expect(sanitizeRichText(undefined)).toBeNull();
    expect(sanitizeRichText('   \n ')).toBeNull();
    expect(sanitizeRichText('<p></p><p><br></p>')).toBeNull();
    expect(sanitizeRichText('<script>alert(1)</script>')).toBeNull();
  });

  it('keeps a large inline image quickly', () => {
    const big = `data:image/jpeg;base64,${'A'.repeat(3_000_000)}`;
    const started = Date.now();
    const out = sanitizeRichText(`<p>Look</p><p><img src="${big}"></p>`);
    expect(out).toBe(`<p>Look</p><p><img src="${big}" /></p>`);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
