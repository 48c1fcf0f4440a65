// Things that move between two renders of the screen (docs/web-client.md, "Rendering and motion").
//
// The screen is morphed, not replaced (app.js, morphdom): an element that is in both the old and
// the new HTML at the same place stays the same element, so a CSS transition or animation on it
// runs when a class or a style changes (a card turning over, a die rolling). What moves from one
// place to another (a penguin to another floe, a card to another row, gifts from the tree to a
// sleigh) is a new element where it lands; for those the renderer plays a "FLIP": it measures every
// keyed element before the render and slides each one from where it was to where it is now.
//
//   data-flip="KEY"        a piece: if an element with the same key was on screen before, at
//                          another place, it slides from there (KEY unique on the screen).
//   data-flip-from="KEY"   a piece that was not there before and comes from the element that had
//                          data-flip="KEY" (the gifts that leave the tree for a sleigh).
//
// In SVG, put the key on an element without a transform attribute of its own (a <g> around the
// piece): the animation sets a CSS transform, which would replace that attribute meanwhile.
// A piece of an SVG drawing slides by how far it moved within the drawing, so a board that only
// shifts on the page (a panel above it grew) slides nothing.
//
// Every slide is short (280 ms), runs on the compositor, never delays input (the element is
// where it lands and takes clicks there), and none runs under prefers-reduced-motion.

export const duration = 280;

export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// Where an element is: on the screen, and for a piece of an SVG drawing also where it is within
// the drawing (so a board that only moves down the page, under a taller panel, slides nothing).
function place(el) {
  const r = el.getBoundingClientRect();
  const svg = el instanceof SVGElement ? el.ownerSVGElement : null;
  if (!svg) return r;
  const o = svg.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height, svg, inLeft: r.left - o.left, inTop: r.top - o.top };
}

// Where each keyed element of `root` is now, by key.
export function measure(root) {
  const at = new Map();
  if (reducedMotion()) return at;
  for (const el of root.querySelectorAll('[data-flip]')) {
    const r = place(el);
    if (r.width || r.height) at.set(el.dataset.flip, r);
  }
  return at;
}

// Slides every keyed element of `root` that `before` saw elsewhere from there to where it is.
export function play(root, before) {
  if (!before.size || reducedMotion()) return;
  for (const el of root.querySelectorAll('[data-flip], [data-flip-from]')) {
    const key = el.dataset.flip;
    const stayed = key !== undefined && before.has(key);
    const from = stayed ? before.get(key) : before.get(el.dataset.flipFrom);
    if (!from) continue;
    const to = place(el);
    if (!to.width && !to.height) continue;
    const inside = from.svg !== undefined && from.svg === to.svg; // the same drawing element, before and after
    let dx = inside ? from.inLeft + from.width / 2 - (to.inLeft + to.width / 2) : from.left + from.width / 2 - (to.left + to.width / 2);
    let dy = inside ? from.inTop + from.height / 2 - (to.inTop + to.height / 2) : from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    // A CSS translate on an SVG element is in the drawing's units, not the screen's.
    const ctm = el instanceof SVGElement && el.ownerSVGElement ? el.ownerSVGElement.getScreenCTM() : null;
    if (ctm && ctm.a && ctm.d) {
      dx /= ctm.a;
      dy /= ctm.d;
    }
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }],
      { duration, easing: 'cubic-bezier(.2, .7, .3, 1)' });
  }
}
