import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the real gateway (built: apps/gateway/dist + apps/web/dist). Each worker
 * starts its own gateway, database, Redis prefix and SMTP catcher (src/fixtures.ts).
 */
export default defineConfig({
  testDir: 'src',
  testMatch: '**/*.e2e-spec.ts',
  // Files run two at a time (E2E_WORKERS), each worker on its own gateway: the screens walk alone takes about
  // 3 minutes, and the other journeys fit beside it. Tests inside a file stay in order (they build on each other).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  outputDir: 'test-results',
  use: {
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
