// Checks protocol/schema with an independent validator (Ajv, JSON Schema draft 2020-12, strict
// mode) and holds docs/protocol.md and protocol/asyncapi.yaml to it:
//
// 1. every schema file compiles, and every $ref in it resolves;
// 2. every ```json block of docs/protocol.md is validated: by default each message in it (one
//    object per line, or one object over several lines) against client-message.json or
//    server-message.json; a `<!-- schema: games/…/view.json -->` comment before the block names
//    another schema, and `<!-- schema: skip -->` exempts a shortened illustration;
// 3. every line of the example transcript that is complete JSON is a valid message, and in every
//    shortened one each object without a `…` has every field its schema requires;
// 4. every $ref of protocol/asyncapi.yaml resolves, and every message schema is in it.
//
// Run from the repository root: node tests/schema/check_schemas.mjs
import fs from 'node:fs';
import path from 'node:path';
import { schemaFiles } from './schema_files.mjs';
import Ajv2020 from 'ajv/dist/2020.js';

const root = process.cwd();
const schemaDir = path.join(root, 'protocol/schema');
let failures = 0;
const fail = (what) => {
  failures += 1;
  console.error(`FAIL ${what}`);
};

// ---- 1. compile ----------------------------------------------------------------------------
const files = schemaFiles(schemaDir);

const ajv = new Ajv2020({ strict: true, allErrors: false });
const byPath = new Map();
let base = null;
for (const f of files) {
  const rel = path.relative(schemaDir, f).split(path.sep).join('/');
  const schema = JSON.parse(fs.readFileSync(f, 'utf8'));
  if (!schema.$id || !schema.$id.endsWith('/' + rel)) fail(`${rel}: $id ${schema.$id} does not end in its path`);
  const prefix = schema.$id.slice(0, schema.$id.length - rel.length);
  base ??= prefix;
  if (prefix !== base) fail(`${rel}: $id prefix ${prefix} differs from ${base}`);
  byPath.set(rel, schema);
  ajv.addSchema(schema);
}
for (const [rel, schema] of byPath) {
  try {
    ajv.getSchema(schema.$id);
  } catch (e) {
    fail(`${rel} does not compile: ${e.message}`);
  }
}
console.log(`compiled ${byPath.size} schemas under protocol/schema`);

const validator = (rel) => {
  const v = ajv.getSchema(base + rel);
  if (!v) throw new Error(`no schema ${rel}`);
  return v;
};
const clientMessage = validator('client-message.json');
const serverMessage = validator('server-message.json');
const explain = (v) => ajv.errorsText(v.errors, { separator: '; ' }).slice(0, 600);
// A message is valid if the union accepts it; errors are reported from the schema of its `type`
// (chat is both a request and a push), which says far more than the union's.
const checkMessage = (msg) => {
  if (clientMessage(msg) || serverMessage(msg)) return null;
  const candidates = ['client', 'server'].map((side) => `${side}/${msg?.type}.json`).filter((rel) => byPath.has(rel));
  if (candidates.length === 0) return `unknown message type ${JSON.stringify(msg?.type)}`;
  return candidates
    .map((rel) => {
      const v = validator(rel);
      v(msg);
      return `as ${rel}: ${explain(v)}`;
    })
    .join('\n    ');
};

