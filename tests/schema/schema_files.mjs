// Every JSON Schema file under protocol/schema, sorted: what the schema checks walk.
import fs from 'node:fs';
import path from 'node:path';

export function schemaFiles(schemaDir = path.join(process.cwd(), 'protocol/schema')) {
  const files = [];
  (function walk(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json')) files.push(p);
    }
  })(schemaDir);
  return files.sort();
}
