/**
 * @jest-environment jsdom
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { makePage } from '../__fixtures__/page';
import { LandingPage, type LandingPageProps } from './LandingPage';
import { LANDING_PAGE_CSS } from './styles';

afterEach(cleanup);

function draw(props: Partial<LandingPageProps> & { page?: LandingPageProps['page'] } = {}) {
  const { container } = render(<LandingPage page={props.page ?? makePage()} state={props.state ?? 'form'} {...props} />);
  const q = <T extends Element = HTMLElement>(selector: string) => container.querySelector<T & Element>(selector) as T | null;
  return { container, q };
}

describe('LandingPage — form state', () => {
  it('draws title, author, sanitised subtext and the e-mail form', () => {
    const { q } = draw({ page: makePage({ subtext: '<p>Ten <strong>tips</strong></p><ul><li>one</li></ul>' }) });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('The Free Photo Guide');
    expect(q('.plk-author')?.textContent).toBe('Ann Adams');
    expect(q('.plk-subtext strong')?.textContent).toBe('tips');
    expect(q('.plk-subtext li')?.textContent).toBe('one');

    const email = screen.getByPlaceholderText('Enter your email') as HTMLInputElement;
    expect(email.type).toBe('email');
    expect(email.name).toBe('email');
    expect(email.required).toBe(true);

    const form = q<HTMLFormElement>('form.plk-form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.enctype).toBe('application/x-www-form-urlencoded');

    const button = screen.getByRole('button', { name: 'Send me the guide' }) as HTMLButtonElement;
    expect(button.type).toBe('submit');
    expect(button.disabled).toBe(false);
    expect(q('.plk-error')).toBeNull();
    expect(q('.plk-thanks')).toBeNull();
  });

  it('omits the author line when there is none, and the subtext when empty', () => {
    const { q } = draw({ page: makePage({ author: null, subtext: null }) });
    expect(q('.plk-author')).toBeNull();
    expect(q('.plk-subtext')).toBeNull();
  });

  it('shows the privacy checkbox linking /privacy unless hidden', () => {
    draw();
    const consent = screen.getByRole('checkbox', { name: 'I agree to the privacy policy' }) as HTMLInputElement;
    expect(consent.name).toBe('consent');
    expect(consent.value).toBe('on');
    expect(consent.required).toBe(true);
    expect(screen.getByRole('link', { name: 'privacy policy' }).getAttribute('href')).toBe('/privacy');
    cleanup();

    draw({ page: makePage({ hidePrivacyPolicyCheckbox: true }) });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('has a hidden honeypot field named website', () => {
    const { q } = draw();
    const honeypot = q<HTMLInputElement>('input[name="website"]')!;
    expect(honeypot).not.toBeNull();
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.getAttribute('autocomplete')).toBe('off');
    expect(honeypot.getAttribute('aria-hidden')).toBe('true');
    const wrapper = honeypot.parentElement!;
    expect(wrapper.getAttribute('aria-hidden')).toBe('true');
    expect(wrapper.style.position).toBe('absolute');
    expect(wrapper.style.left).toBe('-10000px');
    // Not reachable for assistive technology nor by tabbing.
    expect(screen.queryByRole('textbox', { name: /website/i })).toBeNull();
  });

  it("colours the button with the page's colour and a contrasting text", () => {
    const dark = draw({ page: makePage({ buttonColor: '#1d4ed8' }) });
    const darkBtn = dark.q<HTMLButtonElement>('button.plk-btn')!;
    expect(darkBtn.style.backgroundColor).toBe('rgb(29, 78, 216)');
    expect(darkBtn.style.color).toBe('rgb(255, 255, 255)');
    cleanup();
    const light = draw({ page: makePage({ buttonColor: '#fde047' }) });
    expect(light.q<HTMLButtonElement>('button.plk-btn')!.style.color).toBe('rgb(0, 0, 0)');
  });

  it("shows 'Submitting...' and disables every input while submitting", () => {
    const { container } = draw({ submitting: true });
    expect(screen.getByRole('button').textContent).toBe('Submitting...');
    const fields = container.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button');
    expect(fields.length).toBe(4); // email, consent, honeypot, button
    for (const field of fields) expect(field.disabled).toBe(true);
  });

  it('shows an error under the form', () => {
    const { q } = draw({ error: 'Failed to submit: Please enter a valid email address' });
    expect(screen.getByRole('alert').textContent).toBe('Failed to submit: Please enter a valid email address');
    expect(q('form .plk-error')).not.toBeNull();
  });

  it('prefills the e-mail of a failed post and posts to formAction', () => {
    const { q } = draw({ submittedEmail: 'ann@example.com', formAction: '/photo-guide' });
    expect((screen.getByPlaceholderText('Enter your email') as HTMLInputElement).value).toBe('ann@example.com');
    expect(q('form')!.getAttribute('action')).toBe('/photo-guide');
  });

  it('escapes hostile text (only the subtext is HTML)', () => {
    const { container } = draw({ page: makePage({ title: '<img src=x onerror=alert(1)>', author: '<b>x</b>' }) });
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.plk-author b')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('LandingPage — layout and appearance', () => {
  it('puts the content in a card at most 420 px wide with rounded corners and a shadow', () => {
    const { q } = draw();
    const card = q('.plk-card')!;
    expect(card.tagName).toBe('MAIN');
    expect(card.style.maxWidth).toBe('420px');
    expect(card.style.borderRadius).toBe('12px');
    expect(card.style.boxShadow).not.toBe('none');
    expect(card.style.boxShadow).not.toBe('');
    expect(card.style.textAlign).toBe('left');
  });

  it('honours sharp corners, hidden shadow and centred text', () => {
    const { q } = draw({ page: makePage({ useSharpCorners: true, hideDropShadow: true, textAlignment: 'center' }) });
    const card = q('.plk-card')!;
    expect(card.style.borderRadius).toMatch(/^0(px)?$/);
    expect(card.style.boxShadow).toBe('none');
    expect(card.style.textAlign).toBe('center');
    expect(card.className).toContain('plk-sharp');
    expect(card.className).toContain('plk-center');
  });

  it('draws the main image 260 px high, cropped to cover', () => {
    const { q } = draw({ page: makePage({ imageUrl: '/uploads/main.png' }) });
    const img = q<HTMLImageElement>('img.plk-img')!;
    expect(img.getAttribute('src')).toBe('/uploads/main.png');
    expect(img.style.height).toBe('260px');
    expect(img.style.objectFit).toBe('cover');
    cleanup();
    expect(draw().q('img')).toBeNull();
  });

  it('draws a fixed covering background image, or the background colour', () => {
    const withImage = draw({ page: makePage({ backgroundImage: 'https://cdn.example.com/bg.jpg' }) });
    const bg = withImage.q('.plk-bg')!;
    expect(bg.style.backgroundImage).toContain('https://cdn.example.com/bg.jpg');
    expect(bg.getAttribute('aria-hidden')).toBe('true');
    cleanup();
    const plain = draw({ page: makePage({ backgroundColor: '#112233' }) }).q('.plk-bg')!;
    expect(plain.style.backgroundColor).toBe('rgb(17, 34, 51)');
    expect(plain.style.backgroundImage).toBe('');
  });

  it('never loads an unsafe URL', () => {
    const { q } = draw({
      page: makePage({ imageUrl: 'javascript:alert(1)', backgroundImage: 'data:image/png;base64,AAAA', thankYouButtonText: 'Go' }),
    });
    expect(q('img')).toBeNull();
    expect(q('.plk-bg')!.style.backgroundImage).toBe('');
  });

  it('uses the chosen fonts (with fallbacks) and bold flags', () => {
    const { q } = draw({
      page: makePage({ titleFont: 'Playfair Display', titleBold: false, authorFont: 'Courier New', authorBold: true, descriptionFont: 'Lato', descriptionBold: true }),
    });
    const title = q('.plk-title')!;
    expect(title.style.fontFamily).toMatch(/^Playfair Display,.*serif$/);
    expect(title.style.fontWeight).toBe('400');
    expect(q('.plk-author')!.style.fontFamily).toMatch(/^Courier New,.*monospace$/);
    expect(q('.plk-author')!.style.fontWeight).toBe('700');
    expect(q('.plk-subtext')!.style.fontFamily).toMatch(/^Lato,.*sans-serif$/);
    expect(q('.plk-subtext')!.style.fontWeight).toBe('700');
  });

  it("draws the form, its messages and the badge in the description's font, not the system font", () => {
    const { q } = draw({ page: makePage({ titleFont: 'Playfair Display', descriptionFont: 'Lato' }) });
    // The page's body font is set on the root; the input and button take `font: inherit` from it.
    expect(q('.plk-root')!.style.fontFamily).toMatch(/^Lato,.*sans-serif$/);
    const rules = LANDING_PAGE_CSS.split('\n');
    for (const selector of ['.plk-input{', '.plk-btn{']) {
      expect(rules.find((rule) => rule.startsWith(selector))).toContain('font:inherit');
    }
    // Nothing else names a font: only the root's system stack, which the inline style overrides.
    expect(rules.filter((rule) => /font-family/.test(rule)).map((rule) => rule.split('{')[0])).toEqual(['.plk-root']);
  });

  it('draws a centred list item on its marker’s line (the item’s paragraph inline), without the left indent', () => {
    const rules = LANDING_PAGE_CSS.split('\n');
    expect(rules.some((rule) => rule.includes('.plk-center .plk-subtext li>p:first-child{display:inline}'))).toBe(true);
    expect(rules.some((rule) => rule.includes('.plk-center .plk-subtext ul,.plk-center .plk-subtext ol{padding-left:0}'))).toBe(true);
  });

  it('fills the window without scrolling when the content fits (padding inside the minimum height)', () => {
    const root = LANDING_PAGE_CSS.split('\n').find((rule) => rule.startsWith('.plk-root{'))!;
    expect(root).toContain('box-sizing:border-box');
    expect(root).toContain('min-height:100vh');
  });

  it('links the footer to /terms, /privacy, / and /dashboard', () => {
    const { container } = draw();
    const hrefs = [...container.querySelectorAll('.plk-links a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/terms', '/privacy', '/', '/dashboard']);
  });

  it("shows the 'Made with Plink' badge only with branding", () => {
    draw();
    expect(screen.getByRole('link', { name: 'Made with Plink' }).getAttribute('href')).toBe('/');
    cleanup();
    draw({ page: makePage({ showBranding: false }) });
    expect(screen.queryByText('Made with Plink')).toBeNull();
  });

  it("drops Plink's footer links with the branding, keeping the consent's privacy link", () => {
    const { container } = draw({ page: makePage({ showBranding: false }) });
    expect(container.querySelector('footer')).toBeNull();
    expect(container.querySelectorAll('a[href="/dashboard"], a[href="/terms"], a[href="/"]')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'privacy policy' }).getAttribute('href')).toBe('/privacy');
  });
});

describe('LandingPage — thank-you state', () => {
  it('shows the headline and subtext instead of the form', () => {
    const { q } = draw({ state: 'thank-you', page: makePage({ thankYouHeadline: 'Merci!', thankYouSubtext: 'It is on its way.' }) });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Merci!');
    expect(q('.plk-thanks-text')!.textContent).toBe('It is on its way.');
    expect(q('form')).toBeNull();
    expect(q('.plk-title')).toBeNull();
    expect(q('.plk-root')!.getAttribute('data-plk-state')).toBe('thank-you');
    expect(screen.queryByText('Redirecting you shortly...')).toBeNull();
  });

  it('shows the button only when both its text and URL are set', () => {
    const cases: Array<[string | null, string | null, boolean]> = [
      ['Download', 'https://files.example.com/guide.pdf', true],
      ['Download', null, false],
      [null, 'https://files.example.com/guide.pdf', false],
      ['  ', 'https://files.example.com/guide.pdf', false],
    ];
    for (const [text, url, shown] of cases) {
      const { q } = draw({ state: 'thank-you', page: makePage({ thankYouButtonText: text, thankYouButtonUrl: url }) });
      const link = q<HTMLAnchorElement>('.plk-thanks a.plk-btn');
      expect(link !== null).toBe(shown);
      if (shown) {
        expect(link!.textContent).toBe('Download');
        expect(link!.getAttribute('href')).toBe('https://files.example.com/guide.pdf');
      }
      cleanup();
    }
  });

  it("says 'Redirecting you shortly...' when the page redirects", () => {
    draw({ state: 'thank-you', page: makePage({ redirectUrl: 'https://example.com/next' }) });
    expect(screen.getByText('Redirecting you shortly...')).toBeTruthy();
  });

  it('keeps the main image and footer', () => {
    const { q } = draw({ state: 'thank-you', page: makePage({ imageUrl: '/uploads/a.png' }) });
    expect(q('img.plk-img')).not.toBeNull();
    expect(q('.plk-footer')).not.toBeNull();
  });
});

describe('LandingPage — editor preview', () => {
  it('never submits, opens links in a new tab and draws no <main>', () => {
    const { q, container } = draw({ preview: true });
    const form = q<HTMLFormElement>('form')!;
    expect(form.getAttribute('action')).toBeNull();
    const event = new Event('submit', { bubbles: true, cancelable: true });
    fireEvent(form, event);
    expect(event.defaultPrevented).toBe(true);
    expect(container.querySelector('main')).toBeNull();
    expect(q('.plk-root')!.className).toContain('plk-preview');
    for (const a of container.querySelectorAll('.plk-footer a')) expect(a.getAttribute('target')).toBe('_blank');
  });

  it('draws the same markup for the same props (deterministic)', () => {
    const first = draw({ page: makePage({ imageUrl: '/uploads/a.png' }) }).container.innerHTML;
    cleanup();
    const second = draw({ page: makePage({ imageUrl: '/uploads/a.png' }) }).container.innerHTML;
    expect(second).toBe(first);
  });
});
