import { cleanPastedHtml, isAllowedLink } from './rich-text-paste';

describe('pasted rich text', () => {
  it('keeps the toolbar tags and unwraps the rest', () => {
    expect(cleanPastedHtml('<div><h1>Hi</h1><p style="color:red" class="x">A <b>b</b> <span>c</span> <u>u</u></p></div>')).toBe(
      '<h1>Hi</h1><p>A <b>b</b> c <u>u</u></p>',
    );
    expect(cleanPastedHtml('<table><tr><td>cell</td></tr></table><h3>three</h3>')).toBe('cellthree');
  });

  it('drops scripts, styles and frames with their content, and every event handler', () => {
    expect(cleanPastedHtml('<p onclick="steal()">ok</p><script>steal()</script><style>p{}</style><iframe src="https://x.example"></iframe><!-- c -->')).toBe(
      '<p>ok</p>',
    );
  });

  it('keeps only http, https, mailto and tel links', () => {
    expect(cleanPastedHtml('<a href="https://ok.example/x" target="_top">ok</a>')).toBe('<a href="https://ok.example/x">ok</a>');
    expect(cleanPastedHtml('<a href="mailto:me@example.com">m</a><a href="tel:+123">t</a>')).toBe('<a href="mailto:me@example.com">m</a><a href="tel:+123">t</a>');
    expect(cleanPastedHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(cleanPastedHtml('<a href="java\tscript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(cleanPastedHtml('<a href="/relative">x</a>')).toBe('<a>x</a>');
  });

  it('keeps http(s) images and inline images of the allowed types only', () => {
    expect(cleanPastedHtml('<img src="https://img.example/a.png" onerror="x()" width="5">')).toBe('<img src="https://img.example/a.png">');
    expect(cleanPastedHtml('<img src="data:image/png;base64,iVBORw0KGgo=">')).toBe('<img src="data:image/png;base64,iVBORw0KGgo=">');
    expect(cleanPastedHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).toBe('');
    expect(cleanPastedHtml('<p>a<img src="javascript:x">b</p>')).toBe('<p>ab</p>');
  });

  it('accepts links the same way', () => {
    expect(isAllowedLink('https://ok.example')).toBe(true);
    expect(isAllowedLink('mailto:a@b.example')).toBe(true);
    expect(isAllowedLink('tel:+441234')).toBe(true);
    expect(isAllowedLink('javascript:alert(1)')).toBe(false);
    expect(isAllowedLink('ftp://files.example')).toBe(false);
  });
});
