import { test } from './fixtures';
import { ISOLATION_TITLE, isolationJourney } from './isolation-journey';

/** One host for the app and the landing pages (PUBLIC_ORIGIN unset): a page with its owner's code is sandboxed. */
test(`one host: ${ISOLATION_TITLE}`, async ({ page, browser, smtp, gateway }) => {
  test.setTimeout(180_000);
  await isolationJourney({ page, browser, smtp, gateway });
});
