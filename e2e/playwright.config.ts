import { defineConfig, devices } from '@playwright/test';
import { API_PATH } from '@sagan/shared/http';
import { CHROMIUM_LAUNCH } from '../scripts/lib/chromium.ts';

const PORT = Number(process.env.E2E_PORT ?? 4311);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  // Tests, not files, are shared out: every test makes its own users and data, so a long file
  // no longer keeps one worker busy while the other waits. A file that needs its order says
  // so (mode: 'serial').
  fullyParallel: true,
  workers: 2,
  // A test that passes only on a second try is a failing test: no retries, here or on CI.
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: `../.tmp/e2e-results-${PORT}`,
  use: {
    baseURL: BASE_URL,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node --import tsx ../scripts/e2e-server.ts',
    url: `${BASE_URL}${API_PATH}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
