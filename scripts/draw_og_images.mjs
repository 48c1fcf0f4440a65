// Draws the pictures a shared invite link shows in messaging apps (og:image): one per game and a
// generic one, 1200×630 PNG (many apps ignore SVG there). Plain shapes, antialiased by 4×4
// supersampling, written with a PNG encoder of a few lines over node:zlib: no outside tools.
//
// Run from the repository root: node scripts/draw_og_images.mjs (writes clients/web/og/*.png)
import { mkdirSync, writeFileSync } from 'node:fs';
import zlib from 'node:zlib';

const W = 1200;
const H = 630;
const S = 4; // subsamples per axis

// ---- shapes: an `inside(x, y)` test and a bounding box --------------------------------------
const circle = (cx, cy, r) => ({ box: [cx - r, cy - r, cx + r, cy + r], inside: (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r });
const ellipse = (cx, cy, rx, ry) => ({
  box: [cx - rx, cy - ry, cx + rx, cy + ry],
  inside: (x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1,
});
function rect(x0, y0, x1, y1, r = 0) {
  return {
    box: [x0, y0, x1, y1],
    inside: (x, y) => {
      if (x < x0 || x > x1 || y < y0 || y > y1) return false;
      const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
      const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
      return dx * dx + dy * dy <= r * r;
    },
  };
}
function polygon(points) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return {
    box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    inside: (x, y) => {
      let inside = false;
      for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
        const [xi, yi] = points[i];
        const [xj, yj] = points[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    },
  };
}
const star = (cx, cy, r, inner = 0.45, n = 5) =>
  polygon(Array.from({ length: 2 * n }, (_, i) => {
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    const rr = i % 2 ? r * inner : r;
    return [cx + rr * Math.cos(a), cy + rr * Math.sin(a)];
  }));
const hexagon = (cx, cy, r) =>
  polygon(Array.from({ length: 6 }, (_, i) => [cx + r * Math.cos((Math.PI / 3) * i + Math.PI / 6), cy + r * Math.sin((Math.PI / 3) * i + Math.PI / 6)]));

// ---- the canvas -------------------------------------------------------------------------------
function hex(c) {
  return [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16)];
}

function canvas(background) {
  const px = new Float32Array(W * H * 3);
  const bg = hex(background);
  for (let i = 0; i < W * H; i++) px.set(bg, i * 3);
  return {
    px,
    fill(shape, colour, alpha = 1) {
      const c = hex(colour);
      const [bx0, by0, bx1, by1] = shape.box;
      for (let y = Math.max(0, Math.floor(by0)); y < Math.min(H, Math.ceil(by1) + 1); y++) {
        for (let x = Math.max(0, Math.floor(bx0)); x < Math.min(W, Math.ceil(bx1) + 1); x++) {
          let n = 0;
          for (let sy = 0; sy < S; sy++)
            for (let sx = 0; sx < S; sx++) if (shape.inside(x + (sx + 0.5) / S, y + (sy + 0.5) / S)) n++;
          if (!n) continue;
          const a = (alpha * n) / (S * S);
          const i = (y * W + x) * 3;
          for (let k = 0; k < 3; k++) px[i + k] = px[i + k] * (1 - a) + c[k] * a;
        }
      }
    },
  };
}

// ---- PNG --------------------------------------------------------------------------------------
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
function png(px) {
  // Each row filtered with "Sub" (the difference to the pixel on the left): flat colour compresses to nothing.
  const raw = Buffer.alloc(H * (1 + W * 3));
  for (let y = 0; y < H; y++) {
    const row = y * (1 + W * 3);
    raw[row] = 1;
    for (let x = 0; x < W * 3; x++) {
      const v = Math.round(Math.min(255, Math.max(0, px[y * W * 3 + x])));
      const left = x >= 3 ? Math.round(Math.min(255, Math.max(0, px[y * W * 3 + x - 3]))) : 0;
      raw[row + 1 + x] = (v - left) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- pieces -----------------------------------------------------------------------------------
const seat = ['#d62828', '#1d6fd6', '#2a9d3f', '#e0a100', '#8e44ad', '#e06c00'];

// The same snowflakes every time: a small fixed generator, not Math.random.
function snow(c, count, seed, maxY = H) {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < count; i++) c.fill(circle(next() * W, next() * maxY, 2 + next() * 4), '#ffffff', 0.35 + next() * 0.4);
}

function tree(c, cx, base, size) {
  c.fill(rect(cx - size * 0.09, base - size * 0.18, cx + size * 0.09, base + size * 0.02, 4), '#6b3e1f');
  const tiers = [[0, 0.62, 0.55], [0.3, 0.5, 0.5], [0.58, 0.36, 0.45]];
  for (const [lift, half, height] of tiers) {
    const y = base - size * 0.12 - size * lift;
    c.fill(polygon([[cx - size * half, y], [cx + size * half, y], [cx, y - size * height]]), '#2e8b47');
  }
  const baubles = [[-0.3, 0.2, 0], [0.22, 0.26, 3], [-0.08, 0.42, 1], [0.18, 0.56, 4], [-0.16, 0.7, 5], [0.05, 0.14, 2]];
  for (const [dx, up, k] of baubles) c.fill(circle(cx + size * dx, base - size * 0.12 - size * up, size * 0.045), seat[k]);
  c.fill(star(cx, base - size * 1.0, size * 0.12), '#f5c518');
}

function gift(c, x, y, w, h, colour, ribbon = '#f5c518') {
  c.fill(rect(x, y, x + w, y + h, 6), colour);
  c.fill(rect(x + w * 0.44, y, x + w * 0.56, y + h), ribbon);
  c.fill(rect(x, y + h * 0.4, x + w, y + h * 0.52), ribbon);
  c.fill(ellipse(x + w * 0.38, y - h * 0.06, w * 0.13, h * 0.09), ribbon);
  c.fill(ellipse(x + w * 0.62, y - h * 0.06, w * 0.13, h * 0.09), ribbon);
}

function penguin(c, cx, cy, s, scarf) {
  c.fill(ellipse(cx - s * 0.22, cy + s * 0.95, s * 0.22, s * 0.08), '#f08c00');
  c.fill(ellipse(cx + s * 0.22, cy + s * 0.95, s * 0.22, s * 0.08), '#f08c00');
  c.fill(ellipse(cx, cy + s * 0.25, s * 0.62, s * 0.75), '#1c1c28');
  c.fill(ellipse(cx, cy + s * 0.36, s * 0.44, s * 0.6), '#ffffff');
  c.fill(circle(cx, cy - s * 0.55, s * 0.42), '#1c1c28');
  c.fill(ellipse(cx, cy - s * 0.45, s * 0.28, s * 0.26), '#ffffff');
  c.fill(circle(cx - s * 0.12, cy - s * 0.6, s * 0.06), '#1c1c28');
  c.fill(circle(cx + s * 0.12, cy - s * 0.6, s * 0.06), '#1c1c28');
  c.fill(polygon([[cx - s * 0.1, cy - s * 0.44], [cx + s * 0.1, cy - s * 0.44], [cx, cy - s * 0.3]]), '#f08c00');
  c.fill(rect(cx - s * 0.42, cy - s * 0.2, cx + s * 0.42, cy - s * 0.08, 6), scarf);
  c.fill(rect(cx + s * 0.18, cy - s * 0.14, cx + s * 0.32, cy + s * 0.22, 5), scarf);
}

function sleigh(c, x, y, w) {
  const h = w * 0.32;
  c.fill(rect(x, y + h * 1.05, x + w * 1.05, y + h * 1.13, 6), '#8a8f99'); // runner
  c.fill(circle(x + w * 1.05, y + h * 0.95, h * 0.18), '#8a8f99');
  c.fill(rect(x + w * 0.15, y + h * 0.7, x + w * 0.2, y + h * 1.08), '#8a8f99');
  c.fill(rect(x + w * 0.8, y + h * 0.7, x + w * 0.85, y + h * 1.08), '#8a8f99');
  c.fill(rect(x, y, x + w, y + h * 0.8, 24), '#c1121f');
  c.fill(rect(x + w * 0.05, y + h * 0.12, x + w * 0.95, y + h * 0.2, 4), '#f5c518');
}

// ---- the pictures -----------------------------------------------------------------------------
const pictures = {
  tinsel() {
    const c = canvas('#17402b');
    snow(c, 140, 7);
    c.fill(ellipse(600, 700, 900, 170), '#f4f7fb');
    tree(c, 600, 560, 430);
    gift(c, 330, 470, 120, 90, seat[0]);
    gift(c, 760, 490, 100, 75, seat[1]);
    gift(c, 870, 505, 70, 60, seat[3], '#ffffff');
    return c;
  },
  happy_holidays() {
    const c = canvas('#1b3358');
    snow(c, 160, 11);
    c.fill(circle(1030, 120, 70), '#fdf3c4');
    c.fill(ellipse(600, 720, 900, 190), '#f4f7fb');
    const colours = [seat[0], seat[1], seat[2], seat[3], seat[4], seat[5]];
    // A stack of gifts on the sleigh.
    gift(c, 395, 300, 150, 110, colours[2]);
    gift(c, 555, 290, 160, 120, colours[1], '#ffffff');
    gift(c, 725, 320, 120, 90, colours[4]);
    gift(c, 450, 195, 120, 95, colours[3], '#c1121f');
    gift(c, 585, 170, 130, 110, colours[0]);
    gift(c, 630, 80, 90, 80, colours[5], '#ffffff');
    sleigh(c, 330, 400, 560);
    return c;
  },
  unterm_baum() {
    const c = canvas('#7a1d2a');
    snow(c, 90, 5, 380);
    c.fill(rect(0, 520, W, H), '#5a3a22');
    c.fill(rect(0, 512, W, 526), '#7b5334');
    tree(c, 600, 520, 400);
    const row = [[250, 420, 130, 100, 1], [395, 450, 100, 75, 3], [700, 445, 110, 80, 2], [825, 405, 140, 115, 4], [160, 470, 80, 55, 5], [980, 470, 90, 55, 0]];
    for (const [x, y, w, h, k] of row) gift(c, x, y, w, h, seat[k], k === 3 ? '#c1121f' : '#f5c518');
    return c;
  },
  christmas_penguins() {
    const c = canvas('#2d7fb8');
    // Ice floes on the sea, in a hex grid.
    const r = 92;
    for (let q = -1; q < 8; q++)
      for (let rr = -1; rr < 5; rr++) {
        const x = 60 + q * r * 1.74 + (rr % 2 ? r * 0.87 : 0);
        const y = 40 + rr * r * 1.5;
        if ((q * 7 + rr * 3) % 5 === 0) continue; // open water
        c.fill(hexagon(x, y, r * 0.92), '#eaf6fd');
        c.fill(hexagon(x, y - 6, r * 0.8), '#ffffff');
      }
    tree(c, 330, 380, 200);
    gift(c, 790, 420, 90, 70, seat[0]);
    gift(c, 880, 440, 70, 55, seat[3], '#c1121f');
    penguin(c, 600, 330, 150, seat[0]);
    penguin(c, 960, 200, 80, seat[1]);
    return c;
  },
};

mkdirSync('clients/web/og', { recursive: true });
for (const [name, draw] of Object.entries(pictures)) {
  const file = `clients/web/og/${name}.png`;
  const bytes = png(draw().px);
  writeFileSync(file, bytes);
  console.log(`${file} ${bytes.length} bytes`);
}
