import type { Page } from 'playwright-core';

/**
 * Collects every Content-Security-Policy violation the page reports (the DOM event and the console
 * message) into the returned list, from the next navigation on.
 */
export async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  // Browser-side code as text: the server's TypeScript has no DOM types.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) =>
      window.reportViolation(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));`,
  });
  return violations;
}
