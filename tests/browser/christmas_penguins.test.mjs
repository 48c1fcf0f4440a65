// Christmas Penguins in two browsers: setup and moves are made by clicking highlighted floes (a
// move is checked against the log), a water channel is built in channel mode (only floes on edges
// that legal lists can be clicked; the channel appears on the board), and the player who is not on
// turn shouts "Stop!" with the big button and is told at once that the claim was granted. The game
// is played to the results.
//
// The screen: the board grows to the space it has (well above its old 286 px at 1024 px wide), a
// figure that moves slides from floe to floe (and nothing slides under reduced motion), the figure
// that moves now and its destinations are told apart from the rest, and on both phone sizes no
// phase of the game scrolls sideways.
//
// The words (second newcomer trial): in the "Stop!" window after a roll the turn bar names the
// roller and the roll the die shows (not the stone holder the prompt waits on); "Stop!" comes with
// what it does, agreeing with the die; log lines keep their words as the board changes and after a
// reload, and the log replays to the board on screen; each present to steal says its worth; the
// picker's "Time for a turn" set to no limit takes the other limits along (both games), and a game
// without a time limit shows no countdown but in the "Stop!" window.
import assert from 'node:assert/strict';
import { assertCleanText, assertNoPageErrors, assertNoSideScroll, createRoom, joinByInvite, newPlayer, phoneSizes, run, screenshot, sleep } from './lib.mjs';
import { brokenWords } from './text_checks.mjs';

const pick = (n) => Math.floor(Math.random() * n);
// A "Stop!" in the log or a banner, in either language.
const stopLine = /shouts "Stop!"|may play a stone now|ruft „Stopp!“|darf jetzt einen Stein spielen/;
// The new Santa's own banner, in either language, and everyone else's.
const youSanta = /^🎅 (You are Santa now! Catch the penguins\.|Du bist jetzt der Weihnachtsmann! Fang die Pinguine\.)$/;
const youSantaLog = /^(You are Santa now! Catch the penguins\.|Du bist jetzt der Weihnachtsmann! Fang die Pinguine\.)$/;

// A browser of its own; `reducedMotion: 'reduce'` plays the player who switched motion off,
// `hasTouch` a phone's touch screen. Every
// slide (motion.js calls Element.animate) is counted in window.flips, by the piece's key.
function player(browser, name, options = {}) {
  return newPlayer(browser, name, {
    reducedMotion: 'no-preference',
    ...options,
    init: () => {
      window.flips = [];
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (...args) {
        if (this.dataset?.flip) window.flips.push(this.dataset.flip);
        return animate.apply(this, args);
      };
    },
  });
}

// A screenshot once the slides and the die's tumble are over (the gold ring pulses on: skipped).
async function shot(page, file) {
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => {}))));
  await screenshot(page, file);
}

// Waits until the page has shown a moment banner matching `re` (moments.js keeps the last few).
async function shownMoment(page, re) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const shown = JSON.parse((await page.getByTestId('moment').getAttribute('data-shown')) || '[]');
    if (shown.some((s) => re.test(s))) return;
    if (Date.now() > deadline) throw new Error(`no moment ${re} on ${page.playerName}'s screen: ${JSON.stringify(shown)}`);
    await sleep(100);
  }
}

// What the page shows at one moment (read at once, so that a push cannot fall between two reads):
// the phase, the turn bar, the die, the "Stop!" offer and its words, whose turn it is.
function snapshot(page) {
  return page.evaluate(() => {
    const text = (sel) => document.querySelector(sel)?.textContent.trim() ?? null;
    const onTurn = document.querySelector('.cp-player.on-turn');
    return {
      phase: document.querySelector('.cp-layout')?.dataset.phase ?? null,
      over: Boolean(document.querySelector('[data-testid="results"]')),
      turn: text('#screen .turn-bar .turn'),
      what: text('#screen .turn-bar .what'),
      countdown: Boolean(document.querySelector('#screen .turn-bar .countdown')),
      die: document.querySelector('[data-testid="cp-die"]')?.getAttribute('aria-label') ?? null,
      stop: Boolean(document.querySelector('[data-testid="stop"]')),
      stopWhy: text('[data-testid="stop-why"]'),
      onTurnMe: Boolean(onTurn?.classList.contains('me')),
      onTurnName: onTurn?.querySelector('.who strong')?.textContent.replace(/ \((you|du)\)$/, '') ?? null,
    };
  });
}
// The player's own move in their own log, in the second person.
const ownMove = /^(You move to|Du ziehst auf) /;
const rolledIn = (s) => s?.match(/rolled an? (\d)|eine (\d) gewürfelt/)?.slice(1).find(Boolean) ?? null;
const dieIn = (s) => s?.match(/^(?:Die|Würfel): (\d)$/)?.[1] ?? null;

