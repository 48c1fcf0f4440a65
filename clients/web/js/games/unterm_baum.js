// Unterm Baum: the tree of face-down cards, every player's field by family member, the wish list
// (only while the server still sends it), revealed cards shown for `display_ms` and then face-down
// again. Motifs appear only in `revealed` events and after the end; the log never keeps one.
import { addTexts, lang, t } from '../i18n.js';
import { esc, same } from '../util.js';
import { seatDot } from '../marks.js';
import motifsDe from './motifs_de.js';
import { backSvg, motifCardHtml } from './ub_motifs.js';
import texts from './ub_texts.js';
import {
  actionsExtra, afterRender, clickable, domainOf, entries, placeBanner, settleAfterRender, tapPlace,
} from './ub_place.js';
import { chipColours } from './ub_colours.js';

// The board's words (the picker's and the lobby's are in catalogue.js, loaded on every page).
addTexts(texts);

// The family sheets (public, rulebook A2): names and members, so the wish-list grid can name its
// rows before the list is submitted; afterwards the view's own `members` are shown. The wire ids
// are the sheets' old German surnames; the surname a family is called by fits its members' names
// (a trial found "the Schmidts" with Grandma Rose and Grandpa Bill odd: they are the Smiths).
const families = {
  mueller: { name: 'Müller', members: ['Oma Erna', 'Opa Karl', 'Anna', 'Jonas', 'Mia'] },
  schmidt: { name: 'Smith', members: ['Grandma Rose', 'Grandpa Bill', 'Sarah', 'Tom', 'Lily'] },
  schneider: { name: 'Rossi', members: ['Nonna Lucia', 'Marco', 'Giulia', 'Luca', 'Sofia'] },
  fischer: { name: 'Lindqvist', members: ['Mormor Ingrid', 'Lars', 'Karin', 'Erik', 'Elsa'] },
  weber: { name: 'Dubois', members: ['Mamie Jeanne', 'Pierre', 'Claire', 'Hugo', 'Chloe'] },
  meyer: { name: 'Kowalski', members: ['Babcia Zofia', 'Piotr', 'Ewa', 'Kuba', 'Ola'] },
  wagner: { name: 'García', members: ['Abuela Carmen', 'Javier', 'Lucia', 'Pablo', 'Ines'] },
  becker: { name: 'Becker', members: ['Oma Trudi', 'Vati Horst', 'Mutti Gabi', 'Tim', 'Lea'] },
};
const familyName = (id) => families[id]?.name || id;

// A family member has one name on every screen, whatever its language (two relatives speaking about
// "Grandma Rose" and "Oma Rose" mean the same person): the given name stays as the sheet has it,
// only a grandparent's word is the screen's own (Oma/Grandma, Opa/Grandpa, whatever the family's
// word on the sheet), and parents are Mama and Papa, which both languages say alike.
const grandparent = /^(?:(Oma|Grandma|Nonna|Mormor|Mamie|Babcia|Abuela)|(Opa|Grandpa)) (.+)$/;
const parents = { Vati: 'Papa', Mutti: 'Mama' };
function sayMember(name) {
  const g = grandparent.exec(name);
  if (g) return t(g[1] ? 'ub.grandma' : 'ub.grandpa', { name: g[3] });
  const [word, ...rest] = name.split(' ');
  return parents[word] && rest.length ? `${parents[word]} ${rest.join(' ')}` : name;
}
// A family member called like one of the players at the table says that it is the family member
// ("Tom (Familie)"), so nobody mistakes the row for the player.
function memberName(name, ctx) {
  if (!name) return name;
  const said = sayMember(name);
  const seated = (ctx.view?.players || []).map((p) => String(ctx.name(p.seat) || '').trim().toLowerCase());
  return seated.includes(said.trim().toLowerCase()) ? t('ub.family_member', { name: said }) : said;
}

