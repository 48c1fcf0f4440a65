#!/usr/bin/env node
// The browser client's modules import each other without a circle: the static `import … from`
// statements of every module under clients/web/js (and clients/js, the library the page imports
// from /lib/) make a graph with no cycle. A circle makes the order in which modules run depend on
// which one a page happens to load first (a module may read another's export before it exists).
// Dynamic `import()` (a board, a rules sheet) is loading on demand, not part of the graph.
//
//   node tests/browser/import_graph.test.mjs
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Where the server serves each folder (server: --web-root and --lib-root).
const served = [
  { dir: join(root, 'clients/web'), at: '/' },
  { dir: join(root, 'clients/js'), at: '/lib/' },
];

function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules') return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? modules(path) : e.name.endsWith('.js') ? [path] : [];
  });
}

// The module a specifier names, as the browser resolves it: relative to the importing file, or an
// absolute path on the server ('/lib/index.js'); null for anything else (a bare package name).
function target(from, spec) {
  if (spec.startsWith('.')) return resolve(dirname(from), spec);
  for (const { dir, at } of served.slice().reverse()) {
    if (spec.startsWith(at)) return join(dir, spec.slice(at.length));
  }
  return null;
}

// Static imports and re-exports: `import x from '…'`, `import { a } from '…'`, `import '…'`,
// `export { a } from '…'`, `export * from '…'`. Comments are removed first; `import(` is not matched.
function importsOf(file) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const re = /^\s*(?:import|export)\s+(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/gm;
  return [...text.matchAll(re)].map((m) => target(file, m[1])).filter(Boolean);
}

const files = served.flatMap(({ dir }) => modules(dir));
const graph = new Map(files.map((f) => [f, importsOf(f)]));

// Depth-first search; a module met again while it is still on the path closes a circle.
function findCycle() {
  const state = new Map(); // file → 'open' | 'done'
  const path = [];
  const visit = (f) => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const g of graph.get(f) || []) {
      const cycle = visit(g);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of files) {
    const cycle = visit(f);
    if (cycle) return cycle;
  }
  return null;
}

// The check can fail: a made-up circle is found.
{
  const saved = new Map(graph);
  const [a, b] = files;
  graph.set(a, [b]);
  graph.set(b, [a]);
  assert.ok(findCycle(), 'a circle of two modules is found');
  graph.clear();
  for (const [k, v] of saved) graph.set(k, v);
}

assert.ok(files.some((f) => f.endsWith('clients/web/js/app.js')), 'the client modules are found');
assert.ok((graph.get(join(root, 'clients/web/js/app.js')) || []).length > 5, 'the imports of app.js are read');
for (const [file, deps] of graph) {
  for (const d of deps) assert.ok(graph.has(d), `${relative(root, file)} imports ${relative(root, d)}, which exists`);
}
const cycle = findCycle();
assert.equal(cycle, null, `an import circle: ${(cycle || []).map((f) => relative(root, f)).join(' -> ')}`);
console.log(`ok: ${files.length} modules, ${[...graph.values()].reduce((n, d) => n + d.length, 0)} imports, no circle`);
