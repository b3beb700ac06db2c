import { screen, waitFor, within } from '@testing-library/react';
import type { PageDto } from '@plink/contracts';
import jsQR from 'jsqr';
import { makePage, mockFetch, noPages, signedInAs, slugsAvailable } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const LINK = `${window.location.origin}/free-guide`;

/** Creates `free-guide` in the editor; the server answers with `saved`. */
async function createPage(saved: Partial<PageDto> = {}) {
  mockFetch({
    ...signedInAs({ username: 'ana' }),
    ...noPages,
    ...slugsAvailable,
    'POST /api/pages': { status: 201, body: makePage({ id: 9, slug: 'free-guide', ...saved }) },
  });
  const rendered = renderApp('/editor/new?template=blank');
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  // Pasted, not typed: one change instead of a re-render of the whole editor per key.
  await rendered.user.click(screen.getByLabelText(/URL Slug/));
  await rendered.user.paste('free-guide');
  await rendered.user.click(screen.getByRole('button', { name: 'Save' }));
  const dialog = await screen.findByRole('dialog', { name: 'Your page is live' });
  return { ...rendered, dialog: within(dialog), dialogElement: dialog };
}

/** The text a QR scanner reads from the dialog's code (its SVG drawn in black and white pixels). */
function scanQrCode(src: string): string | null {
  const prefix = 'data:image/svg+xml;charset=utf-8,';
  expect(src.startsWith(prefix)).toBe(true);
  const svg = decodeURIComponent(src.slice(prefix.length));
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
  // The dark modules are horizontal strokes along the middle of each row: M/m move, h draws.
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, command, args] of path.matchAll(/([Mmh])([^Mmh]*)/g)) {
    const [a, b] = args.trim().split(/[\s,]+/).map(Number);
    if (command === 'M') [x, y] = [a, b];
    else if (command === 'm') [x, y] = [x + a, y + b];
    else {
      for (let i = 0; i < a; i++) dark.add(`${x + i},${Math.floor(y)}`);
      x += a;
    }
  }
  const scale = 4;
  const width = size * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let py = 0; py < width; py++) {
    for (let px = 0; px < width; px++) {
      if (!dark.has(`${Math.floor(px / scale)},${Math.floor(py / scale)}`)) continue;
      pixels.fill(0, (py * width + px) * 4, (py * width + px) * 4 + 3);
    }
  }
  return jsQR(pixels, width, width)?.data ?? null;
}

describe('"Your page is live" after the first save', () => {
  it('opens after the create instead of the dashboard, copies the link, and goes there when closed', async () => {
    const { user, location, dialog } = await createPage();

    expect(location()).toBe('/editor/new?template=blank');
    expect(dialog.getByRole('textbox', { name: "Your page's link" })).toHaveValue(LINK);
    expect(dialog.getByRole('link', { name: 'View live page' })).toHaveAttribute('href', '/free-guide');
    expect(dialog.getByRole('link', { name: 'View live page' })).toHaveAttribute('target', '_blank');
    // Focus starts inside the dialog, on its first action.
    expect(dialog.getByRole('button', { name: 'Copy link' })).toHaveFocus();
    await user.click(dialog.getByRole('button', { name: 'Copy link' }));
    expect(await findToast('URL Copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(LINK);

    await user.click(dialog.getByRole('button', { name: 'Go to dashboard' }));
    expect(location()).toBe('/dashboard');
    expect(screen.queryByRole('dialog', { name: 'Your page is live' })).not.toBeInTheDocument();
  });

  it('previews the card of the meta title, description and image, and shares the encoded link in new tabs', async () => {
    const { dialog } = await createPage({
      metaTitle: 'Get the guide & more',
      metaDescription: 'Ten pages of basics.',
      metaImageUrl: '/uploads/og.png',
      imageUrl: '/uploads/main.png',
    });
    const card = within(dialog.getByTestId('social-card-preview'));
    expect(card.getByText('Get the guide & more')).toBeInTheDocument();
    expect(card.getByText('Ten pages of basics.')).toBeInTheDocument();
    expect(card.getByText(window.location.host)).toBeInTheDocument();
    expect(card.getByRole('img', { name: 'The sharing image' })).toHaveAttribute('src', `${window.location.origin}/uploads/og.png`);

    const encoded = encodeURIComponent(LINK);
    const share = (name: string) => dialog.getByRole('link', { name });

    expect(share('Share on X (opens in a new tab)')).toHaveAttribute(
      'href',
      `https://twitter.com/intent/tweet?url=${encoded}&text=Get%20the%20guide%20%26%20more`,
    );
    expect(share('Share on LinkedIn (opens in a new tab)')).toHaveAttribute('href', `https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`);
    expect(share('Share on Facebook (opens in a new tab)')).toHaveAttribute('href', `https://www.facebook.com/sharer/sharer.php?u=${encoded}`);
    const mail = new URL(share('Share by e-mail (opens in a new tab)').getAttribute('href') ?? '');
    expect(mail.protocol).toBe('mailto:');
    expect(mail.searchParams.get('subject')).toBe('Get the guide & more');
    expect(mail.searchParams.get('body')).toBe(`Get the guide & more\n\n${LINK}`);
    for (const name of ['X', 'LinkedIn', 'Facebook']) {
      expect(share(`Share on ${name} (opens in a new tab)`)).toHaveAttribute('target', '_blank');
      expect(share(`Share on ${name} (opens in a new tab)`)).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(share('Share by e-mail (opens in a new tab)')).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('shows a QR code that scans to the link, downloadable as PNG and SVG named after the page', async () => {
    const { dialog, user } = await createPage();

    const code = await dialog.findByRole('img', { name: `QR code of ${LINK}` });
    expect(scanQrCode(code.getAttribute('src') ?? '')).toBe(LINK);

    // The PNG is made when asked for, and handed to the browser as a download named after the page.
    const clicked: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    try {
      await user.click(dialog.getByRole('button', { name: 'Download PNG' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
    } finally {
      click.mockRestore();
    }
    expect(clicked[0]).toHaveAttribute('download', 'free-guide-qr.png');
    expect(clicked[0].getAttribute('href')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const svg = dialog.getByRole('link', { name: 'Download SVG' });
    expect(svg).toHaveAttribute('download', 'free-guide-qr.svg');
    // The SVG file is the code shown.
    expect(svg).toHaveAttribute('href', code.getAttribute('src'));
  });

  it('falls back in the card as the served page does: title, text, main image', async () => {
    const { dialog } = await createPage({
      title: 'Free Guide',
      metaTitle: null,
      metaDescription: null,
      subtext: '<p>Learn the <b>basics</b>.</p>',
      metaImageUrl: null,
      imageUrl: 'https://cdn.example.com/main.png',
    });

    const card = within(dialog.getByTestId('social-card-preview'));
    expect(card.getByText('Free Guide')).toBeInTheDocument();
    expect(card.getByText('Learn the basics.')).toBeInTheDocument();
    expect(card.getByRole('img', { name: 'The sharing image' })).toHaveAttribute('src', 'https://cdn.example.com/main.png');
  });

  it('says when there is no sharing image at all, and closes on Escape too', async () => {
    const { user, location, dialog } = await createPage({ metaImageUrl: null, imageUrl: null });
    const card = within(dialog.getByTestId('social-card-preview'));
    expect(card.queryByRole('img')).not.toBeInTheDocument();
    expect(card.getByText(/No sharing image/)).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(location()).toBe('/dashboard');
  });
});
