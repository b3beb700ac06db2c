import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * A reviewer's look at the screen the browser shows, at a 1366×900 laptop and a 390×844 phone:
 * - axe-core checks it against WCAG 2.1 A/AA; a serious or critical violation is a finding;
 * - the page must not scroll sideways (its content fits the window's width);
 * - no button, badge, tab or heading is cut off: its text fits its box (and the boxes inside it, such as a
 *   button's label: Mantine clips those, sometimes with an ellipsis, 'DELIV…'), and no clipping or
 *   sideways-scrolling container and no window edge hides part of it;
 * - a full-page screenshot goes to apps/e2e/test-results/screens/ (not committed), named by screen and size.
 * Findings are collected, not thrown, so that one run lists every problem.
 */

const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

interface Finding {
  screen: string;
  size: string;
  problem: string;
  /** Findings with the same key on one screen and size are one (the same cut badge on two rows). */
  key: string;
}

/** One thing drawn cut off, as the browser measured it. */
interface CutOff {
  kind: string;
  text: string;
  how: string;
}

/**
 * Runs in the page: every visible button, badge, tab and heading whose text does not fit its box, or that a
 * container or the window's edge cuts off sideways. Self-contained (Playwright sends its source).
 */
function findCutOffElements(): CutOff[] {
  const WHAT = 'button, [role="button"], [role="tab"], [role="menuitem"], .mantine-Button-root, .mantine-Badge-root, h1, h2, h3, h4, h5, h6';
  // Sub-pixel rounding of scrollWidth and of rectangles is not a cut.
  const SLACK = 1;
  const found: CutOff[] = [];
  const kindOf = (el: Element) =>
    /^H[1-6]$/.test(el.tagName)
      ? 'heading'
      : el.classList.contains('mantine-Badge-root')
        ? 'badge'
        : el.getAttribute('role') === 'tab'
          ? 'tab'
          : 'button';
  const textOf = (el: HTMLElement) => (el.innerText || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 80);

  /** Why the text of `el` does not fit, or null: the element or a box inside it is narrower than its content. */
  const textOverflow = (el: HTMLElement): string | null => {
    for (const box of [el, ...Array.from(el.querySelectorAll<HTMLElement>('*'))]) {
      if (!(box instanceof HTMLElement)) continue; // icons (SVG) have no scroll box
      const style = getComputedStyle(box);
      if (style.display === 'inline' || style.display === 'contents' || style.display === 'none') continue;
      if (box.scrollWidth > box.clientWidth + SLACK) {
        const by = box.scrollWidth - box.clientWidth;
        return style.textOverflow === 'ellipsis' ? `truncated with an ellipsis (${by} px hidden)` : `text ${by} px wider than its box`;
      }
    }
    return null;
  };

  /** Why part of `el` is hidden sideways by a container that clips or scrolls, or by the window's edge. */
  const clipped = (el: HTMLElement, rect: DOMRect): string | null => {
    for (let box = el.parentElement; box && box !== document.body && box !== document.documentElement; box = box.parentElement) {
      const overflowX = getComputedStyle(box).overflowX;
      if (overflowX === 'visible') continue;
      const outer = box.getBoundingClientRect();
      if (rect.left < outer.left - SLACK || rect.right > outer.right + SLACK) {
        return overflowX === 'hidden' || overflowX === 'clip' ? 'cut off by a container that clips it' : 'partly hidden in a container that scrolls sideways';
      }
    }
    // Wholly outside the window is how some things hide on purpose (a skip link before it is focused).
    const partlyOut = (rect.left < -SLACK || rect.right > window.innerWidth + SLACK) && rect.right > 0 && rect.left < window.innerWidth;
    return partlyOut ? 'partly outside the window' : null;
  };

  // The header has a fixed height: what wraps onto a second row spills over the page below it.
  for (const header of Array.from(document.querySelectorAll<HTMLElement>('header'))) {
    if (header.scrollHeight > header.clientHeight + SLACK) {
      found.push({ kind: 'header', text: textOf(header), how: `content ${header.scrollHeight - header.clientHeight} px taller than the header (it wraps over the page)` });
    }
  }
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(WHAT))) {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const rect = el.getBoundingClientRect();
    // Visually hidden text (a 1 px box for screen readers) is not drawn.
    if (rect.width <= 1 || rect.height <= 1) continue;
    const how = textOverflow(el) ?? clipped(el, rect);
    if (how) found.push({ kind: kindOf(el), text: textOf(el), how });
  }
  return found;
}

export class ScreenReview {
  private readonly findings: Finding[] = [];
  private shot = 0;

  constructor(
    private readonly page: Page,
    private readonly screensDir: string,
  ) {
    mkdirSync(screensDir, { recursive: true });
  }

  /**
   * Checks and photographs the screen now open, at both sizes; `ready` is visible once it has drawn. `open`
   * shows what the screen shows only after a click (a menu), again at each size (the layout may change).
   */
  async review(screen: string, ready: (p: Page) => Locator, open?: (p: Page) => Promise<void>): Promise<void> {
    const { page } = this;
    this.shot += 1;
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      if (open) await open(page);
      await expect(ready(page)).toBeVisible();
      // No hover state left by the last click (it would be judged instead of the resting colours).
      if (!open) await page.mouse.move(0, 0);
      // Let transitions and late layout settle (fonts, images).
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(100);
      const found = (problem: string, key = problem) => this.add({ screen, size: size.name, problem, key });

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) found(`scrolls sideways by ${overflow} px`);

      for (const cut of await page.evaluate(findCutOffElements)) found(`${cut.kind} "${cut.text}": ${cut.how}`, `${cut.kind} "${cut.text}"`);

      // Only violations are reported back (passes and the rest would cost time and say nothing here).
      // Legacy mode: one axe.run in the page. The default (a partial run per frame, then the results put
      // together in a new tab) takes about twice as long, and the app has no frame that axe could enter.
      const result = await new AxeBuilder({ page })
        .setLegacyMode()
        // A frame that may run no script (the e-mail preview's) cannot take axe: waiting for it would hang.
        .exclude('iframe[sandbox]:not([sandbox~="allow-scripts"])')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .options({ resultTypes: ['violations'] })
        .analyze();
      for (const violation of result.violations) {
        if (!BLOCKING_IMPACTS.has(violation.impact ?? '')) continue;
        const where = violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ')})` : ''}`)
          .join('; ');
        found(`${violation.impact} ${violation.id}: ${violation.help} — ${where}`);
      }

      const file = `${String(this.shot).padStart(2, '0')}-${screen}-${size.name}.png`;
      await page.screenshot({ path: join(this.screensDir, file), fullPage: true, animations: 'disabled' });
    }
    await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
  }

  /** Every finding so far, one a line: "screen (size): problem". */
  list(): string[] {
    return this.findings.map((f) => `${f.screen} (${f.size}): ${f.problem}`);
  }

  private add(finding: Finding): void {
    if (this.findings.some((f) => f.screen === finding.screen && f.size === finding.size && f.key === finding.key)) return;
    this.findings.push(finding);
  }
}
