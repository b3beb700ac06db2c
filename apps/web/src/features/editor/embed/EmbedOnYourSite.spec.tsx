import { screen, within } from '@testing-library/react';
import { makePage, mockFetch, signedInAs } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

const page = makePage({ id: 7, slug: 'guide', title: 'Free Guide', buttonText: 'Get the <guide>', buttonColor: '#1d4ed8' });

async function openSharing(p = page) {
  mockFetch({ ...signedInAs({ username: 'ana', email: 'ana@example.com' }), 'GET /api/pages': { body: [p] }, [`GET /api/pages/${p.id}`]: { body: p } });
  const rendered = renderApp(`/editor/${p.id}`);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 20000 });
  await rendered.user.click(screen.getByRole('tab', { name: 'Sharing' }));
  return rendered;
}

describe('Embed on your site', () => {
  it('hands out the inline, popup and slide-in tags and a plain form for the saved page, each to copy', async () => {
    const { user } = await openSharing();
    const origin = window.location.origin;
    const section = screen.getByRole('region', { name: 'Embed on your site' });
    expect(within(section).getByTestId('embed-snippet-inline')).toHaveTextContent(`<script async src="${origin}/embed.js" data-plink-page="guide"></script>`);
    expect(within(section).getByTestId('embed-snippet-popup')).toHaveTextContent(
      `<script async src="${origin}/embed.js" data-plink-page="guide" data-mode="popup" data-trigger="delay:10"></script>`,
    );
    expect(within(section).getByTestId('embed-snippet-slideIn')).toHaveTextContent('data-mode="slide-in" data-trigger="scroll:50"');
    const html = within(section).getByTestId('embed-snippet-html').textContent ?? '';
    expect(html).toContain(`<form method="post" action="${origin}/guide">`);
    expect(html).toContain('<input type="hidden" name="embed" value="html">');
    // The page's consent line and button, escaped: the snippet is HTML the creator pastes.
    expect(html).toContain(`I agree to the <a href="${origin}/privacy">privacy policy</a>`);
    expect(html).toContain('<button type="submit">Get the &#60;guide&#62;</button>');

    await user.click(within(section).getByRole('button', { name: 'Copy the popup snippet' }));
    expect(await navigator.clipboard.readText()).toBe(
      `<script async src="${origin}/embed.js" data-plink-page="guide" data-mode="popup" data-trigger="delay:10"></script>`,
    );
  });

  it('previews the chosen snippet with the unsaved texts of the editor', async () => {
    const { user } = await openSharing();
    expect(screen.getByTestId('embed-preview')).toHaveAttribute('data-mode', 'inline');
    expect(screen.getByTestId('embed-preview')).toHaveTextContent('Get the <guide>');
    await user.click(screen.getByRole('radio', { name: 'Popup' }));
    expect(screen.getByTestId('embed-preview')).toHaveAttribute('data-mode', 'popup');
    await user.click(screen.getByRole('tab', { name: 'Content' }));
    const button = screen.getByLabelText(/Button Text/i);
    await user.clear(button);
    await user.type(button, 'Join now');
    await user.click(screen.getByRole('tab', { name: 'Sharing' }));
    await user.click(screen.getByRole('radio', { name: 'Slide-in' }));
    expect(screen.getByTestId('embed-preview')).toHaveAttribute('data-mode', 'slideIn');
    expect(screen.getByTestId('embed-preview')).toHaveTextContent('Join now');
  });
});
