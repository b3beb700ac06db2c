import { act, screen, waitFor, within } from '@testing-library/react';
import { deferred, freePlan, makePage, mockFetch, type MockReply, type MockRoutes, noPages, sentPayloads, signedInAs, signedOut, slugsAvailable, templatesAvailable } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

async function openEditor(url: string, routes: MockRoutes = {}, { isPremium = false } = {}) {
  const fetchMock = mockFetch({ ...signedInAs({ isPremium, username: 'ana' }), ...noPages, ...slugsAvailable, ...routes });
  const rendered = renderApp(url);
  // The editor chunk (tiptap) loads lazily: the first render can take a moment.
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  return { fetchMock, ...rendered };
}

const slug = () => screen.getByLabelText(/URL Slug/);
const preview = () => within(screen.getByTestId('live-preview'));
const tab = (name: string) => screen.getByRole('tab', { name });

describe('/editor/new', () => {
  it('checks the slug as it is typed, with the shared messages', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    expect(slug()).not.toHaveAttribute('aria-invalid', 'true');

    await user.type(slug(), 'My Page');
    expect(screen.getByText('Slug can only contain lowercase letters, numbers, and hyphens')).toBeInTheDocument();
    expect(slug()).toHaveAttribute('aria-invalid', 'true');

    await user.clear(slug());
    expect(screen.getByText('Slug is required')).toBeInTheDocument();

    await user.type(slug(), 'my-page');
    expect(slug()).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Slug is required')).not.toBeInTheDocument();
  });

  it('says whether the address is free once typing pauses, before any save', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank', {
      'GET /api/slug-availability?slug=taken-page': { body: { slug: 'taken-page', available: false, message: 'This URL is already taken. Please choose another one.' } },
      'GET /api/slug-availability?slug=free-page': { body: { slug: 'free-page', available: true, message: null } },
    });

    await user.type(slug(), 'taken-page');
    expect(await screen.findByText('This URL is already taken. Please choose another one.')).toBeInTheDocument();
    expect(slug()).toHaveAttribute('aria-invalid', 'true');

    await user.clear(slug());
    await user.type(slug(), 'free-page');
    expect(await screen.findByText(/free-page — available$/)).toBeInTheDocument();
    expect(slug()).not.toHaveAttribute('aria-invalid', 'true');
    // Asked once per pause in typing, not per keystroke, and never for a malformed or empty slug.
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/slug-availability'));
    expect(asked).toEqual(['/api/slug-availability?slug=taken-page', '/api/slug-availability?slug=free-page']);
  });

  it('refuses to save without a slug and opens the Content tab', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank');

    await user.click(tab('Thank You'));
    expect(tab('Thank You')).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const toast = await findToast('Missing field');
    expect(toast).toHaveTextContent('URL slug is required');
    expect(toast).toHaveAttribute('data-variant', 'destructive');
    expect(tab('Content')).toHaveAttribute('aria-selected', 'true');
    expect(sentPayloads(fetchMock, 'POST', '/api/pages')).toHaveLength(0);
  });

  it('creates the page, then says it is live and opens the dashboard when that is closed', async () => {
    const answer = deferred<MockReply>();
    let created = false;
    const { user, fetchMock, location } = await openEditor('/editor/new?template=blank', {
      'POST /api/pages': () => answer.promise.finally(() => (created = true)),
      // As the server answers: the Free creator's one page is there once created.
      'GET /api/pages': () => ({ body: created ? [makePage({ id: 9, slug: 'free-guide' })] : [] }),
    });

    await user.type(slug(), 'free-guide');
    await user.type(screen.getByLabelText('Title'), 'Free Guide');
    await user.clear(screen.getByLabelText('Button Text'));
    await user.type(screen.getByLabelText('Button Text'), 'Send it');
    await user.type(screen.getByLabelText('File URL'), 'https://files.example.com/guide.pdf');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await findToast('Creating page...')).toBeInTheDocument();
    await act(async () => answer.resolve({ status: 201, body: makePage({ id: 9, slug: 'free-guide' }) }));

    const live = await screen.findByRole('dialog', { name: 'Your page is live' });
    // The list is fetched again with the new page in it: the one page a Free plan has does not close the dialog.
    await waitFor(() => expect(sentPayloads(fetchMock, 'GET', '/api/pages').length).toBeGreaterThan(1));
    expect(screen.getByRole('dialog', { name: 'Your page is live' })).toBeInTheDocument();
    expect(location()).toBe('/editor/new?template=blank');
    await user.click(within(live).getByRole('button', { name: 'Go to dashboard' }));
    expect(location()).toBe('/dashboard');
    const [sent] = sentPayloads(fetchMock, 'POST', '/api/pages') as Record<string, unknown>[];
    expect(sent).toMatchObject({
      slug: 'free-guide',
      title: 'Free Guide',
      buttonText: 'Send it',
      fileUrl: 'https://files.example.com/guide.pdf',
      redirectUrl: null,
      thankYouHeadline: 'Thank you!',
      showBranding: true,
    });
  });

  it("shows the server's reason when the slug is taken", async () => {
    const { user, location } = await openEditor('/editor/new?template=blank', {
      'POST /api/pages': { status: 409, body: { message: 'This URL is already taken. Please choose another one.' } },
    });

    await user.type(slug(), 'taken');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const toast = await findToast('Error');
    expect(toast).toHaveTextContent('Failed to create page: This URL is already taken. Please choose another one.');
    expect(slug()).toHaveAttribute('aria-invalid', 'true');
    expect(location()).toBe('/editor/new?template=blank');
  });

  it('previews the page, and the thank-you state while the Thank You tab is open', async () => {
    const { user } = await openEditor('/editor/new?template=blank');

    await user.type(screen.getByLabelText('Title'), 'Free Guide');
    await user.type(screen.getByLabelText('Author Name'), 'Ana Writes');
    expect(await preview().findByRole('heading', { name: 'Free Guide' })).toBeInTheDocument();
    expect(preview().getByText('Ana Writes')).toBeInTheDocument();
    expect(preview().getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    // A picture, not controls: browsers keep an inert subtree out of the Tab order and the accessibility tree.
    expect(screen.getByTestId('live-preview-page')).toHaveAttribute('inert');

    await user.click(tab('Thank You'));
    await user.clear(screen.getByLabelText('Thank You Headline'));
    await user.type(screen.getByLabelText('Thank You Headline'), 'You are in!');

    expect(await preview().findByRole('heading', { name: 'You are in!' })).toBeInTheDocument();
    expect(preview().getByText('Check your email for your download link.')).toBeInTheDocument();
    expect(preview().queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();

    await user.click(tab('Content'));
    expect(await preview().findByRole('button', { name: 'Submit' })).toBeInTheDocument();
  });

  it('previews the page at a phone’s width on demand', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    await user.click(screen.getByRole('radio', { name: 'Phone' }));
    expect(screen.getByTestId('live-preview')).toHaveAttribute('data-device', 'phone');
    expect(getComputedStyle(screen.getByTestId('live-preview')).maxWidth).toBe('calc(24.375rem * var(--mantine-scale))'); // 390 px
    await user.click(screen.getByRole('radio', { name: 'Desktop' }));
    expect(getComputedStyle(screen.getByTestId('live-preview')).maxWidth).toBe('');
  });

  it("falls back to the username as author, and hides the author when it is turned off", async () => {
    const { user } = await openEditor('/editor/new?template=blank');

    expect(preview().getByText('ana')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /^Show the author/ }));
    expect(preview().queryByText('ana')).not.toBeInTheDocument();
  });

  it('offers the rich-text toolbar: headings 1-2, bold, italic, underline, lists, clear formatting', async () => {
    await openEditor('/editor/new?template=blank');

    for (const name of ['Heading 1', 'Heading 2', 'Bold', 'Italic', 'Underline', 'Ordered list', 'Bullet list', 'Clear formatting']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByRole('textbox', { name: 'Subtext' })).toBeInTheDocument();
  });

  it('stops a Free user who already has a page', async () => {
    mockFetch({ ...signedInAs({ isPremium: false }), 'GET /api/pages': { body: [makePage()] }, ...freePlan });
    const { user, location } = renderApp('/editor/new');

    // The dialog opens over the dashboard, not over an empty page.
    const dialog = await screen.findByRole('dialog', { name: 'Page Limit Reached' }, { timeout: 5000 });
    expect(location()).toBe('/dashboard');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Free plan users can only create one landing page.');
    expect(within(dialog).getByRole('link', { name: 'Upgrade to Pro' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Back to Dashboard' }));
    expect(screen.queryByRole('dialog', { name: 'Page Limit Reached' })).not.toBeInTheDocument();
    expect(location()).toBe('/dashboard');
  });

  it('lets a Pro user with pages create more', async () => {
    await openEditor('/editor/new?template=blank', { 'GET /api/pages': { body: [makePage(), makePage({ id: 2 })] } }, { isPremium: true });
    expect(screen.queryByRole('dialog', { name: 'Page Limit Reached' })).not.toBeInTheDocument();
  });
});

describe('/editor/:id', () => {
  const page = makePage({ id: 4, slug: 'free-guide', title: 'Free Guide', redirectUrl: 'https://example.com/next' });

  it('edits the page and confirms the update', async () => {
    const { user, fetchMock, location } = await openEditor('/editor/4', {
      'GET /api/pages/4': { body: page },
      'PUT /api/pages/4': (payload) => ({ body: { ...page, ...(payload as object) } }),
    });

    expect(slug()).toHaveValue('free-guide');
    expect(screen.getByLabelText('Redirect URL')).toHaveValue('https://example.com/next');
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Better Guide');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await findToast('Your page has been updated!')).toBeInTheDocument();
    expect(location()).toBe('/editor/4');
    const [sent] = sentPayloads(fetchMock, 'PUT', '/api/pages/4') as Record<string, unknown>[];
    expect(sent).toMatchObject({ slug: 'free-guide', title: 'Better Guide', redirectUrl: 'https://example.com/next' });
  });

  it('turns double opt-in on in Settings (any plan), and the preview\'s thank-you asks to confirm', async () => {
    const { user, fetchMock } = await openEditor('/editor/4', {
      'GET /api/pages/4': { body: page },
      'PUT /api/pages/4': (payload) => ({ body: { ...page, ...(payload as object) } }),
    });

    await user.click(tab('Settings'));
    const box = await screen.findByLabelText(/Ask visitors to confirm their e-mail/);
    expect(box).not.toBeChecked();
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Your page has been updated!')).toBeInTheDocument();
    const [sent] = sentPayloads(fetchMock, 'PUT', '/api/pages/4') as Record<string, unknown>[];
    // The creator's text is kept as written; the standard one is shown as 'Check your inbox…' (as the server does).
    expect(sent).toMatchObject({ doubleOptIn: true, thankYouSubtext: 'Check your email for your download link.' });
    await user.click(tab('Thank You'));
    expect(await preview().findByText('Check your inbox to confirm your e-mail.')).toBeInTheDocument();
  });

  it('links to the live page and copies its link, following a saved slug change', async () => {
    const { user } = await openEditor('/editor/4', {
      'GET /api/pages/4': { body: page },
      'PUT /api/pages/4': (payload) => ({ body: { ...page, ...(payload as object) } }),
    });

    expect(await screen.findByRole('link', { name: 'View live page' })).toHaveAttribute('href', '/free-guide');
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await findToast('URL Copied')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/free-guide`);

    // A slug being typed is not live yet; once saved, it is.
    await user.clear(slug());
    await user.type(slug(), 'better-guide');
    expect(screen.getByRole('link', { name: 'View live page' })).toHaveAttribute('href', '/free-guide');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Your page has been updated!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View live page' })).toHaveAttribute('href', '/better-guide');
    // "Your page is live" is for the first save only: saving an existing page stays in the editor.
    expect(screen.queryByRole('dialog', { name: 'Your page is live' })).not.toBeInTheDocument();
  });

  it('has no live page to show while creating', async () => {
    await openEditor('/editor/new?template=blank');
    expect(screen.queryByRole('link', { name: 'View live page' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy link' })).not.toBeInTheDocument();
  });

  it('reports a failed update', async () => {
    const { user } = await openEditor('/editor/4', {
      'GET /api/pages/4': { body: page },
      'PUT /api/pages/4': { status: 500, body: { message: 'Database unavailable' } },
    });

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await findToast('Error')).toHaveTextContent('Failed to update page: Database unavailable');
  });

  it('opens the tab of an invalid field instead of saving', async () => {
    const { user, fetchMock } = await openEditor('/editor/4', { 'GET /api/pages/4': { body: page } });

    await user.click(tab('Thank You'));
    await user.type(screen.getByLabelText('Thank You Button URL'), 'not a url');
    await user.click(tab('Content'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(tab('Thank You')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Please enter a valid URL starting with http:// or https://')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'PUT', '/api/pages/4')).toHaveLength(0);
  });

  it("says 'Page not found' for a page that is not the user's", async () => {
    mockFetch({ ...signedInAs(), 'GET /api/pages/5': { status: 404, body: { message: 'Page not found' } } });
    renderApp('/editor/5');

    expect(await screen.findByRole('heading', { name: 'Page not found' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('templates', () => {
  const template = {
    title: 'Free Photography Cheat Sheet',
    subtext: '<p>Sharper photos on your next shoot.</p>',
    authorName: 'Maya',
    buttonText: 'Send Me the Guide',
    buttonColor: '#c2410c',
    backgroundColor: '#fff7ed',
    imageUrl: '/uploads/examples/photo-guide.jpg',
    textAlignment: 'center',
    titleFont: 'Playfair Display',
  };

  it('opens the editor prefilled from a template (image included), with no slug yet', async () => {
    const { fetchMock } = await openEditor('/editor/new?template=photo-guide', { 'GET /api/templates/photo-guide': { body: template } });

    expect(screen.getByLabelText(/Title/, { selector: 'input' })).toHaveValue('Free Photography Cheat Sheet');
    expect(slug()).toHaveValue('');
    expect(preview().getByRole('heading', { name: 'Free Photography Cheat Sheet' })).toBeInTheDocument();
    expect(screen.getByTestId('live-preview').querySelector('img')).toHaveAttribute('src', '/uploads/examples/photo-guide.jpg');
    expect(fetchMock).toHaveBeenCalledWith('/api/templates/photo-guide', expect.anything());
  });

  it('goes back to the gallery from "Browse templates", asking first about unsaved changes', async () => {
    const { user, location } = await openEditor('/editor/new?template=photo-guide', { 'GET /api/templates/photo-guide': { body: template }, ...templatesAvailable });
    const browse = screen.getByRole('link', { name: 'Browse templates' });
    expect(browse).toHaveAttribute('href', '/editor/new');

    await user.type(screen.getByLabelText(/Title/, { selector: 'input' }), '!');
    await user.click(browse);
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Editing' }));
    expect(location()).toBe('/editor/new?template=photo-guide');
    expect(screen.getByLabelText(/Title/, { selector: 'input' })).toHaveValue('Free Photography Cheat Sheet!');

    await user.click(browse);
    await user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave Without Saving' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a template' })).toBeInTheDocument();
    expect(location()).toBe('/editor/new');
  });

  it('has no "Browse templates" while editing a page', async () => {
    await openEditor('/editor/4', { 'GET /api/pages/4': { body: makePage({ id: 4 }) } });
    expect(screen.queryByRole('link', { name: 'Browse templates' })).not.toBeInTheDocument();
  });

  it('takes a signed-in verified user from "Use this template" straight to the prefilled editor', async () => {
    mockFetch({ ...signedInAs({ username: 'ana' }), ...noPages, 'GET /api/templates/photo-guide': { body: template } });
    const { location } = renderApp('/auth?tab=register&template=photo-guide');

    await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
    expect(location()).toBe('/editor/new?template=photo-guide');
    expect(screen.getByLabelText(/Title/, { selector: 'input' })).toHaveValue('Free Photography Cheat Sheet');
  });

  // Any template of the gallery, not only the home page's examples.
  it('keeps a signed-out visitor\'s choice until they reach the dashboard signed in and verified', async () => {
    localStorage.clear();
    mockFetch(signedOut);
    const first = renderApp('/auth?tab=register&template=ebook-download');
    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    first.unmount();

    mockFetch({ ...signedInAs({ username: 'ana' }), ...noPages, 'GET /api/templates/ebook-download': { body: { ...template, title: 'The No-Spreadsheet Budget' } } });
    const { location } = renderApp('/dashboard');
    await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
    expect(location()).toBe('/editor/new?template=ebook-download');
    expect(screen.getByLabelText(/Title/, { selector: 'input' })).toHaveValue('The No-Spreadsheet Budget');
    expect(localStorage.getItem('plink.pending-template')).toBeNull();
  });
});
