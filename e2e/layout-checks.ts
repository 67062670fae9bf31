import type { Page } from '@playwright/test';

// Two checks a person made by eye on a phone, made by the walk of every screen instead:
// - an icon control (a button or link drawn as an icon alone, such as the rename pencil) has a
//   contrast of at least 3:1 against what is behind it (WCAG 1.4.11); axe checks text only;
// - a control named by one word ("Sideline", "View", "Edit") is drawn on one line and whole:
//   not broken over two lines, not cut off by the screen or by a box that clips it; a group's
//   badge is not cut off either.

/** Both checks run in the page: one script, the same helpers. */
function inPage([kind, headers]: ['icons' | 'words', string[]]) {
  const CONTROLS = 'button, a[href], [role="button"], [role="tab"], summary, label.btn';
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  type Rgba = [number, number, number, number];
  // Any CSS colour (rgb, color(srgb …), oklch, color-mix) as the browser paints it.
  const rgba = (css: string): Rgba => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
  const over = (top: Rgba, under: Rgba): Rgba => {
    const a = top[3];
    return [
      top[0] * a + under[0] * (1 - a),
      top[1] * a + under[1] * (1 - a),
      top[2] * a + under[2] * (1 - a),
      1,
    ];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const lin = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a: Rgba, b: Rgba) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };
  const show = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(',')})`;
  /** What is painted behind an element: its own and its ancestors' backgrounds, blended. */
  const backdrop = (el: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const bg = rgba(getComputedStyle(e).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let base: Rgba = [255, 255, 255, 1];
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const describe = (el: Element) => {
    const name =
      el.getAttribute('aria-label') ??
      el.getAttribute('title') ??
      (el.textContent ?? '').trim().slice(0, 40);
    const cls = el.getAttribute('class');
    return `<${el.tagName.toLowerCase()}${cls ? ` class="${cls}"` : ''}> "${name}"`;
  };
  /** The text a sighted reader sees: text nodes drawn larger than a visually-hidden label. */
  const visibleText = (el: Element) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n as Text;
      if (!t.data.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      const r = range.getBoundingClientRect();
      if (r.width > 1 && r.height > 1) nodes.push(t);
    }
    return nodes;
  };
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return (
      r.width > 1 &&
      r.height > 1 &&
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    );
  };
  const controls = [...document.querySelectorAll(CONTROLS)].filter(shown);
  const problems: string[] = [];

  if (kind === 'icons') {
    for (const el of controls) {
      if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') {
        continue;
      }
      const text = visibleText(el)
        .map((t) => t.data)
        .join('')
        .trim();
      if (/[\p{L}\p{N}]/u.test(text)) continue; // a word, checked by axe as text
      const behind = backdrop(el);
      const svg = [...el.querySelectorAll('svg')].find(shown);
      let ink: Rgba | null = null;
      if (svg) {
        const shape = svg.querySelector('path, circle, rect, line, polyline, polygon, ellipse');
        if (!shape) continue;
        const style = getComputedStyle(shape);
        const stroke = style.stroke !== 'none' && parseFloat(style.strokeWidth) > 0;
        ink = rgba(stroke ? style.stroke : style.fill);
      } else if (text) {
        // A symbol drawn as text (×, ✎, ★).
        const holder = visibleText(el)[0]!.parentElement!;
        ink = rgba(getComputedStyle(holder).color);
      }
      if (!ink || ink[3] === 0) continue;
      const ratio = contrast(over(ink, behind), behind);
      if (ratio < 3) {
        problems.push(
          `${describe(el)}: icon ${show(over(ink, behind))} on ${show(behind)} is ${ratio.toFixed(2)}:1`,
        );
      }
    }
    return problems;
  }

  // Column headers the screen is for (the Plays of a play count) count as one-word controls.
  const columns = [...document.querySelectorAll('thead th')].filter(
    (th) => shown(th) && headers.includes((th.textContent ?? '').trim()),
  );
  // A group's badge may wrap over lines, but is never cut off.
  const badges = new Set([...document.querySelectorAll('.badge')].filter(shown));
  for (const el of [...controls, ...columns, ...badges]) {
    const texts = visibleText(el);
    if (!texts.length) continue;
    const word = texts
      .map((t) => t.data.trim())
      .join(' ')
      .trim();
    // One word with two letters at least; a link that shows its address is not a word.
    const oneWord = !/\s/u.test(word) && /\p{L}\p{L}/u.test(word) && !/^\w+:\/\//.test(word);
    if (!oneWord && !badges.has(el)) continue;
    const range = document.createRange();
    range.setStartBefore(texts[0]!);
    range.setEndAfter(texts[texts.length - 1]!);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const lines = new Set(rects.map((r) => Math.round(r.bottom / 4)));
    if (oneWord && lines.size > 1) {
      problems.push(`${describe(el)} is broken over ${lines.size} lines`);
      continue;
    }
    const box = range.getBoundingClientRect();
    // The screen clips sideways; every box on the way up that does not show overflow clips
    // too (a box that scrolls only up and down clips sideways alone).
    let left = 0;
    let right = document.documentElement.clientWidth;
    let top = -Infinity;
    let bottom = Infinity;
    for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      const r = e.getBoundingClientRect();
      const innerLeft = r.left + e.clientLeft;
      if (s.overflowX !== 'visible') {
        left = Math.max(left, innerLeft);
        right = Math.min(right, innerLeft + e.clientWidth);
      }
      if (s.overflowY === 'hidden' || s.overflowY === 'clip') {
        top = Math.max(top, r.top + e.clientTop);
        bottom = Math.min(bottom, r.top + e.clientTop + e.clientHeight);
      }
    }
    const tolerance = 1;
    if (
      box.left < left - tolerance ||
      box.right > right + tolerance ||
      box.top < top - tolerance ||
      box.bottom > bottom + tolerance
    ) {
      problems.push(
        `${describe(el)} is cut off: drawn at ${Math.round(box.left)}–${Math.round(box.right)} px, ` +
          `shown ${Math.round(left)}–${Math.round(right)} px`,
      );
    }
  }
  return problems;
}

/** Icon controls on the page as it is now with less than 3:1 against what is behind them. */
export function iconContrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(inPage, ['icons', []] as ['icons', string[]]);
}

/**
 * One-word controls broken over two lines or cut off, at each phone width, and so are the
 * column headers named (the column a screen is for must not start off the screen). The page is
 * resized, not reloaded: the walk's one page load serves every width.
 */
export async function brokenWordProblems(
  page: Page,
  headers: string[] = [],
  widths: readonly number[] = [390, 320],
): Promise<string[]> {
  const before = page.viewportSize();
  const problems: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 844 });
    // Layout that follows the width through script (a media query listener) has its frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    const found = await page.evaluate(inPage, ['words', headers] as ['words', string[]]);
    for (const p of found) problems.push(`${width} px: ${p}`);
  }
  if (before) await page.setViewportSize(before);
  return problems;
}