export function motifName(motif) {
  if (lang() === 'de' && motifsDe[motif]) return motifsDe[motif];
  const words = String(motif).replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// A motif's picture and its name; the name breaks only between syllables (ub_motifs.js).
function motifHtml(motif) {
  return motifCardHtml(motif, motifName(motif));
}

const locKey = (loc) => ('tree' in loc ? `t${loc.tree}` : `s${loc.seat}:${loc.row}:${loc.slot}`);
const keyLoc = (key) => {
  if (key[0] === 't') return { tree: Number(key.slice(1)) };
  const [seat, row, slot] = key.slice(1).split(':').map(Number);
  return { seat, row, slot };
};

// Moves whatever `map` holds at each `from` to its `to`, all at once (a rearrangement swaps).
function relocate(map, pairs) {
  const taken = pairs.map(([from]) => map.get(locKey(from)));
  pairs.forEach(([from]) => map.delete(locKey(from)));
  pairs.forEach(([, to], i) => taken[i] !== undefined && map.set(locKey(to), taken[i]));
}

// A short fingerprint of a string (djb2), for keys.
function hash(text) {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33 + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

// Every card on the table has a key, no free place keeps one.
function syncCards(v, cards) {
  if (!v?.tree) return;
  const live = new Set();
  v.tree.forEach((occ, i) => occ && live.add(`t${i}`));
  for (const p of v.players) p.field.forEach((row, r) => row.forEach((occ, s) => occ && live.add(`s${p.seat}:${r}:${s}`)));
  for (const key of [...cards.at.keys()]) if (!live.has(key)) cards.at.delete(key);
  for (const key of live) if (!cards.at.has(key)) cards.at.set(key, `ubc${cards.next++}`);
}

// Where a place is, in the same words on every screen (the tree hangs the same branches on a phone
// and a desktop): on the tree "3rd branch from the top, 2nd from the left", under it "2nd row, 3rd
// from the left", on a table the family member of the row and the place counted from the left.
function placeParts(loc, ctx) {
  if ('tree' in loc) {
    const { hung } = treeTiers(ctx.view.tree.length);
    return { under: loc.tree >= hung, where: treeWhere(loc.tree, ctx.view.tree.length, true) };
  }
  const member = memberName(ctx.view.players[loc.seat]?.members?.[loc.row], ctx) || t('ub.row', { n: loc.row + 1 });
  return { mine: loc.seat === ctx.seat, name: ctx.name(loc.seat), member, n: ordinal(loc.slot + 1) };
}
// "on the tree, 3rd branch …", "on Ben's table, at Marco, 2nd place": where a card lies.
function placeAt(loc, ctx) {
  const p = placeParts(loc, ctx);
  if ('tree' in loc) return t(p.under ? 'ub.at.under' : 'ub.at.tree', p);
  return t(p.mine ? 'ub.at.mine' : 'ub.at.field', p);
}
// "from the tree (…)", "to Ben's table (at Marco, 2nd place)", "to your table (…)": the place with
// its preposition (German cases differ).
function placeWord(dir, loc, ctx) {
  const p = placeParts(loc, ctx);
  if ('tree' in loc) return t(`ub.${dir}.${p.under ? 'under' : 'tree'}`, p);
  return t(`ub.${dir}.${p.mine ? 'mine' : 'field'}`, p);
}
// Where a card chosen to move comes from, in a few words (the chip in the dock): "from the tree",
// "from your table, at Oma Erna", "from Ben's table".
function whence(loc, ctx) {
  if ('tree' in loc) return t('ub.chip.tree');
  if (loc.seat !== ctx.seat) return t('ub.chip.field', { name: ctx.name(loc.seat) });
  return t('ub.chip.mine', { member: memberName(ctx.view.players[loc.seat]?.members?.[loc.row], ctx) || t('ub.row', { n: loc.row + 1 }) });
}
// "Your table" or "Ben's table", as the table's heading says it.
function tableName(seat, ctx) {
  return seat === ctx.seat ? t('ub.field_mine') : t('ub.field', { name: ctx.name(seat) });
}

// After the end, the motif on a table's card, from the state's result (the view shows occupancy only).
function fieldFace(seat, row, slot, ctx) {
  return ctx.state.result?.players?.[seat]?.cards?.find((c) => c.row === row && c.slot === slot)?.motif || null;
}

// One place: free (a dashed outline), or a card that turns over (the back, and the motif while a
// reveal is open or after the end). The element stays across renders, so adding `open` flips it.
function cardHtml(loc, occupied, face, ctx, ui) {
  const reveal = ui.reveals.get(locKey(loc));
  const shown = face || (occupied && reveal && reveal.until > Date.now() ? reveal.motif : null);
  const can = !ctx.state.over && ctx.seat !== null && clickable(loc, occupied, ctx, ui);
  const selected = ui.selected && same(ui.selected, loc);
  // A place a present was just taken from (the owner's own table): marked for a few seconds.
  const gone = ui.taken.get(locKey(loc));
  const taken = !occupied && gone && gone.until > Date.now() ? gone : null;
  const landed = occupied && !shown && (ui.landed.get(locKey(loc))?.until || 0) > Date.now();
  // After the end: what each present on a table scores for its owner (4, 3 or 1).
  const scored = face && ctx.state.over && 'seat' in loc
    ? ctx.state.result?.players?.[loc.seat]?.cards?.find((c) => c.row === loc.row && c.slot === loc.slot) : null;
  const cls = ['ub-card', occupied ? 'full' : 'free', shown ? 'open' : '', can ? 'can' : '', selected ? 'selected' : '', taken ? 'taken' : '',
    reveal && !face && shown ? 'revealed' : '', landed ? 'landed' : ''].filter(Boolean).join(' ');
  // Face down, the upper side is a card back too: a card turning back (or caught mid-turn) never
  // shows a blank white face.
  const badge = scored ? `<span class="ub-score p${scored.points}" data-testid="ub-score" aria-hidden="true">${scored.points}</span>` : '';
  const inner = occupied
    ? `<span class="ub-flip"><span class="ub-face ub-down">${backSvg()}</span><span class="ub-face ub-up ${shown ? '' : 'ub-blank'}">${shown ? motifHtml(shown) : backSvg()}</span></span>${badge}`
    : '';
  // Where the card is, whether one lies there, and its motif only while it is face up.
  const member = 'seat' in loc ? memberName(ctx.view.players[loc.seat]?.members?.[loc.row], ctx) || t('ub.row', { n: loc.row + 1 }) : '';
  const motif = shown ? motifName(shown) : '';
  let label;
  if ('tree' in loc) {
    const where = treeWhere(loc.tree, ctx.view.tree.length);
    label = !occupied ? t('ub.tip.tree_free') : t(shown ? 'ub.tip.tree_open' : 'ub.tip.tree_card', { motif, where });
  }
  else {
    const table = tableName(loc.seat, ctx);
    label = t(!occupied ? 'ub.tip.free' : shown ? 'ub.tip.card_open' : 'ub.tip.card', { table, member, motif });
    if (taken) label = t('ub.tip.taken', { table, member, name: ctx.name(taken.by) });
    if (scored) {
      const how = t(scored.points === 4 ? 'ub.exact' : scored.points === 3 ? 'ub.member' : 'ub.other');
      label = t('ub.tip.points', { label, n: scored.points, how });
    }
  }
  const attrs = can ? `data-act="ub-loc" data-loc='${esc(JSON.stringify(loc))}' role="button" tabindex="0"` : 'role="img"';
  // The key carries what lies above the board (ui.epoch): a card that moves slides, but when the
  // turn bar or the wish list above changes and shifts the whole board, nothing slides.
  const flip = occupied ? ` data-flip="${ui.cards.at.get(locKey(loc)) || ''}-${ui.epoch}"` : '';
  return `<div class="${cls}" ${attrs} aria-label="${esc(label)}" title="${esc(label)}" data-tip="${esc(label)}" data-testid="ub-${locKey(loc)}"${flip}>${inner}</div>`;
}

// "the 2nd branch from the top, 3rd from the left": where a tree card is, in words (no numbers
// of places on screen).
function ordinal(n) {
  if (lang() === 'de') return `${n}.`;
  const tens = n % 100;
  const suffix = tens > 10 && tens < 14 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return `${n}${suffix}`;
}
// The cards under the tree lie in rows of as many as the widest branch holds.
function treeWhere(i, n, short = false) {
  const { tiers, hung, widest } = treeTiers(n);
  if (i >= hung) {
    const at = { r: ordinal(Math.floor((i - hung) / widest) + 1), i: ordinal(((i - hung) % widest) + 1) };
    return t(short ? 'ub.where.row' : 'ub.where.under', at);
  }
  const b = tiers.findIndex(([from, w]) => i >= from && i < from + w);
  if (b === 0) return t('ub.where.top');
  return t('ub.where.branch', { b: ordinal(b + 1), i: ordinal(i - tiers[b][0] + 1) });
}

// The fir tree behind the hanging cards: three tiers of branches, drawn to fill its box.
const firSvg = '<svg class="ub-fir" viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true" focusable="false">'
  + '<polygon points="50,0 66,30 58,30 80,62 70,62 100,100 0,100 30,62 20,62 42,30 34,30" fill="#1f6b45"/>'
  + '<polygon points="50,0 66,30 58,30 80,62 70,62 100,100 50,100" fill="#17583a"/></svg>';

// The branches: 1, 2, 3, … 7 cards wide (each [first card, width]), as many as the cards allow;
// the cards left over lie under the tree in rows of 7. The same on every screen, so that "the 3rd
// branch from the top" is the same card on a phone and a desktop.
function treeTiers(n) {
  const widest = 7;
  const tiers = [];
  let hung = 0;
  for (let w = 1; w <= widest && hung + w <= n; w++) {
    tiers.push([hung, w]);
    hung += w;
  }
  return { tiers, hung, widest };
}

// The tree: a star, the cards hanging on widening branches, the trunk, and the cards that no longer
// fit lying under the tree on its skirt.
function treeHtml(ctx, ui) {
  const v = ctx.view;
  const faces = ctx.state.result?.tree || [];  // after the end: what lies where
  const n = v.tree.length;
  const { tiers, hung, widest } = treeTiers(n);
  const card = (i) => cardHtml({ tree: i }, v.tree[i], faces[i] || null, ctx, ui);
  const span = (from, count) => Array.from({ length: count }, (_, k) => card(from + k)).join('');
  const rows = tiers.map(([from, w]) => `<div class="ub-tier">${span(from, w)}</div>`);
  const under = n - hung;
  return `<section class="ub-tree" style="--n:${widest}" data-testid="ub-tree">
    <h3 title="${esc(t('ub.tip.tree'))}" data-tip="${esc(t('ub.tip.tree'))}">🎄 ${esc(t('ub.tree'))}</h3>
    <div class="ub-tree-art">${firSvg}<span class="ub-star" aria-hidden="true"></span>${rows.join('')}</div>
    <div class="ub-trunk" aria-hidden="true"></div>
    ${under ? `<div class="ub-under">${span(hung, under)}</div>` : '<div class="ub-skirt" aria-hidden="true"></div>'}
  </section>`;
}

function fieldHtml(p, ctx, ui) {
  const rows = p.field.map((row, r) => {
    const member = memberName(p.members?.[r], ctx) || t('ub.row', { n: r + 1 });
    const cells = row.map((occ, s) => cardHtml({ seat: p.seat, row: r, slot: s }, occ, fieldFace(p.seat, r, s, ctx), ctx, ui));
    return `<div class="ub-row"><span class="member">${esc(member)}</span><div class="cells ${row.length > 6 ? 'long' : ''}" style="--cols:${row.length}">${cells.join('')}</div></div>`;
  });
  const fam = p.family ? ` · ${familyName(p.family)}` : '';
  const active = ctx.view.active === p.seat && ctx.view.phase === 'play';
  const mine = p.seat === ctx.seat;
  const colour = ctx.colour(p.seat);
  const chip = chipColours(colour);
  const almost = ctx.view.phase === 'play' && p.card_count === ctx.view.cards_to_remember - 1;
  return `<section class="ub-field ${active ? 'active' : ''} ${mine ? 'mine' : ''}" style="--c:${colour}" data-key="ub-field-${p.seat}" data-testid="ub-field-${p.seat}">
    <h3><span class="ub-chip" style="background:${chip.bg};color:${chip.fg}">${esc(tableName(p.seat, ctx))}</span>
    <span class="ub-fam">${esc(fam.slice(3))}</span>
    <span class="ub-count ${almost ? 'almost' : ''}" title="${esc(t('ub.count_tip', { k: ctx.view.cards_to_remember }))}" data-tip="${esc(t('ub.count_tip', { k: ctx.view.cards_to_remember }))}">${esc(t('ub.count', { n: p.card_count, k: ctx.view.cards_to_remember }))}</span></h3>${rows.join('')}</section>`;
}

// `pick`: the present chosen to move, on the list being written (`editable`).
function wishGrid(ctx, wishes, rows, slots, members, editable = false, pick = null) {
  const at = new Map(wishes.map((w) => [`${w.row}:${w.slot}`, w.motif]));
  const lines = [];
  for (let r = 0; r < rows; r++) {
    const cells = [];
    for (let s = 0; s < slots; s++) {
      const motif = at.get(`${r}:${s}`);
      const sel = editable && pick && pick.row === r && pick.slot === s;
      const attrs = editable ? `data-act="ub-wish" data-row="${r}" data-slot="${s}" role="button" tabindex="0"` : '';
      // The gift itself slides when it changes places on the list being written.
      const inner = motif ? `<span class="ub-wish-card"${editable ? ` data-flip="ubw-${motif}"` : ''}>${motifHtml(motif)}</span>` : '';
      cells.push(`<div class="ub-card wish ${motif ? 'open' : 'free'} ${editable ? 'can' : ''} ${sel ? 'selected' : ''}" ${attrs}>${inner}</div>`);
    }
    lines.push(`<div class="ub-row"><span class="member">${esc(memberName(members?.[r], ctx) || t('ub.row', { n: r + 1 }))}</span><div class="cells ${slots > 6 ? 'long' : ''}" style="--cols:${slots}">${cells.join('')}</div></div>`);
  }
  return lines.join('');
}

// The family a player's list starts with: a free one that depends on the seat (the last free one for
// the first seat, the one before for the next, …), so that two people writing at once do not both
// start on the same family and see their rows renamed when the other folds first (a newcomer trial
// met it); computer players take the first free ones. It is sent with the list.
function ownFamily(ctx, domain, suggestion) {
  const free = domain.families || [];
  if (!free.length) return suggestion.family;
  const seat = typeof ctx.seat === 'number' ? ctx.seat : 0;
  return free[free.length - 1 - (seat % free.length)];
}

function assignHtml(ctx, ui) {
  const suggestion = entries(ctx, 'assign').find((e) => !e.domain);
  const domain = domainOf(ctx, 'assign');
  if (!domain || !suggestion) return '';
  const key = JSON.stringify(domain.motifs);
  if (ui.draftFor !== key) {
    // A list being written survives a reload of this tab (sessionStorage, this hand only).
    ui.draft = loadDraft(key) || { family: ownFamily(ctx, domain, suggestion), wishes: suggestion.wishes.map((w) => ({ ...w })) };
    ui.draftFor = key;
    ui.pick = null;
  }
  // Another player may have taken the family on this list meanwhile (each family goes once, first
  // come): it leaves the choice and the player is told so, never renamed behind their back. A
  // family the player chose must be chosen anew before the list can be folded; the suggested one
  // is followed by the next suggestion, and a line says so and names the new rows.
  if (ui.draft.family && !domain.families.includes(ui.draft.family)) {
    const by = ctx.view.players.find((p) => p.family === ui.draft.family);
    ui.draft.lost = { family: ui.draft.family, by: by ? by.seat : null };
    ui.draft.family = ui.draft.chosen ? null : ownFamily(ctx, domain, suggestion);
    ui.draft.lost.to = ui.draft.family;
    ui.draft.chosen = false;
    ui.pick = null;
    saveDraft(ui);
  }
  const lost = ui.draft.lost && ui.draft.lost.to === ui.draft.family ? ui.draft.lost : null;
  const byName = (l) => (l.by === null ? '?' : ctx.name(l.by));
  const used = new Set(ui.draft.wishes.map((w) => w.row));
  const allRows = used.size === domain.rows && !!ui.draft.family;
  // What to do now, as the list stands: move the chosen present, fill an empty row, or fold the list.
  const members = families[ui.draft.family]?.members;
  const empty = Array.from({ length: domain.rows }, (_, r) => r).find((r) => !used.has(r));
  const state = !ui.draft.family ? 'family' : ui.pick ? 'pick' : allRows ? 'ready' : 'empty';
  const hint = state === 'family' ? (lost ? t('ub.family_taken', { family: familyName(lost.family), name: byName(lost) }) : t('ub.family_pick_first'))
    : state === 'pick' ? t('ub.assign_pick')
    : state === 'ready' ? t('ub.assign_ready', { n: ui.draft.wishes.length, done: t('ub.assign_submit') })
      : t('ub.assign_empty', { member: memberName(members?.[empty], ctx) || t('ub.row', { n: empty + 1 }) });
  // What "Use the suggestion" just did: nothing (the list already was the suggestion) or put the
  // presents back (they slide there, and this line says so).
  const followed = lost && ui.draft.family
    ? `<p class="ub-assign-note ub-family-note" data-key="ub-follow-${esc(lost.to)}" data-testid="ub-family-note">ℹ️ ${esc(t('ub.family_followed', {
      family: familyName(lost.family), name: byName(lost), to: familyName(lost.to), members: (families[lost.to]?.members || []).slice(0, domain.rows).map((m) => memberName(m, ctx)).join(', ') }))}</p>` : '';
  const note = followed + (ui.note ? `<p class="ub-assign-note" data-key="ub-note-${ui.noteN}" data-testid="ub-assign-note" data-note="${ui.note}">${ui.note === 'same' ? 'ℹ️' : '↩️'} ${esc(t(ui.note === 'same' ? 'ub.assign_same' : 'ub.assign_back'))}</p>` : '');
  // Each family with the names its rows would carry, so the choice explains itself.
  const fams = domain.families.map((f) => `<option value="${esc(f)}" ${f === ui.draft.family ? 'selected' : ''}>${esc(familyName(f))}: ${esc((families[f]?.members || []).slice(0, domain.rows).map((m) => memberName(m, ctx)).join(', '))}</option>`);
  if (!ui.draft.family) fams.unshift(`<option value="" disabled selected>${esc(t('ub.family_choose'))}</option>`);
  return `<section class="ub-assign card" data-key="ub-assign">
    <h3>📝 ${esc(t('ub.wish_list'))}</h3>
    <p>${esc(t('ub.assign_help'))}</p>
    <label class="field ${state === 'family' ? 'ub-family-lost' : ''}"><span>${esc(t('ub.assign_family'))}</span><select id="ub-family" data-testid="ub-family" data-fresh aria-describedby="ub-family-why">${fams.join('')}</select></label>
    <p class="hint ub-family-why" id="ub-family-why" data-testid="ub-family-why">${esc(t('ub.family_why'))}</p>
    <div class="ub-wishes" data-testid="ub-assign-grid">${wishGrid(ctx, ui.draft.wishes, domain.rows, domain.slots, members, true, ui.pick)}</div>
    <div role="status">${note}<p class="ub-assign-hint ${state === 'empty' || state === 'family' ? 'error' : ''}" data-testid="ub-assign-hint" data-state="${state}">${esc(hint)}</p></div>
    <div class="row"><button class="big primary" data-act="ub-assign" ${allRows ? '' : 'disabled'}>${esc(t('ub.assign_submit'))}</button>
      <button data-act="ub-assign-reset">${esc(t('ub.assign_reset'))}</button></div>
    <p class="notice small">${esc(t('honesty'))}</p>
  </section>`;
}

const draftKey = 'tinsel.ub.draft';
function loadDraft(key) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(draftKey) || 'null');
    return saved && saved.key === key ? saved.draft : null;
  } catch {
    return null;
  }
}
function saveDraft(ui) {
  try {
    sessionStorage.setItem(draftKey, JSON.stringify({ key: ui.draftFor, draft: ui.draft }));
  } catch {
    /* storage unavailable: the draft just does not survive a reload */
  }
}

