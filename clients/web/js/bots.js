// The host's choice of computer player (issue 31). "Add a computer player" opens two choices, each
// with one line of explanation: gentle (plays kindly and makes mistakes, so a family with children
// usually wins) and fair (plays like an attentive person). The seat then shows the level
// (presence.js, stateText, from the room's seats[i].bot_level).
import { t } from './i18n.js';
import { store } from './state.js';
import { esc } from './util.js';

const levels = [
  { level: 'gentle', icon: '🙂' },
  { level: 'fair', icon: '🎯' },
];

export function botPickHtml() {
  if (!store.pickingBot) return '';
  return `<div class="bot-pick" role="group" aria-labelledby="bot-pick-title" data-testid="bot-pick">
    <p id="bot-pick-title" class="bot-pick-title">${esc(t('bots.which'))}</p>
    ${levels.map(({ level, icon }) => `<button class="bot-choice" data-act="add-bot-level" data-level="${level}" data-testid="add-bot-${level}">
      <span class="bot-choice-name"><span aria-hidden="true">${icon}</span> ${esc(t(`bots.${level}`))}</span>
      <span class="bot-choice-why">${esc(t(`bots.${level}_why`))}</span></button>`).join('')}
    <button class="small" data-act="cancel-bot">${esc(t('bots.cancel'))}</button>
  </div>`;
}

// The lobby's actions for it; app.js adds them to its own.
export function botActions(send, render) {
  return {
    async 'add-bot'() {
      store.pickingBot = true;
      render();
      document.querySelector('[data-testid="bot-pick"]')?.scrollIntoView({ block: 'nearest' });
    },
    async 'add-bot-level'(el) {
      store.pickingBot = false;
      render();
      await send({ type: 'add_bot', level: el.dataset.level }).catch(() => {});
    },
    async 'cancel-bot'() {
      store.pickingBot = false;
      render();
    },
  };
}
