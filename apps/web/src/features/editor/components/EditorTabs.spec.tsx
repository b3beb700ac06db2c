import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makePage, mockFetch, type MockRoutes, noPages, proPlanStillActive, sentPayloads, signedInAs, slugsAvailable } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

async function openEditor(url: string, routes: MockRoutes = {}, { isPremium = false } = {}) {
  const fetchMock = mockFetch({ ...signedInAs({ isPremium, username: 'ana' }), ...noPages, ...slugsAvailable, ...routes });
  const rendered = renderApp(url);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  return { fetchMock, ...rendered };
}

const tab = (name: string) => screen.getByRole('tab', { name });
const preview = () => within(screen.getByTestId('live-preview'));
const previewCard = () => screen.getByTestId('live-preview').querySelector<HTMLElement>('.plk-card') as HTMLElement;
const fileInputOf = (button: HTMLElement) =>
  (button.closest('.mantine-InputWrapper-root') ?? document.body).querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;
const fontSelect = (label: string) => screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT') as HTMLInputElement;
const imageFile = (name: string, size: number, type = 'image/png') => new File([new Uint8Array(size)], name, { type });

describe('editor tabs', () => {
  it('has the Content, Appearance, Settings, Thank You, Delivery e-mail and Sharing tabs, each with its fields', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Content', 'Appearance', 'Settings', 'Thank You', 'Delivery e-mail', 'Sharing']);

    expect(screen.getByText('Main Image')).toBeInTheDocument();
    await user.click(tab('Appearance'));
    for (const label of ['Button Color', 'Background Color']) expect(screen.getByLabelText(label)).toBeInTheDocument();
    for (const label of ['Title Font', 'Description Font', 'Author Font']) expect(fontSelect(label)).toHaveValue('Inter');
    expect(screen.getByText('Background Image')).toBeInTheDocument();
    await user.click(tab('Settings'));
    for (const label of [/Show 'Made with Plink' badge/, /Hide privacy policy checkbox/, /Ask visitors to confirm their e-mail/, /Webhook URL/, /Custom Code Snippet/, 'Facebook Pixel ID', 'Google Analytics ID']) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    await user.click(tab('Delivery e-mail'));
    for (const label of ['Sender name', 'Reply-to', 'Subject']) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Email preview' })).toBeInTheDocument();
    await user.click(tab('Sharing'));
    for (const label of ['Meta Title', 'Meta Description']) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByText('Sharing Image')).toBeInTheDocument();
    expect(screen.getByText('Favicon')).toBeInTheDocument();
  });

  it('draws the appearance in the preview and saves it', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank', {
      'POST /api/pages': (payload) => ({ status: 201, body: makePage({ ...(payload as object), id: 3 }) }),
    });
    await user.type(screen.getByLabelText(/URL Slug/), 'styled');
    await user.type(screen.getByLabelText('Title'), 'Styled');
    await user.click(tab('Appearance'));

    const buttonColor = screen.getByLabelText('Button Color');
    await user.clear(buttonColor);
    await user.type(buttonColor, '#ff0000');
    await user.click(fontSelect('Title Font'));
    await user.click(await screen.findByRole('option', { name: 'Playfair Display' }));
    await user.click(screen.getByRole('radio', { name: 'Center' }));
    await user.click(screen.getByRole('switch', { name: /Sharp corners/ }));
    await user.click(screen.getByRole('switch', { name: /Hide drop shadow/ }));

    expect(preview().getByRole('button', { name: 'Submit' })).toHaveStyle({ backgroundColor: '#ff0000' });
    expect(preview().getByRole('heading', { name: 'Styled' }).style.fontFamily).toMatch(/^"?Playfair Display/);
    const card = previewCard();
    expect({ align: card.style.textAlign, radius: card.style.borderRadius, shadow: card.style.boxShadow }).toEqual({
      align: 'center',
      radius: '0',
      shadow: 'none',
    });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'Your page is live' });
    expect(sentPayloads(fetchMock, 'POST', '/api/pages')[0]).toMatchObject({
      buttonColor: '#ff0000',
      titleFont: 'Playfair Display',
      textAlignment: 'center',
      useSharpCorners: true,
      hideDropShadow: true,
    });
  });

  it('refuses a colour that is not #rrggbb with the shared message', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank');
    await user.type(screen.getByLabelText(/URL Slug/), 'bad-colour');
    await user.click(tab('Appearance'));
    const background = screen.getByLabelText('Background Color');
    await user.clear(background);
    await user.type(background, 'red');
    await user.click(tab('Content'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(tab('Appearance')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Colours must be in #rrggbb form')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages')).toHaveLength(0);
  });
});

