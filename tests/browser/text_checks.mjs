// Checks on the words of a page that more than one browser test uses (issue 31).

// The words on the page (under `selector`) that the browser broke across two lines in the
// middle ("Weihnacht / smann"). A word may still break where its text allows it: after a hyphen,
// a soft hyphen or a slash. Text that is not drawn (hidden, SVG, a visually hidden label of a
// pixel's width) is left out. Returns "word (in its element's text)" for each broken word.
export function brokenWords(page, selector = '#screen') {
  return page.evaluate((sel) => {
    const out = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest('svg') || !node.textContent.trim()) continue;
        const box = el.getBoundingClientRect();
        if (box.width <= 4 || box.height <= 4) continue;
        const text = node.textContent;
        // Each piece between spaces and allowed breaks must lie on one line.
        for (const m of text.matchAll(/[^\s\u00AD/-]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
          if (tops.length > 1 && Math.max(...tops) - Math.min(...tops) > 2) out.push(`${m[0]} (in "${text.trim().slice(0, 80)}")`);
        }
      }
    }
    return out;
  }, selector);
}