function wishListHtml(ctx) {
  const v = ctx.view;
  const me = v.players[ctx.seat];
  if (v.wish_list?.wishes && v.phase === 'memorize') {
    const deadline = ctx.state.prompt?.deadline;
    return `<section class="ub-wishlist card" data-testid="ub-wishlist" data-key="ub-wishlist">
      <h3>📝 ${esc(t('ub.wish_list'))}</h3>
      ${deadline ? `<p class="big-timer">${esc(t('ub.memorize'))} <span class="countdown" data-deadline="${deadline}"></span> s</p>` : ''}
      <div class="ub-wishes">${wishGrid(ctx, v.wish_list.wishes, v.family_size, v.slots_per_row, me?.members)}</div></section>`;
  }
  if (v.phase === 'assign' && me?.assigned) return `<p class="waiting" data-key="ub-waiting">${esc(t('ub.assign_waiting'))}</p>`;
  return '';
}

function revealBanner(ctx, ui) {
  const now = Date.now();
  const open = [...ui.reveals.entries()].filter(([, r]) => r.until > now);
  // Always there and of no height: the banner floats over the board instead of pushing it down
  // (which would slide every card).
  if (!open.length) return '<div class="ub-reveal-slot" data-key="ub-reveal-slot"></div>';
  const [key, r] = open[open.length - 1];
  // Where the card lies, in words (the page of someone watching does not move to it by itself):
  // pressing the line brings the card, ringed in gold, into view.
  const where = placeAt(keyLoc(key), ctx);
  return `<div class="ub-reveal-slot" data-key="ub-reveal-slot"><div class="ub-reveal" data-testid="reveal" role="status"><span class="ub-reveal-text"><span class="who">${esc(r.seat === ctx.seat ? t('ub.reveal_banner_mine') : t('ub.reveal_banner', { name: ctx.name(r.seat) }))}</span>
    <button class="ub-where" data-act="ub-show" data-place="${esc(key)}" data-testid="reveal-where" title="${esc(t('ub.show'))}">📍 ${esc(where)}</button></span>
    ${motifHtml(r.motif)}</div></div>`;
}

