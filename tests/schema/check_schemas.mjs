// Checks protocol/schema with an independent validator (Ajv, JSON Schema draft 2020-12, strict
// mode) and holds docs/protocol.md and protocol/asyncapi.yaml to it:
//
// 1. every schema file compiles, and every $ref in it resolves;
// 2. every ```json block of docs/protocol.md is validated: by default each message in it (one
//    object per line, or one object over several lines) against client-message.json or
//    server-message.json; a `<!-- schema: games/…/view.json -->` comment before the block names
//    another schema, and `<!-- schema: skip -->` exempts a shortened illustration;
// 3. every line of the example transcript that is complete JSON is a valid message;
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
