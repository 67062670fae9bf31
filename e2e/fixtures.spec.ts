// The console-error check of fixtures.ts bites: each test.fail below passes only because the
// check failed its test.
import { test, expect } from './fixtures.ts';

const logsAnError = (message: string) =>
  `<script>console.error(${JSON.stringify(message)})</script>`;

test.describe('the console-error check', () => {
  test.fail('fails a test whose page logs a console error', async ({ page }) => {
    await page.setContent(logsAnError('something broke'));
  });

  test.fail('fails a test whose page throws an uncaught exception', async ({ page }) => {
    await page.setContent('<script>setTimeout(() => { throw new Error("unhandled") })</script>');
    await page.waitForTimeout(100);
  });

  test.fail(
    'fails a test on an error of a page in a context it opened itself',
    async ({ browser }) => {
      const other = await browser.newContext();
      const page = await other.newPage();
      await page.setContent(logsAnError('in a second viewer'));
      await other.close();
    },
  );

  test('passes a test whose pages log no error, and lists what was logged', async ({
    page,
    consoleErrors,
  }) => {
    await page.setContent('<script>console.log("fine"); console.warn("a warning")</script>');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('an allowed console error', () => {
  test.use({
    allowConsoleErrors: [
      { match: /expected by this test/, reason: 'the test logs it on purpose, to be allowed' },
    ],
  });

  test('passes, and is still listed', async ({ page, consoleErrors }) => {
    await page.setContent(logsAnError('expected by this test'));
    await expect.poll(() => consoleErrors.length).toBe(1);
  });

  test('one test may allow an error of its own', async ({ page, allowConsoleError }) => {
    allowConsoleError(/only here/, 'this test logs it on purpose');
    await page.setContent(logsAnError('allowed only here'));
  });

  test.fail('allows only what it names', async ({ page }) => {
    await page.setContent(logsAnError('expected by this test') + logsAnError('but not this one'));
  });
});