describe('Pro features in the editor', () => {
  it('turns the branding back on for a Free user, with the reason', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    await user.click(tab('Settings'));
    const branding = screen.getByRole('switch', { name: /Show 'Made with Plink' badge/ });
    expect(branding).toBeChecked();

    await user.click(branding);

    expect(await findToast('Premium Feature')).toHaveTextContent('Removing branding requires a Pro subscription.');
    expect(branding).toBeChecked();
    expect(preview().getByText('Made with Plink')).toBeInTheDocument();
  });

  it('lets a Pro user remove the branding', async () => {
    const { user } = await openEditor('/editor/new?template=blank', {}, { isPremium: true });
    await user.click(tab('Settings'));
    await user.click(screen.getByRole('switch', { name: /Show 'Made with Plink' badge/ }));
    expect(screen.getByRole('switch', { name: /Show 'Made with Plink' badge/ })).not.toBeChecked();
    expect(preview().queryByText('Made with Plink')).not.toBeInTheDocument();
  });

  it('disables webhook and custom code for a Free user, and explains with a way to upgrade', async () => {
    const { user, location } = await openEditor('/editor/new?template=blank');
    await user.click(tab('Settings'));
    const webhook = screen.getByLabelText(/Webhook URL/);
    expect(webhook).toBeDisabled();
    expect(screen.getByLabelText(/Custom Code Snippet/)).toBeDisabled();

    fireEvent.click(screen.getAllByTestId('pro-only')[0]);
    const toast = await findToast('Premium Feature');
    await user.click(within(toast).getByRole('button', { name: 'Upgrade to Pro' }));
    expect(location()).toBe('/checkout?plan=pro');
  });

  it('lets a Pro user set a webhook and custom code, which never runs in the preview', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank', {
      'POST /api/pages': (payload) => ({ status: 201, body: makePage({ ...(payload as object), id: 3 }) }),
      // Saved and closed, "Your page is live" opens the dashboard, which checks a Pro user's plan.
      ...proPlanStillActive,
    }, { isPremium: true });
    await user.type(screen.getByLabelText(/URL Slug/), 'pro-page');
    await user.click(tab('Settings'));
    await user.type(screen.getByLabelText(/Webhook URL/), 'https://hooks.example.com/lead');
    fireEvent.change(screen.getByLabelText(/Custom Code Snippet/), { target: { value: '<script>window.__ran = true</script>' } });

    expect(document.querySelector('[data-testid="live-preview"] script')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'Your page is live' });
    expect(sentPayloads(fetchMock, 'POST', '/api/pages')[0]).toMatchObject({
      webhookUrl: 'https://hooks.example.com/lead',
      customCodeSnippet: '<script>window.__ran = true</script>',
    });
  });
});

describe('image uploads in the editor', () => {
  it('uploads the main image, shows it in the preview and saves its URL', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank', {
      'POST /api/upload-image?type=main': { status: 201, body: { imageUrl: '/uploads/u1/main-abc.jpg' } },
    });
    const upload = screen.getByRole('button', { name: 'Upload Main Image' });
    await user.upload(fileInputOf(upload), imageFile('photo.png', 1000));

    expect(await findToast('Image uploaded')).toBeInTheDocument();
    expect(screen.getByLabelText('Main Image URL')).toHaveValue('/uploads/u1/main-abc.jpg');
    // The preview follows the form a render later (a deferred value).
    await waitFor(() => expect(previewCard().querySelector('img.plk-img')).toHaveAttribute('src', '/uploads/u1/main-abc.jpg'));
    const [[, init]] = fetchMock.mock.calls.filter(([input]) => String(input) === '/api/upload-image?type=main');
    expect((init?.body as FormData).get('image')).toBeInstanceOf(File);
  });

  it('refuses a file over 2 MB before sending it', async () => {
    const { user, fetchMock } = await openEditor('/editor/new?template=blank');
    await user.upload(fileInputOf(screen.getByRole('button', { name: 'Upload Main Image' })), imageFile('big.png', 2 * 1024 * 1024 + 1));

    expect(await findToast('File too large')).toHaveTextContent('Image must be less than 2MB in size.');
    expect(fetchMock.mock.calls.some(([input]) => String(input).startsWith('/api/upload-image'))).toBe(false);
  });

  it('refuses a file that is not an image', async () => {
    const { fetchMock } = await openEditor('/editor/new?template=blank');
    const input = fileInputOf(screen.getByRole('button', { name: 'Upload Main Image' }));
    // user.upload honours `accept`; a drop or a picker set to "all files" does not.
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.7'], 'guide.pdf', { type: 'application/pdf' })] } });

    expect(await findToast('Invalid file type')).toHaveTextContent('Only image files are allowed.');
    expect(fetchMock.mock.calls.some(([input]) => String(input).startsWith('/api/upload-image'))).toBe(false);
  });

  it("shows the server's reason when an upload fails", async () => {
    const { user } = await openEditor('/editor/new?template=blank', {
      'POST /api/upload-image?type=background': { status: 400, body: { message: 'Only image files are allowed.' } },
    });
    await user.click(tab('Appearance'));
    await user.upload(fileInputOf(screen.getByRole('button', { name: 'Upload Background Image' })), imageFile('fake.png', 10));

    expect(await findToast('Upload failed')).toHaveTextContent('Only image files are allowed.');
    expect(screen.getByLabelText('Background Image URL')).toHaveValue('');
  });

  it("copies the main image as the sharing image, or says there is none", async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    await user.click(tab('Sharing'));
    await user.click(screen.getByRole('button', { name: 'Use Main Image' }));
    expect(await findToast('No main image')).toHaveTextContent('Please upload a main image first or enter a URL manually.');

    await user.click(tab('Content'));
    await user.type(screen.getByLabelText('Main Image URL'), 'https://img.example.com/cover.jpg');
    await user.click(tab('Sharing'));
    await user.click(screen.getByRole('button', { name: 'Use Main Image' }));
    expect(screen.getByLabelText('Sharing Image URL')).toHaveValue('https://img.example.com/cover.jpg');
  });

  it('counts the meta description against the recommended 150-160 characters', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    await user.click(tab('Sharing'));
    const counter = () => screen.getByTestId('meta-description-counter');
    fireEvent.change(screen.getByLabelText('Meta Description'), { target: { value: 'x'.repeat(100) } });
    expect(counter()).toHaveTextContent('100 characters · 50 more for the recommended length');
    fireEvent.change(screen.getByLabelText('Meta Description'), { target: { value: 'x'.repeat(155) } });
    expect(counter()).toHaveTextContent('155 characters · a good length');
    await user.type(screen.getByLabelText('Meta Description'), 'y'.repeat(10));
    expect(counter()).toHaveTextContent('165 characters · 5 over the recommended length');
  });
});

