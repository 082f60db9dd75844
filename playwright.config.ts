import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-pass' };

/** Browser tests drive Debian's Chromium against the built app on a fresh PGlite data dir. */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: '.tmp/playwright-results.json' }]]
    : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    // the app's service worker would carry the page's requests past page.route, so a test that
    // answers for the server could see the real server instead; e2e/push.spec.ts allows it
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: `rm -rf .tmp/e2e-data-${PORT} && npx tsx src/server/server.ts`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `.tmp/e2e-data-${PORT}`,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SCHEDULER: 'false',
      LOG_LEVEL: 'warn',
      // every test's agent registers from 127.0.0.1: the per-address limit is for the internet
      REGISTRATIONS_PER_ADDRESS: '1000',
      REGISTRATIONS_TOTAL: '1000',
      // the delivery specs point agents' CRM webhooks at receivers they start on 127.0.0.1
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  },
});