// The turn bar names whose turn it is, also in the "Stop!" window after a roll (which waits on the
// stone holders): the roller, with the roll the die shows. "Stop!" is offered with its meaning,
// and what it says agrees with the die: the roll it shows, or that nobody has rolled yet.
// Returns the snapshot.
async function checkTurn(page, seen) {
  const s = await snapshot(page);
  if (!s.phase || s.over) return s;
  const where = `${page.playerName} in ${s.phase}: bar "${s.turn}" / "${s.what}", die "${s.die}", stop "${s.stopWhy}"`;
  if (s.phase === 'reaction') {
    if (s.onTurnMe) assert.match(s.turn, /^(Your turn!|Du bist dran!|Your turn: one moment|Dein Zug: einen Moment)$/, where);
    else assert.ok(s.turn.includes(s.onTurnName), `the bar names the roller: ${where}`);
    assert.ok(dieIn(s.die), `the die shows the roll in the "Stop!" window: ${where}`);
    assert.equal(rolledIn(s.what), dieIn(s.die), `the bar names the roll the die shows: ${where}`);
    assert.match(s.what, /"Stop!"|„Stopp!“/, where);
    seen?.add('reaction');
  }
  if (s.stop) {
    assert.ok(s.stopWhy, `"Stop!" comes with what it does: ${where}`);
    const said = rolledIn(s.stopWhy);
    if (said) assert.equal(said, dieIn(s.die), `"Stop!" names the roll the die shows: ${where}`);
    if (!dieIn(s.die)) {
      assert.match(s.die, /not rolled yet|noch nicht gewürfelt/i, where);
      if (s.phase === 'roll') assert.match(s.stopWhy, /not rolled yet|Before you roll|noch nicht gewürfelt|Bevor du würfelst/i, where);
    }
    seen?.add(dieIn(s.die) ? 'stop after a roll' : 'stop before a roll');
  }
  return s;
}

// The log's lines (newest first), and a check that the lines shown before are still there with
// the same words: a line keeps what it said when it happened, however the board changes since.
async function logLines(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid="log"] li')].map((li) => li.textContent));
}
function assertLogKept(before, after, where) {
  assert.ok(after.length >= before.length, `${where}: the log lost lines (${before.length} -> ${after.length})`);
  const tail = after.slice(after.length - before.length);
  for (let i = 0; i < before.length; i++) {
    assert.equal(tail[i], before[i], `${where}: a log line changed its words`);
  }
}

