import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the real gateway (built: apps/gateway/dist + apps/web/dist). Each worker
 * starts its own gateway, database, Redis prefix and SMTP catcher (src/fixtures.ts).
 */
export default defineConfig({
  testDir: 'src',
  testMatch: '**/*.e2e-spec.ts',
  fullyParallel: false,
  workers: 1,
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
