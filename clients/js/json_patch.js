// JSON Patch (RFC 6902), as the server sends a view's changes (`state.view_patch`, after hello with
// `views: "changes"`; docs/protocol.md, "The state push"). The client library applies it to the
// view of the state before, so library users see whole views. No dependencies.

/** A patch that does not apply to the document it was given. */
export class PatchError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PatchError';
  }
}

// "/a/b~1c/0" -> ["a", "b/c", "0"] (RFC 6901).
function parsePointer(path) {
  if (typeof path !== 'string') throw new PatchError('a path must be a string');
  if (path === '') return [];
  if (path[0] !== '/') throw new PatchError(`not a JSON pointer: ${path}`);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const isIndex = (t) => /^(0|[1-9][0-9]*)$/.test(t);
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// The container a pointer's last token refers into, and that token.
function parentOf(doc, tokens, path) {
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) {
      if (!isIndex(t) || Number(t) >= node.length) throw new PatchError(`no ${path}`);
      node = node[Number(t)];
    } else if (node !== null && typeof node === 'object' && own(node, t)) {
      node = node[t];
    } else {
      throw new PatchError(`no ${path}`);
    }
  }
  if (node === null || typeof node !== 'object') throw new PatchError(`no ${path}`);
  return [node, tokens[tokens.length - 1]];
}

function get(doc, path) {
  const tokens = parsePointer(path);
  if (!tokens.length) return doc;
  const [node, key] = parentOf(doc, tokens, path);
  if (Array.isArray(node) ? !isIndex(key) || Number(key) >= node.length : !own(node, key))
    throw new PatchError(`no ${path}`);
  return node[Array.isArray(node) ? Number(key) : key];
}

// Each operation on `doc` in place; returns the (possibly new) root.
function add(doc, path, value) {
  const tokens = parsePointer(path);
  if (!tokens.length) return value;
  const [node, key] = parentOf(doc, tokens, path);
  if (Array.isArray(node)) {
    const i = key === '-' ? node.length : isIndex(key) ? Number(key) : -1;
    if (i < 0 || i > node.length) throw new PatchError(`no ${path}`);
    node.splice(i, 0, value);
  } else {
    node[key] = value;
  }
  return doc;
}

function remove(doc, path) {
  const tokens = parsePointer(path);
  if (!tokens.length) throw new PatchError('cannot remove the whole document');
  const [node, key] = parentOf(doc, tokens, path);
  if (Array.isArray(node)) {
    if (!isIndex(key) || Number(key) >= node.length) throw new PatchError(`no ${path}`);
    node.splice(Number(key), 1);
  } else {
    if (!own(node, key)) throw new PatchError(`no ${path}`);
    delete node[key];
  }
  return doc;
}

function replace(doc, path, value) {
  const tokens = parsePointer(path);
  if (!tokens.length) return value;
  get(doc, path); // it must be there
  const [node, key] = parentOf(doc, tokens, path);
  node[Array.isArray(node) ? Number(key) : key] = value;
  return doc;
}

function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => own(b, k) && equal(a[k], b[k]));
}

const copy = (v) => (v === null || typeof v !== 'object' ? v : JSON.parse(JSON.stringify(v)));

/**
 * Applies `patch` (an array of RFC 6902 operations) to a copy of `doc` and returns the result;
 * `doc` itself is left as it was. Throws a PatchError when an operation does not apply (a path
 * that is not there, an unknown `op`, a failed `test`), so a caller can ask for the whole view.
 */
export function applyPatch(doc, patch) {
  if (!Array.isArray(patch)) throw new PatchError('a patch is an array of operations');
  let out = copy(doc);
  for (const op of patch) {
    if (!op || typeof op !== 'object') throw new PatchError('an operation is an object');
    switch (op.op) {
      case 'add': out = add(out, op.path, copy(op.value)); break;
      case 'remove': out = remove(out, op.path); break;
      case 'replace': out = replace(out, op.path, copy(op.value)); break;
      case 'move': {
        if (op.path.startsWith(`${op.from}/`)) throw new PatchError('cannot move a value into itself');
        const v = get(out, op.from);
        out = add(remove(out, op.from), op.path, v);
        break;
      }
      case 'copy': out = add(out, op.path, copy(get(out, op.from))); break;
      case 'test': if (!equal(get(out, op.path), op.value)) throw new PatchError(`test failed at ${op.path}`); break;
      default: throw new PatchError(`unknown op ${op.op}`);
    }
  }
  return out;
}
