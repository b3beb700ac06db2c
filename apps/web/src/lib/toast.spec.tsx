import { act, render, screen } from '@testing-library/react';
import { AppProviders } from '../app/AppProviders';
import { createQueryClient } from '../app/query-client';
import { toast, TOAST_DURATION } from './toast';

/** Mantine's exit animation: a closed toast leaves the DOM this long after closing. */
const EXIT_MS = 300;

function renderToaster() {
  render(<AppProviders queryClient={createQueryClient()} mantineEnv="test">{null}</AppProviders>);
}

const show = (options: Parameters<typeof toast>[0]) => act(() => void toast(options));
const wait = (ms: number) => act(() => jest.advanceTimersByTime(ms));

/** Advances time in two steps: the close (a render) schedules the exit animation's own timer. */
const closeAndExit = () => {
  wait(100);
  wait(EXIT_MS);
};

describe('toast', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows one toast at a time: a new one replaces the current one', async () => {
    renderToaster();

    show({ title: 'First', description: 'one' });
    show({ title: 'Second', description: 'two', variant: 'destructive' });
    // The toast container's code loads with the first toast.
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    wait(EXIT_MS);

    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Secondtwo');
    expect(screen.getByRole('alert')).toHaveAttribute('data-variant', 'destructive');
  });

  it('closes after 5 s by default, or after the given duration', async () => {
    renderToaster();

    show({ title: 'Saved' });
    // Once the container is there (it loads with the first toast), its clock starts.
    await screen.findByRole('alert');
    wait(TOAST_DURATION.default - 100);
    expect(screen.getByRole('alert')).toHaveTextContent('Saved');
    closeAndExit();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    show({ title: 'URL Copied', duration: TOAST_DURATION.copy });
    wait(TOAST_DURATION.copy - 100);
    expect(screen.getByRole('alert')).toHaveTextContent('URL Copied');
    closeAndExit();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
