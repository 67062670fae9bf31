import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * What AxeBuilder evaluates in place of axe-core's source when the document already holds axe
 * from an earlier check: the 0.6 MB source is compiled again at every evaluation, the largest
 * part of a check after the first on a document (a second theme on the same page load).
 */
const AXE_ALREADY_IN_DOCUMENT = 'void 0';

/**
 * No serious or critical axe-core violation on the page as it is now. `contrastOnly` checks
 * colour contrast alone: a theme changes colours, not the document, so the other rules would
 * only repeat what the page's light-theme check found.
 *
 * axe runs in the page's own frames with axe.run (AxeBuilder's legacy mode), not in parts
 * finished in a blank tab that the default mode opens for each check, and sends axe's source
 * into too: that mode is for frames of another origin, which it alone can check. Our pages have
 * none (the CSP allows only Google's sign-in, not configured in the tests); over the 23 screens
 * of the accessibility walk both modes found the same violations, the legacy one in half the
 * time.
 */
export async function expectNoSeriousViolations(
  page: Page,
  label: string,
  { contrastOnly = false } = {},
): Promise<void> {
  const reuse =
    page.frames().length === 1 && (await page.evaluate(() => !!(window as { axe?: unknown }).axe));
  // Only violations are read: axe then details no passing or inapplicable node, most of its
  // work on a full page.
  const axe = new AxeBuilder({ page, axeSource: reuse ? AXE_ALREADY_IN_DOCUMENT : undefined })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] });
  const results = await (
    contrastOnly ? axe.withRules(['color-contrast']) : axe.withTags(TAGS)
  ).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(report, `${label}\n${report.join('\n')}`).toEqual([]);
}
