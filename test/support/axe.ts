// axe-core in the page: WCAG 2.1 A/AA rules on the widget's element (axe walks its open shadow root),
// or on what `include` names (the owner view: its whole document).
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource: string = (require('axe-core') as { source: string }).source;

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: unknown[];
}

export async function axeViolations(page: Page, include: string[][] = [['dialback-widget']]): Promise<Violation[]> {
  // Evaluated, not added as a <script>: the owner view's CSP (rightly) refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (include) => {
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }> }> };
      }
    ).axe;
    const result = await axe.run({ include }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
  }, include);
}
