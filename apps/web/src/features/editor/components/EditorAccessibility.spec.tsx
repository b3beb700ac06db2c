import { screen, within } from '@testing-library/react';
import { freePlan, makePage, mockFetch, noPages, signedInAs, slugsAvailable } from '../../../test/fetch-mock';
import { contrast } from '../../../test/contrast';
import { renderApp } from '../../../test/render-app';

async function openEditor(url: string, routes = {}) {
  mockFetch({ ...signedInAs({ username: 'ana' }), ...noPages, ...slugsAvailable, ...routes });
  const rendered = renderApp(url);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 10_000 });
  return rendered;
}

/** Every button of a dialog, named: a screen reader says what each one does (the close cross too). */
function expectNamedButtons(dialog: HTMLElement) {
  for (const button of within(dialog).getAllByRole('button')) expect(button).toHaveAccessibleName();
}

describe('the editor for a keyboard and a screen reader', () => {
  it('has tabs a keyboard moves through with the arrow keys, each panel named after its tab', async () => {
    const { user } = await openEditor('/editor/new?template=blank');
    const tabs = within(screen.getByRole('tablist'));

    // One Tab stop for the whole row: the selected tab.
    expect(tabs.getByRole('tab', { name: 'Content' })).toHaveAttribute('aria-selected', 'true');
    expect(tabs.getAllByRole('tab').filter((tab) => tab.tabIndex === 0).map((tab) => tab.textContent)).toEqual(['Content']);
    expect(screen.getByRole('tabpanel', { name: 'Content' })).toBeInTheDocument();

    await user.click(tabs.getByRole('tab', { name: 'Content' }));
    await user.keyboard('{ArrowRight}');
    const appearance = tabs.getByRole('tab', { name: 'Appearance' });
    expect(appearance).toHaveFocus();
    expect(appearance).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Appearance' })).toContainElement(screen.getByLabelText('Button Color'));

    // End reaches the last tab; Enter opens it.
    await user.keyboard('{End}');
    expect(tabs.getByRole('tab', { name: 'Sharing' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('tabpanel', { name: 'Sharing' })).toContainElement(screen.getByLabelText('Meta Title'));
  });

  it('names the dialog asking to leave without saving, and each of its buttons', async () => {
    const page = makePage({ id: 4 });
    const { user } = await openEditor('/editor/4', { 'GET /api/pages/4': { body: page } });
    await user.type(screen.getByLabelText('Title'), ' 2');
    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expectNamedButtons(dialog);
    // The red "Leave Without Saving" reads at WCAG AA (4.5:1), hovered too.
    const leave = within(dialog).getByRole('button', { name: 'Leave Without Saving' });
    expect(contrast(leave, '--button-color', '--button-bg')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(leave, '--button-color', '--button-hover')).toBeGreaterThanOrEqual(4.5);
  });

  it('names the "Page Limit Reached" dialog and each of its buttons', async () => {
    mockFetch({ ...signedInAs({ isPremium: false }), 'GET /api/pages': { body: [makePage()] }, ...freePlan });
    renderApp('/editor/new');

    expectNamedButtons(await screen.findByRole('dialog', { name: 'Page Limit Reached' }, { timeout: 10_000 }));
  });
});
