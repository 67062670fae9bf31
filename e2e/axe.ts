import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * No serious or critical axe-core violation on the page as it is now. `contrastOnly` checks
 * colour contrast alone: a theme changes colours, not the document, so the other rules would
 * only repeat what the page's light-theme check found.
 */
export async function expectNoSeriousViolations(
  page: Page,
  label: string,
  { contrastOnly = false } = {},
): Promise<void> {
  // Only violations are read: axe then details no passing or inapplicable node, most of its
  // work on a full page.
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
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