// ---- 2. and 3. the documentation's examples ------------------------------------------------
const doc = fs.readFileSync(path.join(root, 'docs/protocol.md'), 'utf8');
const lines = doc.split('\n');
let checked = 0;
let skipped = 0;
for (let i = 0; i < lines.length; i++) {
  if (lines[i].trim() !== '```json') continue;
  const start = i + 1;
  let end = start;
  while (end < lines.length && lines[end].trim() !== '```') end++;
  const body = lines.slice(start, end).join('\n');
  let marker = null;
  for (let k = i - 1; k >= 0 && k >= i - 3; k--) {
    const m = lines[k].match(/<!--\s*schema:\s*(\S+)\s*-->/);
    if (m) {
      marker = m[1];
      break;
    }
  }
  const where = `docs/protocol.md:${start}`;
  i = end;
  if (marker === 'skip') {
    skipped++;
    continue;
  }
  if (body.includes('…') || body.includes('"..."')) {
    fail(`${where}: the example has placeholders; complete it or mark it <!-- schema: skip -->`);
    continue;
  }
  // One object over the whole block, or one object per line.
  let values;
  try {
    values = [JSON.parse(body)];
  } catch {
    try {
      values = body.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    } catch (e) {
      fail(`${where}: not JSON (${e.message})`);
      continue;
    }
  }
  for (const value of values) {
    checked++;
    if (marker) {
      const v = validator(marker);
      if (!v(value)) fail(`${where}: does not match ${marker}: ${explain(v)}`);
    } else {
      const why = checkMessage(value);
      if (why) fail(`${where}: ${JSON.stringify(value).slice(0, 120)}\n    ${why}`);
    }
  }
}
// The example transcript: "Name → {...}" / "Name ← {...}" lines that are complete JSON.
let transcript = 0;
for (const [n, line] of lines.entries()) {
  const m = line.match(/^\s*\S+ [→←] (\{.*\})\s*(\(.*\))?$/);
  if (!m) continue;
  let value;
  try {
    value = JSON.parse(m[1]);
  } catch {
    continue;  // shortened with …
  }
  transcript++;
  const why = checkMessage(value);
  if (why) fail(`docs/protocol.md:${n + 1}: transcript line ${why}`);
}
console.log(`docs/protocol.md: ${checked} examples validated, ${skipped} marked as shortened, ` +
            `${transcript} complete transcript lines validated`);