// One step for `page` if it has something to do; returns what it did, or null.
async function step(page, state) {
  const stop = page.getByTestId('stop');
  if (!state.stopped && (await stop.count())) {
    const onTurn = await page.locator('.cp-player.me.on-turn').count();
    if (!onTurn) {
      // The reaction window may close between seeing the button and clicking it.
      const clicked = await stop.click({ timeout: 1000 }).then(() => true, () => false);
      if (clicked) return 'stop';
    }
  }
  if (!(await page.locator('.turn-bar.mine').count())) return null;
  try {
    const channelMode = page.getByRole('button', { name: /Build a water channel|Wasserrinne bauen/ });
    if (!state.channel && (await channelMode.count())) {
      const before = await page.locator('.cp-board .channel').count();
      const builtBefore = await page.getByTestId('log').getByText(/^(You build a water channel|Du baust eine Wasserrinne)$/).count();
      await channelMode.click({ timeout: 1000 });
      const first = page.locator('.cp-board .floe.mode').first();
      const a = await first.getAttribute('data-testid');
      await first.click({ timeout: 1000 });
      // Now only the floes across a listed edge from the first one (and the first, to undo).
      const partners = page.locator(`.cp-board .floe.mode:not([data-testid="${a}"])`);
      const n = await partners.count();
      assert.ok(n >= 1 && n <= 6, `${n} floes offered across an edge from ${a}`);
      await partners.nth(pick(n)).click({ timeout: 1000 });
      // The builder's own log says it in the second person (issue 31): one line more.
      const built = page.getByTestId('log').getByText(/^(You build a water channel|Du baust eine Wasserrinne)$/);
      const until = Date.now() + 5000;
      while ((await built.count()) <= builtBefore && Date.now() < until) await sleep(50);
      assert.ok((await built.count()) > builtBefore, 'the log says "You build a water channel"');
      assert.equal(await page.locator('.cp-board .channel').count(), before + 1, 'the channel is drawn on the board');
      state.channel = true;
      return 'channel';
    }
    const targets = page.locator('.cp-board .floe.target');
    const n = await targets.count();
    if (n) {
      const phase = await page.locator('.cp-layout').getAttribute('data-phase');
      const floe = targets.nth(pick(n));
      const id = Number((await floe.getAttribute('data-testid')).replace('floe-', ''));
      const movesBefore = await page.getByTestId('log').getByText(ownMove).count();
      if (phase === 'move') {
        // Which figure moves, in words and on the board: one figure has the gold ring (unless it
        // is the penguin still in the hut, whose floe is marked instead).
        const hint = await page.getByTestId('cp-move-hint').textContent();
        assert.match(hint, /gold/, `the hint says which figure moves: ${hint}`);
        const marked = (await page.locator('.cp-board .piece.moving').count()) + (await page.locator('.cp-board .floe.from').count());
        // The screen may have moved on meanwhile (the state after the last click arrived): look again.
        if (!marked && (await page.locator('.cp-layout').getAttribute('data-phase')) !== 'move') return null;
        assert.ok(marked >= 1, 'the moving figure is marked');
        // A penguin may move onto Santa's floe (and is caught there): that floe is marked red and
        // the hint says why; no other floe is.
        const seen = await page.evaluate(() => ({ // one look at the page, so that no state lands between
          phase: document.querySelector('.cp-layout')?.dataset.phase,
          santaTarget: document.querySelectorAll('.cp-board .floe.target [data-flip="cp-santa"]').length,
          danger: document.querySelectorAll('.cp-board .floe.danger').length,
          hint: document.querySelector('[data-testid="cp-move-hint"]')?.textContent || '',
        }));
        if (seen.phase === 'move') {
          assert.equal(seen.danger, seen.santaTarget, 'only Santa\'s floe, when offered, is marked as a danger');
          if (seen.danger) assert.match(seen.hint, /red floe is Santa's|rote Scholle ist die des Weihnachtsmanns/);
        }
        const lang = await page.evaluate(() => document.documentElement.lang);
        if (!state.shotMove?.has(lang)) {
          await floe.hover();
          // The destinations, highlighted, and the arrow to the one under the pointer.
          await shot(page, `christmas-penguins${state.tag || ''}${lang === 'de' ? '-de' : ''}.png`);
          (state.shotMove ||= new Set()).add(lang);
        }
        // The gold ring pulses, unless motion is switched off.
        const running = await page.evaluate(() => document.getAnimations().length);
        if (state.reduced?.has(page)) assert.equal(running, 0, 'no animation runs under reduced motion');
      }
      await floe.click({ timeout: 1000 });
      return phase === 'move' ? { move: id, movesBefore } : 'floe';
    }
    const take = page.getByRole('button', { name: /Take the stone|Stein nehmen/ });
    if (await take.count()) {
      // Why one would take it, in one line.
      const why = page.getByTestId('cp-stone-why');
      assert.equal(await why.count(), 1, 'the screen says what a stone is for');
      assert.match(await why.textContent(), /shout "Stop!"|„Stopp!“ rufen/);
      await take.click({ timeout: 1000 });
      return 'button';
    }
    // Which present to steal: each choice says what it is worth now.
    const steals = page.locator('.cp-steal');
    if (await steals.count()) {
      for (const w of await page.locator('.cp-steal .cp-worth').allTextContents()) {
        assert.match(w, /^\+\d (point|points|Punkt|Punkte) · /, `a present to steal says its worth: ${w}`);
      }
      const lang = await page.evaluate(() => document.documentElement.lang);
      if (!state.stealShot?.has(lang)) {
        (state.stealShot ||= new Set()).add(lang);
        await shot(page, `christmas-penguins-steal${state.tag || ''}${lang === 'de' ? '-de' : ''}.png`);
      }
      state.stealSeen = true;
    }
    const buttons = page.locator('.actions button.action');
    const k = await buttons.count();
    if (!k) return null;
    const primary = page.locator('.actions button.action.primary');
    await ((await primary.count()) ? primary.first() : buttons.nth(pick(k))).click({ timeout: 1000 });
    return 'button';
  } catch (err) {
    if (err instanceof assert.AssertionError) throw err;
    return null; // the screen changed under the click
  }
}

await run('browser: Christmas Penguins click to move, Stop! granted, the board grows, figures slide', async ({ browser, baseUrl }) => {
  const oma = await player(browser, 'Oma');
  const ben = await player(browser, 'Ben', { reducedMotion: 'reduce', locale: 'de-DE' });
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Christmas Penguins',
    { maxPlayers: 2, maxRounds: 12, stones: '4/4/4', reactionWindowMs: 3000 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  // A relative who only watches, on a 1024 px screen: the "Stop!" banner reaches spectators too.
  const clara = await player(browser, 'Clara', { viewport: { width: 1024, height: 768 } });
  await clara.page.goto(`${baseUrl}/watch/${code}`);
  await clara.page.fill('#name', 'Clara');
  await clara.page.locator('button[data-as="spectator"]').click();
  await oma.page.getByTestId('watchers').getByText('Watching: Clara').waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();
  await oma.page.locator('.cp-board').waitFor();

  // The board takes the width it has: at 1024 px wide it was 286 px.
  await clara.page.locator('.cp-board').waitFor();
  const width = await clara.page.locator('.cp-board').evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(width >= 500, `the board is ${width} px wide at 1024 px`);
  await shot(clara.page, 'christmas-penguins-1024.png');
  for (const p of [oma.page, clara.page]) {
    const b = await p.locator('.cp-board').evaluate((el) => el.getBoundingClientRect());
    const vh = await p.evaluate(() => window.innerHeight);
    assert.ok(b.height <= vh, `the board (${b.height} px) fits the screen's height (${vh} px)`);
  }

  // Setting up: the gold frame is on the card of the player the game waits for (placing a
  // penguin), not on Santa's whose turn follows, on every screen; that player is told the goal, and
  // each card names its presents and the water channels still to build.
  let placer = null;
  for (const until = Date.now() + 10000; !placer && Date.now() < until; await sleep(50)) {
    for (const p of [oma.page, ben.page]) {
      if ((await p.locator('.cp-layout[data-phase="place_penguin"]').count()) && (await p.locator('.turn-bar.mine').count())) placer = p;
    }
  }
  assert.ok(placer, 'someone places a penguin first');
  const other = placer === oma.page ? ben.page : oma.page;
  await placer.locator('.cp-player.me.active').waitFor({ timeout: 5000 });
  await other.locator('.cp-player.active:not(.me)').waitFor({ timeout: 5000 });
  await clara.page.locator('.cp-player.active:not(.santa)').waitFor({ timeout: 5000 });
  for (const p of [placer, other, clara.page]) {
    assert.equal(await p.locator('.cp-player.active').count(), 1, `one card is framed on ${p.playerName}'s screen`);
    assert.equal(await p.locator('.cp-player.santa.active').count(), 0, `Santa's card is not framed while a penguin is placed (${p.playerName})`);
  }
  assert.equal(await other.locator('.cp-player.me.active').count(), 0, 'the one who waits is not framed');
  assert.match(await placer.getByTestId('cp-goal').textContent(), /^(Goal: steal presents from under the tree|Ziel: Geschenke unterm Baum stibitzen)/);
  assert.match(await placer.locator('.cp-player.me .cp-channels').textContent(), /^(Water channels you can still build|Wasserrinnen, die du noch bauen kannst): \d+$/);
  assert.match(await placer.locator('.cp-player.me .cp-presents').getAttribute('aria-label'), /^(Presents|Geschenke): \d+$/);
  assert.match(await other.locator('.cp-player:not(.me) .cp-channels').first().textContent(), /^(Water channels .+ can still build|Wasserrinnen, die .+ noch bauen kann): \d+$/);

  const state = { stopped: false, moved: false, channel: false, reduced: new Set([ben.page]), santaSeen: new Set(), stolenSeen: false,
    barSeen: new Set(), log: null, reloaded: false };
  const deadline = Date.now() + 200000;
  while (Date.now() < deadline) {
    if ((await oma.page.getByTestId('results').count()) && (await ben.page.getByTestId('results').count())) {
      // The results give each player's bonus point in a column (none for the final Santa).
      const bonus = await oma.page.locator('[data-testid^="cp-bonus-"]').allTextContents();
      assert.equal(bonus.length, 2, 'a bonus cell per player');
      assert.ok(bonus.every((b) => /^\+[0-2]$|^none 🎅$/.test(b)), `bonus cells: ${bonus}`);
      // Another game until the "Stop!" window after a roll was caught on screen too (it lasts 3 s:
      // a slow machine's round of checks can miss every one of a game).
      if (state.moved && state.stopped && state.channel && state.reloaded && state.barSeen.has('reaction')) break;
      // The dice gave nobody a stone at the right moment: the host starts another game.
      await oma.page.getByRole('button', { name: 'Play again' }).click();
      await oma.page.getByTestId('results').waitFor({ state: 'detached' });
      // Both are told a new game begins, also the one asked to place a penguin at once (the
      // moments of the new game's first state once pushed it out).
      await oma.page.locator('#moment[data-shown*="A new game begins"]').waitFor({ state: 'attached', timeout: 10000 });
      await ben.page.locator('#moment[data-shown*="Ein neues Spiel beginnt"]').waitFor({ state: 'attached', timeout: 10000 });
      state.log = null;
      continue;
    }
    // Whose turn it is and what "Stop!" means, on every screen; the log keeps its words.
    let watched;
    for (const p of [oma.page, ben.page, clara.page]) {
      const s = await checkTurn(p, state.barSeen);
      if (p === clara.page) watched = s;
      // The "Stop!" window as the one who did not roll sees it (and a watcher).
      const tag = p === ben.page ? 'shot-reaction-de' : p === clara.page ? 'shot-reaction-watching' : 'shot-reaction';
      if (s.phase === 'reaction' && !s.onTurnMe && (s.stop || p === clara.page) && !state.barSeen.has(tag)) {
        state.barSeen.add(tag);
        await shot(p, `christmas-penguins-${tag.slice(5)}.png`);
      }
    }
    const lines = await logLines(clara.page);
    if (state.log) assertLogKept(state.log, lines, "Clara's log");
    state.log = lines;
    // A reload sends the log from the start of the game: the same words as before. Done at the
    // start of a turn, with no banner still to be checked on Clara's screen (a reload drops them).
    const recent = lines.slice(0, 15).join('\n');
    if (!state.reloaded && watched?.phase === 'roll' && lines.length >= 25 && !/steals|is Santa now|"Stop!"/.test(recent)) {
      await clara.page.reload();
      await clara.page.locator('.cp-board').waitFor();
      await clara.page.waitForFunction((n) => document.querySelectorAll('[data-testid="log"] li').length >= n, state.log.length);
      const again = await logLines(clara.page);
      assertLogKept(state.log, again, "Clara's log after a reload");
      console.log(`after a reload Clara's log has the same ${state.log.length} lines (${again.length} now)`);
      state.log = again;
      state.reloaded = true;
    }
    let acted = false;
    for (const page of [oma.page, ben.page]) {
      const did = await step(page, state);
      if (!did) continue;
      acted = true;
      if (did === 'stop') {
        const result = page.getByTestId('stop-result');
        await page.locator('[data-testid="stop-result"]:not([data-status="sent"])').waitFor({ timeout: 5000 });
        const status = await result.getAttribute('data-status');
        assert.ok(['granted', 'queued'].includes(status), `stop claim was ${status}`);
        if (status === 'queued') await page.locator('[data-testid="stop-result"][data-status="granted"]').waitFor({ timeout: 10000 });
        const other = page === oma.page ? ben.page : oma.page;
        await other.getByTestId('log').getByText(stopLine).first().waitFor();
        // Everyone sees the moment: the player not on turn's opponent and the spectator.
        for (const p of [other, clara.page]) await shownMoment(p, stopLine);
        await page.getByTestId('stones-help').waitFor();
        await shot(page, `christmas-penguins-stop${page === ben.page ? '-de' : ''}.png`);
        state.stopped = true;
      } else if (did.move !== undefined && !state.moved) {
        // One more "You move to" line in the mover's own log (the second person, issue 31), naming
        // the floe: the tree's or the hut's, or by the number drawn on it. A figure stands on
        // exactly the floe that was clicked.
        const lines = page.getByTestId('log').getByText(ownMove);
        const until = Date.now() + 5000;
        while ((await lines.count()) <= did.movesBefore && Date.now() < until) await sleep(50);
        assert.ok((await lines.count()) > did.movesBefore, 'the log shows the move');
        const text = await lines.first().textContent();
        const number = await page.getByTestId(`floe-${did.move}`).locator('.floe-no').textContent();
        assert.equal(number, String(did.move + 1), 'the floe shows its number');
        assert.match(text, new RegExp(`^(You move to|Du ziehst auf) ((floe|Scholle) ${number} |the tree's floe|the hut's floe|die Scholle mit)`), `the log line names the floe: ${text}`);
        const floe = page.getByTestId(`floe-${did.move}`);
        assert.ok((await floe.locator('[data-flip^="cp-penguin-"], [data-flip="cp-santa"]').count()) > 0, `a figure stands on floe ${did.move}`);
        state.moved = true;
      }
    }
    // When a player becomes Santa (if this game gets there), their screen says so in the second
    // person, and their own card too; a spectator reads it in the third person.
    for (const page of [oma.page, ben.page]) {
      if (state.santaSeen.has(page) || !(await page.getByTestId('log').getByText(youSantaLog).count())) continue;
      state.santaSeen.add(page);
      await shownMoment(page, youSanta);
      await shownMoment(clara.page, /^🎅 .+ is Santa now\.$/);
      if (await page.locator('.cp-player.me.santa').count()) assert.equal(await page.getByTestId('cp-you-santa').count(), 1, 'the new Santa\'s card says "You are Santa"');
      await shot(page, `christmas-penguins-santa${page === ben.page ? '-de' : ''}.png`);
    }
    // A stolen present is a moment, in a short banner.
    if (!state.stolenSeen && (await clara.page.getByTestId('log').getByText(/ steals an? \w+ present!$/).count())) {
      state.stolenSeen = true;
      await shownMoment(clara.page, /^🎁 .+ steals an? \w+ present!$/);
      const shown = JSON.parse((await clara.page.getByTestId('moment').getAttribute('data-shown')) || '[]').filter((x) => x.startsWith('🎁'));
      for (const text of shown) assert.ok(text.length <= 50, `the banner "${text}" is short`);
    }
    if (!acted) await sleep(50);
  }
  console.log(`new Santa told on: ${[...state.santaSeen].map((p) => p.playerName).join(', ') || 'nobody (no catch this time)'}; stolen present banner: ${state.stolenSeen}`);
  assert.ok(state.moved, 'a move was made by clicking a highlighted floe');
  assert.ok(state.channel, 'a water channel was built by clicking two floes');
  assert.ok(state.stopped, 'the player not on turn shouted "Stop!"');
  assert.ok(state.reloaded, "Clara's page was reloaded and kept its log's words");
  console.log(`turn bar and "Stop!" checked in: ${[...state.barSeen].join(', ')}; a present to steal: ${Boolean(state.stealSeen)}`);
  assert.ok(state.barSeen.has('reaction'), 'the "Stop!" window after a roll was seen');
  // How far Santa is from a penguin, as the "Stop!" window says it: over the ice, around water and
  // channels. Two rows: 0 (-1,0), 1 (0,0), 2 (1,0) above 3 (-1,1), 4 (0,1); Santa on 0, the penguin
  // on 2: two floes away, three around a channel between 0 and 1, out of reach with 0 cut off.
  const steps = await oma.page.evaluate(async () => {
    const { santaSteps } = await import('/js/games/christmas_penguins.js');
    const cells = [[-1, 0], [0, 0], [1, 0], [-1, 1], [0, 1]];
    return {
      open: santaSteps({ cells, santa: 0, channels: [] }, 2),
      channel: santaSteps({ cells, santa: 0, channels: [{ a: 1, b: 0 }] }, 2),
      cut: santaSteps({ cells, santa: 0, channels: [{ a: 0, b: 1 }, { a: 3, b: 0 }] }, 2),
    };
  });
  assert.deepEqual(steps, { open: 2, channel: 3, cut: null });
  await oma.page.getByTestId('results').waitFor({ timeout: 5000 });
  await ben.page.getByTestId('results').waitFor({ timeout: 5000 });
  await shot(oma.page, 'christmas-penguins-results.png');
  // The log replays to the board on screen (the words of its lines are told from that replay):
  // the ice, the tree, Santa, the bear and every penguin where the game left them.
  for (const p of [oma.page, clara.page]) {
    const replay = await p.evaluate(async () => {
      const { store } = await import('/js/state.js');
      const { boardAfterLog } = await import('/js/games/christmas_penguins.js');
      const v = store.state.view;
      const b = boardAfterLog(store.log, v);
      const onBoard = (x) => (typeof x === 'number' ? x : null);
      return {
        replayed: b.now ? 'not replayed' : JSON.stringify([b.cells, b.tree, b.santa, b.bear, v.players.map((q) => onBoard(b.penguins[q.seat]))]),
        screen: JSON.stringify([v.cells, v.tree, v.santa, v.bear, v.players.map((q) => onBoard(q.penguin))]),
      };
    });
    assert.equal(replay.replayed, replay.screen, `${p.playerName}: the log replays to the board on screen`);
  }
  // The counts on the coloured chips (presents, stones) read at WCAG AA: 4.5:1 at least.
  const chips = await oma.page.locator('.present, .stone-chip').evaluateAll((els) => els.map((el) => {
    const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((x) => x / 255).map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(el);
    const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
    return { text: el.textContent, ratio: (a + 0.05) / (b + 0.05) };
  }));
  assert.ok(chips.length > 0, 'there are chips on the results screen');
  for (const c of chips) assert.ok(c.ratio >= 4.5, `chip "${c.text}" has contrast ${c.ratio.toFixed(2)}`);
  // Figures slid from floe to floe on the screens with motion, and never under reduced motion.
  const slid = (p) => p.evaluate(() => window.flips.filter((k) => /^cp-(penguin-\d+|santa|bear|tree)$/.test(k)).length);
  assert.ok((await slid(oma.page)) > 0, "figures slide on Oma's screen");
  assert.ok((await slid(clara.page)) > 0, "figures slide on Clara's screen");
  assert.equal(await ben.page.evaluate(() => window.flips.length), 0, 'nothing slides on Ben\'s screen (reduced motion)');
  assertNoPageErrors(oma.page, ben.page, clara.page);
});

await run('browser: Christmas Penguins on phones, no sideways scroll in any phase', async ({ browser, baseUrl }) => {
  // Oma in English on the larger phone, Ben in German on the smaller one, on the large ice (61
  // floes, as for six players).
  const oma = await player(browser, 'Oma', { viewport: phoneSizes[0], hasTouch: true });
  const ben = await player(browser, 'Ben', { viewport: phoneSizes[1], locale: 'de-DE', hasTouch: true });

  // One switch for the family's time limits: "Time for a turn" set to no limit takes the other
  // limits along (the choices in a turn, playing a stone after "Stop!"), but not one the host set
  // by hand under "More settings", nor the short window to shout "Stop!" after a roll (a rule of
  // the game). Set back to a limit, they return. Happy Holidays does the same.
  await oma.page.goto(`${baseUrl}/`);
  await oma.page.fill('#name', 'Oma Inge');
  const value = (opt) => oma.page.locator(`#opt-${opt}`).inputValue();
  for (const [title, followers] of [['Happy Holidays', ['subPromptTimeoutSec']], ['Christmas Penguins', ['subPromptTimeoutSec', 'stopSeconds']]]) {
    await oma.page.getByRole('button', { name: new RegExp(title) }).click();
    await oma.page.locator('#opt-mainTimeoutSec').waitFor();
    const before = Object.fromEntries(await Promise.all(followers.map(async (f) => [f, await value(f)])));
    assert.ok(Object.values(before).every((x) => x !== '"off"'), `${title}: the limits start on`);
    await oma.page.locator('#opt-mainTimeoutSec').selectOption('"off"');
    for (const f of followers) assert.equal(await value(f), '"off"', `${title}: ${f} follows "no limit"`);
    await oma.page.locator('#opt-mainTimeoutSec').selectOption('60');
    for (const f of followers) assert.equal(await value(f), before[f], `${title}: ${f} is back to its limit`);
    if (title === 'Christmas Penguins') {
      const window = await value('reactionWindowMs');
      await oma.page.locator('.options summary').click();
      await oma.page.locator('#opt-stopSeconds').selectOption('30');
      await oma.page.locator('#opt-mainTimeoutSec').selectOption('"off"');
      assert.equal(await value('subPromptTimeoutSec'), '"off"', 'the choices follow "no limit"');
      assert.equal(await value('stopSeconds'), '30', 'a limit set by hand stays');
      assert.equal(await value('reactionWindowMs'), window, 'the window to shout "Stop!" stays');
      // A redraw of the page (here: the language switched there and back) keeps what was picked.
      await oma.page.locator('#lang').click();
      await oma.page.getByText('Weitere Einstellungen').waitFor();
      await oma.page.locator('#lang').click();
      await oma.page.getByText('More settings').waitFor();
      assert.deepEqual([await value('mainTimeoutSec'), await value('subPromptTimeoutSec'), await value('stopSeconds')], ['"off"', '"off"', '30'],
        'the settings survive a redraw');
      await oma.page.locator('#opt-mainTimeoutSec').selectOption('120');
      assert.equal(await value('subPromptTimeoutSec'), before.subPromptTimeoutSec, 'back to a limit after the redraw');
    }
  }

  // No time limit, so no countdown but in the short window to shout "Stop!" after a roll.
  const code = await createRoom(oma.page, baseUrl, 'Oma Inge', 'Christmas Penguins',
    { mainTimeoutSec: 'off', maxPlayers: 2, maxRounds: 6, stones: '4/4/4', reactionWindowMs: 3000, boardRadius: 4 });
  await joinByInvite(ben.page, baseUrl, code, 'Ben');
  await oma.page.getByText('Ben', { exact: true }).waitFor();
  await oma.page.getByRole('button', { name: 'Start the game' }).click();

  const pages = [oma.page, ben.page];
  const checked = new Map(pages.map((p) => [p, new Set()]));
  const shotTaken = new Set();
  // Every phase a page shows is checked once (the phase is on the board's layout).
  const countdowns = new Set();
  const check = async (page) => {
    const s = await checkTurn(page);
    if (s.countdown && !s.over) {
      assert.equal(s.phase, 'reaction', `${page.playerName}: a countdown without a time limit in ${s.phase} ("${s.turn}")`);
      countdowns.add(s.phase);
    }
    const results = await page.getByTestId('results').count();
    const phase = results ? 'over' : await page.locator('.cp-layout').getAttribute('data-phase', { timeout: 1000 }).catch(() => null);
    if (!phase || checked.get(page).has(phase)) return;
    const size = await page.evaluate(() => `${window.innerWidth}x${window.innerHeight}`);
    await assertNoSideScroll(page, `${phase} at ${size}`);
    // The results break no word in the middle ("Weihnacht / smann" at 390 px, issue 31).
    if (phase === 'over') assert.deepEqual(await brokenWords(page, '#screen'), [], `${page.playerName}: no word broken in the middle of the results at ${size}`);
    // The sticky turn bar (with Santa's "You are Santa: …" prompts) takes at most a fifth of the screen.
    const bar = await page.evaluate(() => ({ h: document.querySelector('#screen .turn-bar')?.getBoundingClientRect().height || 0, H: window.innerHeight }));
    assert.ok(bar.h <= bar.H / 5, `${phase} at ${size}: the turn bar is ${bar.h} px high, more than a fifth of ${bar.H} px`);
    // The "Stop!" button fits the screen's width when it is offered.
    const stop = page.getByTestId('stop');
    if (await stop.count()) {
      const b = await stop.boundingBox().catch(() => null);
      if (b) assert.ok(b.x >= 0 && b.x + b.width <= Number(size.split('x')[0]), `the Stop! button fits at ${size}`);
    }
    if (['reaction', 'move', 'stopped', 'bear_move', 'over'].includes(phase) && !shotTaken.has(`${phase}-${size}`) && (phase !== 'move' || await page.locator('.turn-bar.mine').count())
      && (phase !== 'reaction' || (s.stop && !s.onTurnMe))) {
      shotTaken.add(`${phase}-${size}`);
      await shot(page, `christmas-penguins-phone-${size}-${phase}.png`);
    }
    checked.get(page).add(phase);
  };
  const state = { stopped: false, moved: false, channel: true, tag: '-phone' };
  const want = ['roll', 'move', 'stopped', 'over'];
  const done = () => pages.every((p) => want.every((w) => checked.get(p).has(w)));
  const deadline = Date.now() + 200000;
  while (Date.now() < deadline && !done()) {
    for (const page of pages) await check(page);
    if ((await oma.page.getByTestId('results').count()) && (await ben.page.getByTestId('results').count())) {
      if (done()) break;
      state.stopped = false;
      await oma.page.getByRole('button', { name: 'Play again' }).click();
      await oma.page.getByTestId('results').waitFor({ state: 'detached' });
      continue;
    }
    let acted = false;
    for (const page of pages) {
      const did = await step(page, state);
      if (!did) continue;
      acted = true;
      await check(page);
      if (did === 'stop') {
        await page.locator('.cp-layout[data-phase="stopped"]').waitFor({ timeout: 10000 }).catch(() => {});
        await check(page);
        state.stopped = true;
      }
    }
    if (!acted) await sleep(50);
  }
  console.log(`countdowns seen without a time limit: ${[...countdowns].join(', ') || 'none'}`);
  for (const page of pages) {
    const seen = [...checked.get(page)];
    console.log(`${page.playerName}: checked ${seen.join(', ')}`);
    for (const w of want) assert.ok(seen.includes(w), `${page.playerName}'s phone was checked in the ${w} phase (${seen.join(', ')})`);
  }
  await assertCleanText(ben.page, 'de');
  // Each log says the reader's own rolls in the second person and the other's in the third.
  const logOf = (page) => page.getByTestId('log').locator('li').allTextContents();
  const omaLog = await logOf(oma.page);
  const benLog = await logOf(ben.page);
  assert.ok(omaLog.some((l) => /^You rolled an? \d$/.test(l)) && omaLog.some((l) => /^Ben rolled an? \d$/.test(l)), `Oma's log: ${omaLog.join(' | ')}`);
  assert.ok(!omaLog.some((l) => l.startsWith('Oma Inge ')), `Oma's log names her in the third person: ${omaLog.join(' | ')}`);
  assert.ok(benLog.some((l) => /^Du würfelst eine \d$/.test(l)) && benLog.some((l) => /^Oma Inge würfelt eine \d$/.test(l)), `Ben's log: ${benLog.join(' | ')}`);
  assert.ok(!benLog.some((l) => l.startsWith('Ben ')), `Ben's log names him in the third person: ${benLog.join(' | ')}`);
  // The "How to play" sheet shows the board's own pictures of the pieces.
  const help = ben.page.locator('.turn-bar .help-open');
  if (await help.count()) {
    await help.click();
    await ben.page.locator('.help-sheet .cp-pic').first().waitFor();
    await assertNoSideScroll(ben.page, 'the rules sheet at 360x740');
    await shot(ben.page, 'christmas-penguins-rules-de.png');
    await ben.page.locator('[data-help-close]').first().click();
  }
  assertNoPageErrors(oma.page, ben.page);
});