// The family chosen for the list being written.
function onChange(el, ctx, ui) {
  if (el.id !== 'ub-family' || !ui.draft) return;
  ui.draft.family = el.value;
  ui.draft.chosen = true;
  ui.draft.lost = null;
  ui.note = null;
  saveDraft(ui);
  ctx.render();
}

// How long a place a present was taken from stays marked.
const takenMs = 4000;

// Tables one present short of full: a table that becomes so is news once (the moment of the move
// that made it so), computed from the view. The first state seen (a join) only takes note.
function noteNearlyFull(msg, ui) {
  const v = msg.view;
  if (!v?.players || v.phase !== 'play') return;
  const now = new Set(v.players.filter((p) => p.card_count === v.cards_to_remember - 1).map((p) => p.seat));
  if (ui.nearlyFull) {
    const fresh = [...now].filter((seat) => !ui.nearlyFull.has(seat));
    const move = [...msg.events].reverse().find((e) => e.kind === 'moved');
    if (fresh.length && move) ui.news.set(move, fresh);
  }
  ui.nearlyFull = now;
}

// Did the same player already rearrange the table earlier in this turn (the log line says it once)?
function rearrangedBefore(ev, log, i) {
  if (!log) return false;
  for (let j = i - 1; j >= 0; j--) {
    const e = log[j];
    if (e.kind === 'turn_started' || e.kind === 'turn_ended') return false;
    if (e.kind === 'rearranged' && e.seat === ev.seat) return true;
  }
  return false;
}

