import { screen, within } from '@testing-library/react';
import { DeliveryEmailTexts } from '@plink/contracts';
import { makePage, type MockRoutes, mockFetch, sentPayloads, signedInAs } from '../../../test/fetch-mock';
import { findToast, renderApp } from '../../../test/render-app';

const page = makePage({ id: 7, slug: 'guide', title: 'Free Guide', buttonColor: '#1d4ed8', fileUrl: 'https://files.example.com/guide.pdf' });

async function openDeliveryEmail(routes: MockRoutes = {}) {
  const fetchMock = mockFetch({
    ...signedInAs({ username: 'ana', email: 'ana@example.com' }),
    'GET /api/pages': { body: [page] },
    'GET /api/pages/7': { body: page },
    ...routes,
  });
  const rendered = renderApp('/editor/7');
  await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
  await rendered.user.click(screen.getByRole('tab', { name: 'Delivery e-mail' }));
  return { fetchMock, ...rendered };
}

const previewHtml = () => (screen.getByTestId('email-preview') as HTMLIFrameElement).getAttribute('srcdoc') ?? '';

describe('the Delivery e-mail tab', () => {
  it("previews today's e-mail from the creator, with the button in the page's colour, and follows every edit", async () => {
    const { user } = await openDeliveryEmail();
    expect(screen.getByTestId('email-preview-from')).toHaveTextContent('ana');
    expect(screen.getByTestId('email-preview-subject')).toHaveTextContent('Your download: Free Guide');
    expect(previewHtml()).toContain('Thanks for signing up on “Free Guide”');
    expect(previewHtml()).toMatch(/href="https:\/\/files\.example\.com\/guide\.pdf" data-file-button style="background:#1d4ed8;color:#ffffff/);
    expect(screen.getByLabelText('Reply-to')).toHaveAttribute('placeholder', 'ana@example.com');

    await user.type(screen.getByLabelText('Sender name'), 'Ana from the Guide');
    await user.type(screen.getByLabelText('Subject'), 'Here it is');
    expect(screen.getByTestId('email-preview-from')).toHaveTextContent('Ana from the Guide');
    expect(screen.getByTestId('email-preview-subject')).toHaveTextContent('Here it is');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
  });

  it('sends a test with the unsaved values and says where it went', async () => {
    const { user, fetchMock } = await openDeliveryEmail({
      'POST /api/pages/7/test-email': { body: { message: DeliveryEmailTexts.testSent('ana@example.com') } },
    });
    await user.type(screen.getByLabelText('Subject'), 'Draft subject');
    await user.click(screen.getByRole('button', { name: 'Send me a test' }));
    const toast = await findToast('Test sent');
    expect(within(toast).getByText('Test e-mail sent to ana@example.com')).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/test-email')).toEqual([
      {
        emailSenderName: null,
        emailReplyTo: null,
        emailSubject: 'Draft subject',
        emailBody: null,
        title: 'Free Guide',
        buttonColor: '#1d4ed8',
        fileUrl: 'https://files.example.com/guide.pdf',
      },
    ]);
  });

  it('shows the server’s refusal when too many tests were sent', async () => {
    const { user, fetchMock } = await openDeliveryEmail({
      'POST /api/pages/7/test-email': { status: 429, body: { message: DeliveryEmailTexts.testTooMany } },
    });
    await user.click(screen.getByRole('button', { name: 'Send me a test' }));
    expect(within(await findToast('Test not sent')).getByText(DeliveryEmailTexts.testTooMany)).toBeInTheDocument();
    expect(sentPayloads(fetchMock, 'POST', '/api/pages/7/test-email')).toHaveLength(1);
  });
});
