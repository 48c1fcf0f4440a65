// Small helpers shared by every screen: HTML escaping, storage, time.

const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Escapes text for use inside HTML text or a quoted attribute. Every string that comes from the
// server or from another player (names, chat, messages) goes through this.
export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => entities[c]);
}

// Persistent settings of this browser: the seat token, the name, the language, and the last `seq`
// seen per room (for resuming). One JSON object in localStorage; failures (private mode) are ignored.
const storageKey = 'tinsel';
let saved = {};
try {
  saved = JSON.parse(localStorage.getItem(storageKey) || '{}') || {};
} catch {
  saved = {};
}

export const settings = {
  get(key, fallback = null) {
    return key in saved ? saved[key] : fallback;
  },
  set(key, value) {
    if (value === null || value === undefined) delete saved[key];
    else saved[key] = value;
    try {
      localStorage.setItem(storageKey, JSON.stringify(saved));
    } catch {
      /* storage full or disabled: the session still works, it just cannot resume */
    }
  },
};

// Whole seconds left until `deadline` (ms since the epoch), never negative.
export function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

export function formatSeconds(s) {
  const m = Math.floor(s / 60);
  const r = s % 60;
  return m > 0 ? `${m}:${String(r).padStart(2, '0')}` : `${r}`;
}

// Structural equality of two JSON values (used to match legal entries and locations).
export function same(a, b) {
  return canonical(a) === canonical(b);
}

// JSON text with object keys sorted, so equal values give equal text whatever their key order.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// A legal entry is concrete (sendable as it is) unless it describes a domain.
export function concrete(entry) {
  return !('domain' in entry);
}