// The board of one room (see board.js). `ui` is this browser's own state of it: open reveals, the
// places a present just left or landed on, the tables one present short of full, the chosen mode
// and selected card, the wish list being written; `cards`, which card is where as this browser
// followed them (the view has only places, A15: a card keeps its key when it moves, so it slides
// from where it was, motion.js data-flip); `pending`, what the next render brings into view. A new
// room gets a new board, so none of it carries over.
export function createBoard() {
  const ui = {
    reveals: new Map(), taken: new Map(), landed: new Map(), nearlyFull: null, news: new WeakMap(),
    mode: null, selected: null, draft: null, draftFor: null, pick: null, note: null,
    cards: { at: new Map(), next: 0 }, pending: { wishlist: false, card: null, to: null, dest: false },
  };
  return {
    ...hooks,
    moments: { ...hooks.moments, moved: (ev, ctx) => movedMoment(ev, ctx, ui) },
    onState: (msg, ctx) => onState(msg, ctx, ui),
    actionsExtra: (ctx) => actionsExtra(ctx, ui, (loc) => whence(loc, ctx)),
    render: (ctx) => render(ctx, ui),
    onClick: (el, ctx) => onClick(el, ctx, ui),
    onChange: (el, ctx) => onChange(el, ctx, ui),
  };
}

