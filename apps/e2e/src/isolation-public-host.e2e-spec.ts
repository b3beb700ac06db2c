import { test } from './fixtures';
import { ISOLATION_TITLE, isolationJourney } from './isolation-journey';

/** Landing pages on a host of their own: PUBLIC_ORIGIN http://localhost:<port>, the app on http://127.0.0.1:<port>. */
test.use({ publicHost: 'localhost' });

test(`public host: ${ISOLATION_TITLE}`, async ({ page, browser, smtp, gateway }) => {
  test.setTimeout(180_000);
  await isolationJourney({ page, browser, smtp, gateway });
});
