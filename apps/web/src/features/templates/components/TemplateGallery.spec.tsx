import { act, screen, within } from '@testing-library/react';
import { mockFetch, noPages, type MockRoutes, signedInAs, slugsAvailable, templateList, templatesAvailable } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';

async function openGallery(url = '/editor/new', routes: MockRoutes = templatesAvailable) {
  const fetchMock = mockFetch({ ...signedInAs({ username: 'ana' }), ...noPages, ...slugsAvailable, ...routes });
  const rendered = renderApp(url);
  // The editor's chunk loads lazily: the first render can take a moment.
  await screen.findByRole('heading', { level: 1, name: 'Choose a template' }, { timeout: 5000 });
  return { fetchMock, ...rendered };
}

const cards = () => within(screen.getByRole('list')).getAllByRole('listitem');
const cardLink = (name: string) => screen.getByRole('link', { name });

describe('"Create page": the template gallery', () => {
  it('shows "Start blank" and a card per template, each named, with its category, description and a miniature of its page', async () => {
    await openGallery();

    expect(await screen.findByRole('link', { name: 'Ebook download' })).toHaveAttribute('href', '/editor/new?template=ebook-download');
    expect(cardLink('Start blank')).toHaveAttribute('href', '/editor/new?template=blank');
    expect(cards()).toHaveLength(1 + templateList.length);
    // Screen readers hear what the template is for with its name.
    expect(cardLink('Petition')).toHaveAccessibleDescription('A page for petition.');
    const card = within(cards()[2]!);
    expect(card.getByText('Downloads')).toBeInTheDocument();
    // The miniature is the page as visitors see it (the editor preview's component), kept out of the Tab order and
    // the accessibility tree.
    const miniature = cards()[2]!.querySelector('[inert]')!;
    expect(miniature).toHaveTextContent('The No-Spreadsheet Budget');
    expect(miniature).toHaveTextContent('Download the Free Ebook');
    expect(miniature.querySelector('img')).toHaveAttribute('src', '/uploads/templates/ebook-download.jpg');
    expect(card.queryByRole('button', { name: 'Download the Free Ebook' })).not.toBeInTheDocument();
    // One h1, a heading per card below it.
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Start blank', ...templateList.map((t) => t.name)]);
  });

  it('filters by category, keeping the choice in the URL, with "Start blank" always there', async () => {
    const { user, location } = await openGallery();
    await screen.findByRole('link', { name: 'Ebook download' });
    const filter = screen.getByRole('radiogroup', { name: 'Category' });
    expect(within(filter).getByRole('radio', { name: 'All' })).toBeChecked();

    await user.click(within(filter).getByRole('radio', { name: 'Events' }));
    expect(within(filter).getByRole('radio', { name: 'Events' })).toBeChecked();
    expect(location()).toBe('/editor/new?category=events');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Start blank', 'Webinar registration']);

    await user.click(within(filter).getByRole('radio', { name: 'All' }));
    expect(location()).toBe('/editor/new');
    expect(cards()).toHaveLength(1 + templateList.length);
  });

  it('opens on the category of the URL', async () => {
    await openGallery('/editor/new?category=downloads');
    await screen.findByRole('link', { name: 'Cheat sheet' });
    expect(screen.getByRole('radio', { name: 'Downloads' })).toBeChecked();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Start blank', 'Cheat sheet', 'Ebook download']);
  });

  it('opens the editor filled with the chosen template at once, without asking the server again', async () => {
    const { user, location, fetchMock } = await openGallery();
    await user.click(await screen.findByRole('link', { name: 'Webinar registration' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Page' })).toBeInTheDocument();
    expect(location()).toBe('/editor/new?template=webinar-signup');
    expect(screen.getByLabelText(/Title/, { selector: 'input' })).toHaveValue('Free Live Webinar');
    expect(screen.getByLabelText('Button Text')).toHaveValue('Save My Seat');
    expect(screen.getByLabelText(/URL Slug/)).toHaveValue('');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/templates/webinar-signup');
  });

  it('opens the empty editor from "Start blank", and Back returns to the gallery', async () => {
    const { user, location, router } = await openGallery();
    await user.click(cardLink('Start blank'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Create Page' })).toBeInTheDocument();
    expect(location()).toBe('/editor/new?template=blank');
    expect(screen.getByLabelText(/Title/, { selector: 'input' })).toHaveValue('');
    expect(screen.getByLabelText('Button Text')).toHaveValue('Submit');

    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a template' })).toBeInTheDocument();
  });

  it('still offers "Start blank" when the templates cannot be loaded', async () => {
    await openGallery('/editor/new', { 'GET /api/templates': { status: 500, body: { message: 'Database unavailable' } } });

    expect(await screen.findByText('The templates could not be loaded. You can start blank, or reload the page to try again.')).toBeInTheDocument();
    expect(cardLink('Start blank')).toHaveAttribute('href', '/editor/new?template=blank');
    expect(cards()).toHaveLength(1);
  });
});