// A move is news when it took a present from the viewer's table, or left a table one present short
// of full (ui.news, noteNearlyFull: the game ends when its owner fills it).
function movedMoment(ev, ctx, ui) {
  const lines = [];
  if (ctx.seat !== null && ev.from.seat === ctx.seat && ev.seat !== ctx.seat) lines.push(t('ub.m.taken', { name: ctx.name(ev.seat) }));
  for (const seat of ui.news.get(ev) || []) {
    lines.push(seat === ctx.seat ? t('ub.m.one_left_mine') : t('ub.m.one_left', { name: ctx.name(seat) }));
  }
  return lines.join(' ') || null;
}

// The hooks that keep nothing between calls (createBoard adds the others).
const hooks = {
  id: 'unterm_baum',

  promptText(ctx) {
    const kind = ctx.state.prompt?.kind;
    return kind ? t(`ub.p.${kind}`) : '';
  },

  // While the others still write their wish lists, the bar says so (not "Anna's turn"); on the
  // player's own turn with one present to go, it warns that the next one ends the game.
  turnBar(ctx, { mine }) {
    const v = ctx.view;
    const seats = ctx.state.prompt?.seats || [];
    if (v.phase === 'assign' && !mine && seats.length) {
      const names = seats.map((s) => ctx.name(s));
      const list = new Intl.ListFormat(document.documentElement.lang || 'en', { type: 'conjunction' }).format(names);
      return { turn: t('ub.tb.lists_wait', { n: names.length, names: list }), what: '' };
    }
    const me = v.players?.[ctx.seat];
    if (!mine || v.phase !== 'play' || !me) return null;
    if (me.card_count === v.cards_to_remember - 1) return { turn: t('game.your_turn'), what: t('ub.tb.last_one') };
    // Someone else's table is one present short: the game may end before this player's next turn.
    const close = v.players.filter((p) => p.seat !== ctx.seat && p.card_count === v.cards_to_remember - 1).map((p) => ctx.name(p.seat));
    if (close.length) {
      const names = new Intl.ListFormat(document.documentElement.lang || 'en', { type: 'conjunction' }).format(close);
      return { turn: t('game.your_turn'), what: `${t('ub.p.turn')} ${t('ub.tb.other_last', { n: close.length, names })}` };
    }
    // Otherwise the bar says whose turn it is, and the dock below says what to tap: one line less
    // under a sticky bar on a phone.
    return { turn: t('game.your_turn'), what: '' };
  },

  // The board handles reveals, moves, rearrangements and the wish list; end_turn stays a button.
  boardEntries(ctx) {
    return ctx.legal.map((e, i) => [e, i]).filter(([e]) => e.kind !== 'end_turn').map(([, i]) => i);
  },

  actionLabel(entry) {
    return t(`ub.a.${entry.kind}`) !== `ub.a.${entry.kind}` ? t(`ub.a.${entry.kind}`) : entry.kind;
  },

  // Moments announced to everyone (moments.js; a move: movedMoment). Not the start of memorising:
  // the wish list says so in large letters, and a banner would lie over the list while it is to be
  // learnt.
  moments: {
    memorize_ended: '📜',
  },

  // `log` and `i` (app.js): the whole log and this event's place in it, so that a player who
  // rearranges the table several times in a turn is said to do it once.
  eventText(ev, ctx, log, i) {
    const name = ctx.name(ev.seat);
    // The player's own doings are told to them in the second person ("You move a card …").
    const say = (key, args) => t(ctx.seat !== null && ev.seat === ctx.seat ? `${key}_you` : key, { name, ...args });
    switch (ev.kind) {
      case 'assigned': return say('ub.e.assigned');
      case 'memorize_started': return t('ub.e.memorize_started');
      case 'memorize_ended': return t('ub.e.memorize_ended');
      case 'turn_started': return say('ub.e.turn_started');
      // Where, never what: the log stays on screen, a revealed card's motif must not.
      case 'revealed': return say('ub.e.revealed', { where: placeAt(ev.location, ctx) });
      case 'moved': return say('ub.e.moved', { from: placeWord('from', ev.from, ctx), to: placeWord('to', ev.to, ctx) });
      case 'rearranged': return rearrangedBefore(ev, log, i) ? null : say('ub.e.rearranged');
      case 'turn_ended': return say('ub.e.turn_ended');
      case 'game_over': return t('ub.e.game_over');
      default: return null;
    }
  },

  // Why the game ended, in a line under the table.
  resultNote(ctx) {
    const r = ctx.state.result || {};
    if (r.reason === 'round_cap') return t('ub.end_rounds');
    return ctx.seat !== null && ctx.seat !== undefined && r.ended_by === ctx.seat ? t('ub.end_field_you') : t('ub.end_field', { name: ctx.name(r.ended_by) });
  },

  resultHtml(ctx) {
    const r = ctx.state.result;
    const rows = r.players.map((p) => `<tr class="${r.winners.includes(p.seat) ? 'winner' : ''}">
      <td>${seatDot(p.seat, ctx.colour(p.seat))}${esc(ctx.name(p.seat))}</td><td><strong>${p.score}</strong></td>
      <td>${p.exact}</td><td>${p.member}</td><td>${p.other}</td></tr>`);
    const lists = r.players.map((p) => `<details><summary>${esc(t('ub.wished'))}: ${esc(ctx.name(p.seat))}</summary>
      <div class="ub-wishes">${wishGrid(ctx, p.wishes, ctx.view.family_size, ctx.view.slots_per_row, ctx.view.players[p.seat]?.members)}</div></details>`);
    return `<table class="score-table"><thead><tr><th></th><th>${esc(t('game.score'))}</th><th>${esc(t('ub.exact'))}</th>
      <th>${esc(t('ub.member'))}</th><th>${esc(t('ub.other'))}</th></tr></thead><tbody>${rows.join('')}</tbody></table>
      <p class="ub-points-note small" data-testid="ub-points-note">${esc(t('ub.points_note'))}</p>${lists.join('')}`;
  },
};