// ---- 3b. shortened transcript messages: every left-out required field is marked ------------
// A message of the transcript that is shortened with `…` is read with `…` as a marker: an object
// that holds a `…` among its members is marked as shortened; any other object must have every
// field its schema requires (a required field left out without a `…` would teach a client
// reading the transcript that the field may be missing). Messages may span lines and one line
// may hold two; a parenthesized comment after a `…` inside a message is skipped.
const ELIDED = Symbol('elided');
function parseLoose(text, at) {
  let i = at;
  const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  const ellipsis = () => {
    ws();
    if (text[i] !== '…') return false;
    i++;
    ws();
    if (text[i] === '(') { // a comment inside the message
      let depth = 0;
      for (; i < text.length; i++) {
        if (text[i] === '(') depth++;
        else if (text[i] === ')' && --depth === 0) { i++; break; }
      }
    }
    return true;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = {};
      for (;;) {
        ws();
        if (ellipsis()) { obj[ELIDED] = true; continue; }
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return obj; }
        const key = value();
        if (typeof key !== 'string') throw new Error(`a key expected at ${i}`);
        ws();
        if (text[i] !== ':') throw new Error(`':' expected at ${i}`);
        i++;
        obj[key] = value();
      }
    }
    if (c === '[') {
      i++;
      const arr = [];
      for (;;) {
        ws();
        if (ellipsis()) { arr[ELIDED] = true; continue; }
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return arr; }
        arr.push(value());
      }
    }
    if (c === '…') { i++; return ELIDED; }
    const m = text.slice(i).match(/^("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/);
    if (!m) throw new Error(`a value expected at ${i}: ${text.slice(i, i + 20)}`);
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const v = value();
  return { value: v, end: i };
}

const schemaById = new Map([...byPath.values()].map((sch) => [sch.$id, sch]));
// A $ref from a schema with id `baseId`: the schema it names.
function deref(ref, baseId) {
  const url = new URL(ref, baseId);
  const fileId = url.href.replace(/#.*$/, '');
  let node = schemaById.get(fileId);
  if (!node) throw new Error(`unresolved $ref ${ref} from ${baseId}`);
  for (const part of (url.hash.replace(/^#/, '') || '').split('/').filter(Boolean)) node = node[decodeURIComponent(part)];
  return { node, id: fileId };
}
const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);
const typeFits = (t, v) => t === undefined || (Array.isArray(t) ? t : [t]).some((x) => x === typeOf(v) || (x === 'number' && typeOf(v) === 'integer'));
// Whether the value may be an instance of the (resolved) schema, judged by its type and the
// `const` of its properties: enough to pick a branch of oneOf/anyOf and to decide an `if`.
// A left-out field rules a branch out only for an `if` (`strict`): in a shortened message it may
// be one of the fields left out.
function fits(node, id, v, ctx, strict = false) {
  if (node.$ref) { const r = deref(node.$ref, id); if (!fits(r.node, r.id, v, ctx, strict)) return false; }
  if (!typeFits(node.type, v)) return false;
  if ('const' in node && v !== ELIDED && JSON.stringify(node.const) !== JSON.stringify(v)) return false;
  if (v && typeof v === 'object' && !Array.isArray(v) && node.properties) {
    for (const [k, sub] of Object.entries(node.properties)) {
      if (!(k in v)) {
        if (k === 'game' && sub.const !== undefined && ctx.game) { if (sub.const !== ctx.game) return false; continue; }
        if (k === 'view' && ctx.game && sub.properties?.game?.const !== undefined) { if (sub.properties.game.const !== ctx.game) return false; continue; }
        if (strict && (node.required ?? []).includes(k)) return false;
        continue;
      }
      if (!fits(sub, id, v[k], ctx, strict)) return false;
    }
  }
  for (const key of ['oneOf', 'anyOf']) if (node[key] && !node[key].some((b) => fits(b, id, v, ctx, strict))) return false;
  return true;
}
// The schemas that apply to v at this node: [{node, id}], through $ref, allOf, the fitting
// branches of oneOf/anyOf (all of them: a required field counts only if every one requires it)
// and the `then` of an `if` that holds.
function applicable(node, id, v, ctx) {
  if (node === true || node === undefined) return [[]];
  const here = [{ node, id }];
  let alternatives = [here];
  const join = (more) => { alternatives = alternatives.flatMap((a) => more.map((b) => [...a, ...b])); };
  if (node.$ref) { const r = deref(node.$ref, id); join(applicable(r.node, r.id, v, ctx)); }
  for (const sub of node.allOf ?? []) join(applicable(sub, id, v, ctx));
  if (node.if && fits(node.if, id, v, ctx, true) && node.then) join(applicable(node.then, id, v, ctx));
  for (const key of ['oneOf', 'anyOf']) {
    if (!node[key]) continue;
    const fitting = node[key].filter((b) => fits(b, id, v, ctx));
    if (fitting.length) alternatives = alternatives.flatMap((a) => fitting.flatMap((b) => applicable(b, id, v, ctx).map((x) => [...a, ...x])));
  }
  return alternatives;
}
// `schemas`: [{node, id}], every schema that applies to v (as allOf).
function missingRequired(schemas, v, ctx, where, out) {
  if (v === null || typeof v !== 'object' || v === ELIDED) return;
  let alternatives = [[]];
  for (const { node, id } of schemas) {
    const mine = applicable(node, id, v, ctx);
    alternatives = alternatives.flatMap((a) => mine.map((b) => [...a, ...b]));
  }
  if (!Array.isArray(v) && !v[ELIDED]) {
    // Required in every alternative that fits.
    const sets = alternatives.map((alt) => new Set(alt.flatMap(({ node: n }) => n.required ?? [])));
    const required = sets.length ? [...sets[0]].filter((k) => sets.every((set) => set.has(k))) : [];
    for (const k of required) if (!(k in v)) out.push(`${where || '/'}: "${k}" left out without a "…"`);
  }
  // Children: every schema that the first alternative naming it gives the property or item.
  const entries = Array.isArray(v) ? v.map((x, k) => [k, x]) : Object.entries(v);
  for (const [k, child] of entries) {
    let subs = [];
    for (const alt of alternatives) {
      for (const { node: n, id: nid } of alt) {
        const sub = Array.isArray(v) ? n.items ?? n.prefixItems?.[k] : n.properties?.[k] ?? n.additionalProperties;
        if (sub && typeof sub === 'object') subs.push({ node: sub, id: nid });
      }
      if (subs.length) break;
    }
    if (subs.length) missingRequired(subs, child, ctx, `${where}/${k}`, out);
  }
}

let shortened = 0;
{
  const at = doc.indexOf('## Example transcript');
  const games = { 'Happy Holidays transcript': 'happy_holidays', 'Unterm Baum transcript': 'unterm_baum', 'Christmas Penguins transcript': 'christmas_penguins' };
  let game = null;
  let inBlock = false;
  const tlines = doc.slice(at).split('\n');
  const firstLine = doc.slice(0, at).split('\n').length;
  for (let n = 0; n < tlines.length; n++) {
    const heading = tlines[n].match(/^### (.*)$/);
    if (heading) game = games[heading[1]] ?? null;
    if (tlines[n].startsWith('```')) { inBlock = !inBlock; continue; }
    if (!inBlock) continue;
    const rest = tlines.slice(n).join('\n');
    const arrow = /(\S+) ([→←]) (?=\{)/g;
    let m;
    const lineEnd = tlines[n].length;
    while ((m = arrow.exec(rest)) && m.index < lineEnd) {
      let parsed;
      try {
        parsed = parseLoose(rest, m.index + m[0].length);
      } catch (e) {
        fail(`docs/protocol.md:${firstLine + n}: transcript message not readable: ${e.message}`);
        break;
      }
      arrow.lastIndex = parsed.end;
      const msg = parsed.value;
      const side = m[2] === '→' ? 'client' : 'server';
      const rel = `${side}/${msg.type}.json`;
      if (!byPath.has(rel)) { fail(`docs/protocol.md:${firstLine + n}: no schema ${rel}`); continue; }
      shortened++;
      const out = [];
      missingRequired([{ node: byPath.get(rel), id: byPath.get(rel).$id }], msg, { game }, '', out);
      for (const o of out) fail(`docs/protocol.md:${firstLine + n}: ${msg.type} ${o}`);
    }
  }
}
console.log(`docs/protocol.md: ${shortened} transcript messages checked for fields left out without a "…"`);
if (checked < 10) fail('docs/protocol.md: fewer than 10 validated examples; was the format changed?');

// ---- 4. AsyncAPI ---------------------------------------------------------------------------
const asyncapiPath = path.join(root, 'protocol/asyncapi.yaml');
const asyncapi = fs.readFileSync(asyncapiPath, 'utf8');
if (!/^asyncapi:\s*['"]?3\.\d+\.\d+/m.test(asyncapi)) fail('protocol/asyncapi.yaml: not an AsyncAPI 3.x document');
const referenced = new Set();
let refs = 0;
for (const m of asyncapi.matchAll(/\$ref:\s*['"]?([^'"\s]+)['"]?/g)) {
  refs++;
  const ref = m[1];
  const [file, fragment = ''] = ref.split('#');
  if (file === '') {
    // A reference inside the document: each segment must be a key at the right indentation.
    const segments = fragment.split('/').filter(Boolean);
    let indent = -1;
    let from = 0;
    const yamlLines = asyncapi.split('\n');
    for (const seg of segments) {
      const at = yamlLines.findIndex((l, k) => {
        if (k < from) return false;
        const mm = l.match(/^(\s*)([^\s:#'"]+|'[^']*'|"[^"]*"):/);
        return mm && mm[1].length > indent && mm[2].replace(/^['"]|['"]$/g, '') === seg;
      });
      if (at < 0) {
        fail(`protocol/asyncapi.yaml: $ref ${ref} does not resolve (no ${seg})`);
        break;
      }
      indent = yamlLines[at].match(/^(\s*)/)[1].length;
      from = at + 1;
    }
    continue;
  }
  const target = path.resolve(path.dirname(asyncapiPath), file);
  const rel = path.relative(schemaDir, target).split(path.sep).join('/');
  const schema = byPath.get(rel);
  if (!schema) {
    fail(`protocol/asyncapi.yaml: $ref ${ref} names no schema file`);
    continue;
  }
  referenced.add(rel);
  if (fragment) {
    let node = schema;
    for (const seg of fragment.split('/').filter(Boolean)) node = node?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) fail(`protocol/asyncapi.yaml: $ref ${ref}: ${fragment} not found`);
  }
}
for (const rel of byPath.keys())
  if (/^(client|server)\//.test(rel) && !referenced.has(rel)) fail(`protocol/asyncapi.yaml does not reference ${rel}`);
console.log(`protocol/asyncapi.yaml: ${refs} $refs resolved`);

if (failures) {
  console.error(`${failures} failure(s)`);
  process.exit(1);
}
console.log('all schema checks passed');
