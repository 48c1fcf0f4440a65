// Checks that every property in protocol/schema has a description (issue 15, "Every field
// documented"): a client developer reads the schema as the reference for each field.
//
// Every schema file is walked through properties, patternProperties, additionalProperties,
// items, prefixItems, contains, oneOf, anyOf, allOf, $defs, then, else and dependentSchemas;
// each property found there must be an object schema with a non-empty `description` string.
// `if` is not walked: its properties only select a branch and describe no field. Each missing
// description is reported by file and JSON pointer.
//
// Run from the repository root: node tests/schema/check_descriptions.mjs
import fs from 'node:fs';
import path from 'node:path';
import { schemaFiles } from './schema_files.mjs';

const schemaDir = path.join(process.cwd(), 'protocol/schema');
const files = schemaFiles(schemaDir);

const escape = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

const missing = [];
let properties = 0;

// Walks one subschema at `pointer` of `file`.
function walk(file, schema, pointer) {
  if (!isObject(schema)) return;
  for (const keyword of ['properties', 'patternProperties']) {
    if (!isObject(schema[keyword])) continue;
    for (const [name, sub] of Object.entries(schema[keyword])) {
      const at = `${pointer}/${keyword}/${escape(name)}`;
      properties++;
      if (!isObject(sub) || typeof sub.description !== 'string' || sub.description.trim() === '')
        missing.push(`${file}#${at}`);
      walk(file, sub, at);
    }
  }
  for (const keyword of ['additionalProperties', 'items', 'contains', 'then', 'else', 'not'])
    walk(file, schema[keyword], `${pointer}/${keyword}`);
  for (const keyword of ['prefixItems', 'oneOf', 'anyOf', 'allOf'])
    if (Array.isArray(schema[keyword]))
      schema[keyword].forEach((sub, i) => walk(file, sub, `${pointer}/${keyword}/${i}`));
  for (const keyword of ['$defs', 'dependentSchemas'])
    if (isObject(schema[keyword]))
      for (const [name, sub] of Object.entries(schema[keyword])) walk(file, sub, `${pointer}/${keyword}/${escape(name)}`);
}

for (const f of files) {
  const rel = path.relative(schemaDir, f).split(path.sep).join('/');
  walk(`protocol/schema/${rel}`, JSON.parse(fs.readFileSync(f, 'utf8')), '');
}

for (const m of missing) console.error(`FAIL no description: ${m}`);
console.log(`${files.length} schema files, ${properties} properties, ${missing.length} without a description`);
if (properties < 100) {
  console.error('FAIL fewer than 100 properties found; did the walk or the layout change?');
  process.exit(1);
}
if (missing.length) process.exit(1);
console.log('every property has a description');