// Remembers revealed motifs for their display time, and follows every card that moves (its
// key, for the slide, and an open reveal with it).
function onState(msg, ctx, ui) {
  if (msg.events.some((e) => e.kind === 'game_started' && e.seq === undefined) && ctx.seat !== null) ui.pending.to = '.ub-assign';
  if (msg.events.some((e) => e.kind === 'game_started')) {
    Object.assign(ui, { mode: null, selected: null, draft: null, draftFor: null, pick: null, note: null, nearlyFull: new Set() });
    ui.reveals.clear();
    ui.taken.clear();
    ui.landed.clear();
    ui.cards.at.clear();
  }
  for (const ev of msg.events) {
    // A replayed event (after a reconnect) is history: its card is not shown again.
    if (ev.kind === 'revealed' && ev.seq === undefined) {
      ui.reveals.set(locKey(ev.location), { motif: ev.motif, seat: ev.seat, until: Date.now() + ev.display_ms });
      // Only the player who looks has the page brought to the card: nobody else's page moves
      // by itself (they see the card big in the banner).
      if (ev.seat === ctx.seat && ctx.seat !== null) ui.pending.card = locKey(ev.location);
      setTimeout(() => ctx.render(), ev.display_ms + 50);
    } else if (ev.kind === 'moved') {
      relocate(ui.reveals, [[ev.from, ev.to]]);
      relocate(ui.cards.at, [[ev.from, ev.to]]);
      ui.taken.delete(locKey(ev.to));
      // Where the card went: ringed in gold for a moment on every screen.
      ui.landed.delete(locKey(ev.from));
      if (ev.seq === undefined) {
        ui.landed.set(locKey(ev.to), { until: Date.now() + takenMs });
        setTimeout(() => ctx.render(), takenMs + 50);
      }
      // Someone else took a present from this player's table: its place is marked for a moment.
      if (ev.seq === undefined && ctx.seat !== null && ev.from.seat === ctx.seat && ev.seat !== ctx.seat) {
        ui.taken.set(locKey(ev.from), { by: ev.seat, until: Date.now() + takenMs });
        setTimeout(() => ctx.render(), takenMs + 50);
      }
    } else if (ev.kind === 'rearranged') {
      const pairs = ev.moves.map((m) => [{ seat: ev.seat, ...m.from }, { seat: ev.seat, ...m.to }]);
      relocate(ui.reveals, pairs);
      relocate(ui.cards.at, pairs);
    } else if (ev.kind === 'turn_started') {
      // A new player's turn never starts under an old card: a card looked at in the turn before
      // goes when that turn is over, even if its few seconds are not.
      for (const [key, r] of ui.reveals) if (r.seat !== ev.seat) ui.reveals.delete(key);
      if (ev.seq === undefined && ctx.seat !== null && ev.seat === ctx.seat) ui.pending.to = '[data-testid="ub-tree"]';
    } else if (ev.kind === 'memorize_started' && ev.seq === undefined) {
      ui.pending.wishlist = true;
    }
  }
  syncCards(msg.view, ui.cards);
  noteNearlyFull(msg, ui);
  for (const [key, r] of ui.reveals) if (r.until <= Date.now()) ui.reveals.delete(key);
  for (const [key, r] of ui.taken) if (r.until <= Date.now()) ui.taken.delete(key);
  for (const [key, r] of ui.landed) if (r.until <= Date.now()) ui.landed.delete(key);
  if (ctx.view?.phase !== 'play') ui.selected = null;
}

