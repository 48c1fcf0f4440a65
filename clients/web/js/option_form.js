// A room's settings form (the picker's and the lobby's, screens.js) while the host changes it: the
// estimate of the game's length follows the settings, and one switch serves a family: "Time for a
// turn" set to no limit takes the game's other time limits along (followTurnLimit in
// catalogue.js), unless the host set one of them by hand under "More settings"; set back to a
// limit, they return to what they were. What the host picked is kept (store.optionDraft, per form
// and game), so that a redraw of the page (a language switch, someone taking a seat in the lobby)
// does not put the settings back to the defaults (screens.js draws the form from it).
import { defaultsOf, optionSpecs } from './options.js';
import { estimateText, readOptions } from './screens.js';
import { games, store } from './state.js';

export function followOptionForms() {
  document.addEventListener('change', (ev) => {
    const fieldset = ev.target.closest?.('fieldset.options');
    const estimate = fieldset?.querySelector('.estimate');
    if (!estimate) return;
    const game = fieldset.dataset.game;
    const form = fieldset.closest('form')?.id;
    const old = store.optionDraft;
    const draft = old?.form === form && old.game === game ? old : { form, game, byHand: [], before: {} };
    const followers = games[game]?.followTurnLimit || [];
    const name = ev.target.dataset?.opt;
    if (followers.includes(name) && !draft.byHand.includes(name)) draft.byHand.push(name);
    if (name === 'mainTimeoutSec') {
      for (const f of followers) {
        const el = fieldset.querySelector(`select[data-opt="${f}"]`);
        if (!el || draft.byHand.includes(f)) continue;
        if (ev.target.value === '"off"') {
          if (!(f in draft.before)) draft.before[f] = el.value;
          el.value = '"off"';
        } else if (f in draft.before) {
          el.value = draft.before[f];
          delete draft.before[f];
        }
      }
    }
    draft.values = readOptions(fieldset);
    store.optionDraft = draft;
    estimate.textContent = estimateText(game, { ...defaultsOf(optionSpecs(store.welcome, game)), ...readOptions(fieldset) });
  });
}