describe('unsaved changes', () => {
  const page = makePage({ id: 4 });

  it('asks before leaving with unsaved changes, and stays or leaves as told', async () => {
    const { user, location } = await openEditor('/editor/4', { 'GET /api/pages/4': { body: page } });
    await user.type(screen.getByLabelText('Title'), ' 2');
    expect(screen.getByTestId('unsaved-indicator')).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Editing' }));
    expect(location()).toBe('/editor/4');
    expect(screen.getByLabelText('Title')).toHaveValue('Free Guide 2');

    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave Without Saving' }));
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });

  it('leaves without asking when nothing changed or after saving', async () => {
    const { user, location } = await openEditor('/editor/4', {
      'GET /api/pages/4': { body: page },
      'PUT /api/pages/4': (payload) => ({ body: { ...page, ...(payload as object) } }),
    });
    await user.type(screen.getByLabelText('Title'), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await findToast('Your page has been updated!');
    expect(screen.queryByTestId('unsaved-indicator')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    expect(location()).toBe('/dashboard');
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).not.toBeInTheDocument();
  });

  it('asks the browser to confirm closing the tab only while there are changes', async () => {
    const { user } = await openEditor('/editor/4', { 'GET /api/pages/4': { body: page } });
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      act(() => {
        window.dispatchEvent(event);
      });
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.type(screen.getByLabelText('Title'), '!');
    expect(unload()).toBe(true);
  });
});

describe('rich text', () => {
  it('embeds a local image inline as data and shows it in the preview', async () => {
    await openEditor('/editor/new?template=blank');
    for (const name of ['Insert image', 'Undo', 'Redo']) expect(screen.getByRole('button', { name })).toBeInTheDocument();
    const png = new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'dot.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('rich-text-image-input'), { target: { files: [png] } });

    await waitFor(() => expect(previewCard().querySelector('.plk-subtext img')).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo='));
  });

  it('refuses an inline image of another type', async () => {
    await openEditor('/editor/new?template=blank');
    const webp = new File([new Uint8Array(8)], 'pic.webp', { type: 'image/webp' });
    fireEvent.change(screen.getByTestId('rich-text-image-input'), { target: { files: [webp] } });
    expect(await findToast('Invalid file type')).toHaveTextContent('Images in the text must be PNG, GIF, JPEG, BMP or ICO files.');
  });
});

describe('validation as the creator types', () => {
  it('shows a URL error when the field is left, and drops it as soon as the URL is right', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    const fileUrl = screen.getByLabelText('File URL');
    await user.type(fileUrl, 'javascript:alert(1)');
    expect(screen.queryByText('Please enter a valid URL starting with http:// or https://')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText('Please enter a valid URL starting with http:// or https://')).toBeInTheDocument();

    await user.clear(fileUrl);
    await user.type(fileUrl, 'https://files.example.com/a.pdf');
    expect(screen.queryByText('Please enter a valid URL starting with http:// or https://')).not.toBeInTheDocument();
  });
});