// The tree and the tables, the player's own table first (on a phone right under the tree).
function render(ctx, ui) {
  const v = ctx.view;
  const mine = ctx.seat !== null && !ctx.state.over;
  const top = [];
  if (ctx.state.over) ui.reveals.clear();
  if (mine && v.phase === 'assign') top.push(assignHtml(ctx, ui));
  if (mine) top.push(wishListHtml(ctx));
  // During play a strip as high as the reveal banner, under it: the banner, when it comes, lies
  // over this strip (the reminder that the list is folded) and not over the board.
  if (v.phase === 'play') {
    const covered = [...ui.reveals.values()].some((r) => r.until > Date.now());
    const folded = ctx.seat !== null ? `<span data-testid="ub-folded">${esc(t('ub.folded'))}</span>` : '';
    const points = `<span class="ub-points" data-testid="ub-points-hint">${esc(t(ctx.seat === null ? 'ub.points_hint_watch' : 'ub.points_hint', { k: v.cards_to_remember }))}</span>`;
    top.unshift(`<div class="ub-strip muted ${covered ? 'covered' : ''}" data-key="ub-folded">${folded}${points}</div>`);
  }
  if (v.phase === 'play' && v.max_rounds && v.round >= v.max_rounds) {
    top.push(`<p class="ub-last-round" data-key="ub-last-round" role="status">⏳ ${esc(t('ub.last_round'))}</p>`);
  }
  syncCards(v, ui.cards);
  const mineNow = ctx.seat !== null && ctx.state.prompt?.seats?.includes(ctx.seat) && ctx.legal.length > 0;
  ui.epoch = hash(`${v.phase}${v.turn}${v.prompt}${mineNow}${ctx.state.over}${top.join('')}`);
  const players = [...v.players].sort((a, b) => (b.seat === ctx.seat) - (a.seat === ctx.seat) || a.seat - b.seat);
  const fields = players.map((p) => fieldHtml(p, ctx, ui));
  settleAfterRender(ui.pending);
  return `${revealBanner(ctx, ui)}${top.join('')}
    <div class="ub-board ${ctx.state.over ? 'over' : ''}" data-key="ub-board">${treeHtml(ctx, ui)}<div class="ub-fields" data-key="ub-fields">${fields.join('')}</div></div>`;
}

async function onClick(el, ctx, ui) {
  const act = el.dataset.act;
  if (act === 'ub-show') {
    const card = document.querySelector(`#screen [data-testid="ub-${el.dataset.place}"]`);
    if (card) {
      ui.pending.card = el.dataset.place;
      afterRender(ui.pending);
      placeBanner();
    }
  } else if (act === 'ub-mode') {
    ui.mode = el.dataset.mode;
    ui.selected = null;
    ctx.render();
  } else if (act === 'ub-loc') {
    await tapPlace(JSON.parse(el.dataset.loc), ctx, ui);
  } else if (act === 'ub-cancel') {
    // The ✕ on the chosen card's chip: the card stays where it is.
    ui.selected = null;
    ctx.render();
  } else if (act === 'ub-wish') {
    const cell = { row: Number(el.dataset.row), slot: Number(el.dataset.slot) };
    const at = (c) => ui.draft.wishes.find((w) => w.row === c.row && w.slot === c.slot);
    ui.note = null;
    if (!ui.pick) {
      if (at(cell)) ui.pick = cell;
    } else if (ui.pick.row === cell.row && ui.pick.slot === cell.slot) {
      ui.pick = null;
    } else {
      const a = at(ui.pick);
      const b = at(cell);
      if (a) Object.assign(a, cell);
      if (b) Object.assign(b, ui.pick);
      ui.pick = null;
      saveDraft(ui);
    }
    ctx.render();
  } else if (act === 'ub-assign') {
    // The family is sent, chosen or the seat's own start (ownFamily): if someone else took it just
    // now, the server refuses (rather than give another family) and the list says so.
    if (!ui.draft.family) return;
    const cmd = { kind: 'assign', wishes: ui.draft.wishes, family: ui.draft.family };
    // Once submitted, the list lives only in the player's memory: nothing of it stays stored.
    await ctx.act(cmd).then(() => sessionStorage.removeItem(draftKey), () => {});
  } else if (act === 'ub-assign-reset') {
    const suggestion = entries(ctx, 'assign').find((e) => !e.domain);
    const was = ui.draft;
    const spot = (ws) => JSON.stringify([...ws].map((w) => [w.motif, w.row, w.slot]).sort());
    const domain = domainOf(ctx, 'assign');
    const unchanged = !!(suggestion && domain && was && was.family === ownFamily(ctx, domain, suggestion) && spot(was.wishes) === spot(suggestion.wishes));
    ui.draftFor = null;
    sessionStorage.removeItem(draftKey);
    ui.note = unchanged ? 'same' : 'back';
    ui.noteN = (ui.noteN || 0) + 1; // a new line each time (it drops in again)
    ctx.render();
  }
}
