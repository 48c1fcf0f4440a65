// Unterm Baum: the colours of a table's name chip (unterm_baum.js).

// A player's colour as a name chip with text at WCAG AA contrast (4.5:1): dark text on a light
// colour, white on a dark one, and a mid-tone colour darkened until white reads on it.
const luminance = (rgb) => {
  const lin = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(rgb[0] / 255) + 0.7152 * lin(rgb[1] / 255) + 0.0722 * lin(rgb[2] / 255);
};
const inkRgb = [0x1d, 0x2a, 0x24];
export function chipColours(hex) {
  let rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const onWhite = (l) => 1.05 / (l + 0.05);
  const onInk = (l) => (l + 0.05) / (luminance(inkRgb) + 0.05);
  if (onInk(luminance(rgb)) >= 4.5 && onInk(luminance(rgb)) > onWhite(luminance(rgb))) return { bg: hex, fg: '#1d2a24' };
  while (onWhite(luminance(rgb)) < 4.6) rgb = rgb.map((v) => Math.round(v * 0.9));
  return { bg: `rgb(${rgb.join(',')})`, fg: '#fff' };
}
