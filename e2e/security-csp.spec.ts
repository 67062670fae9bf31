import { test, expect, unique, BASE, apiAs, signIn } from './fixtures.ts';
import { seedEveryScreen } from './every-screen.ts';

// Our CSP allows no eval. Zod probes for it (new Function) unless told to be jitless: every page
// then filed a script-src violation although nothing broke. No page of SPEC §2 may report one.

test('no page reports a Content-Security-Policy violation', async ({
  page,
  request,
  allowConsoleError,
}) => {
  test.setTimeout(180_000);
  allowConsoleError(
    /\/no-such-page: Failed to load resource: .*\b404\b/,
    'the not-found page is answered with a 404 status, which Chromium logs',
  );
  const name = unique('CSP coach');
  const me = await apiAs(request, name);
  await signIn(page, name);

  const { screens } = await seedEveryScreen(me);

  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const consoleCsp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleCsp.push(m.text());
  });

  const reports: string[] = [];
  for (const [path, ready] of screens) {
    await page.goto(`${BASE}${path}`);
    await expect(page.getByText(ready).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const seen = await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    );
    for (const v of seen) reports.push(`${path}: ${v}`);
  }
  console.log(`CSP violations over ${screens.length} pages: ${reports.length}`);
  expect(reports).toEqual([]);
  expect(consoleCsp).toEqual([]);
});
