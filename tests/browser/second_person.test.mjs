// Every moment is said to the player it concerns in the second person, and to everyone else in
// the third (issue 31): the log lines and banners of all three games, read from the page of the
// player who did it, of the player it was done to, of another player and of a spectator, in
// English and German, through the games' own modules in the page. Also the point-8 words: Happy
// Holidays names the colours of the gifts for everyone ("1 gelbes Geschenk", never "1 Gelb"), a
// Christmas Penguins log line says which floe (its number, drawn on the board), and the German
// results at 390 px break no word in the middle.
import assert from 'node:assert/strict';
import { assertNoPageErrors, assertNoSideScroll, newPlayer, run, screenshot } from './lib.mjs';
import { brokenWords } from './text_checks.mjs';

await run('browser: moments in the second person for the player they concern', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma', { locale: 'de-DE', viewport: { width: 390, height: 844 } });
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();

  const say = (lang) => page.evaluate(async (l) => {
    const i18n = await import('/js/i18n.js');
    i18n.setLang(l);
    const cp = (await import('/js/games/christmas_penguins.js')).createBoard();
    const hh = (await import('/js/games/happy_holidays.js')).createBoard();
    const ub = (await import('/js/games/unterm_baum.js')).createBoard();
    const { showMoments, clearMoments } = await import('/js/moments.js');
    const names = ['Oma Rosi', 'Ben', 'Clara'];
    const ctxFor = (seat, view, extra = {}) => ({ seat, view, legal: [], name: (s) => names[s], who: (s) => names[s], colour: () => '#1d6fd6',
      state: { room: 'T', view, over: false, seq: 9, prompt: null }, ...extra });
    const viewers = { oma: 0, ben: 1, clara: 2, watcher: null };
    const each = (f) => Object.fromEntries(Object.entries(viewers).map(([k, seat]) => [k, f(seat)]));
    const out = {};

    // Christmas Penguins on the small ice (radius 2: 19 floes, numbered by row, then column).
    const cells = [];
    for (let r = -2; r <= 2; r++) for (let q = Math.max(-2, -r - 2); q <= Math.min(2, -r + 2); q++) cells.push([q, r]);
    const player = (seat, penguin, role = 'penguin') => ({ seat, penguin, role, presents: {}, stones: {}, channels_left: 2 });
    // Ben played a red stone: his penguin (on floe 5, id 4) and Oma Rosi's (on id 16) swapped.
    const cpView = { game: 'christmas_penguins', phase: 'roll', active: 1, round: 2, max_rounds: 10, radius: 2, cells, hut: 7, tree: 0, santa: 7, bear: null,
      players: [player(0, 4), player(1, 16), { ...player(2, null, 'santa') }], pool: { red: 2 }, channels: [], stones_on_board: [], loose_presents: [], santa_supply: [] };
    const swap = { kind: 'stone_used', seat: 1, stone: 'red', from: 4, to: 16 };
    out.swap = each((seat) => cp.eventText(swap, ctxFor(seat, cpView)));
    // The banner Oma Rosi sees (the issue's own example: she read "… with Oma Rosi's penguin").
    clearMoments();
    const el = document.getElementById('moment');
    el.dataset.shown = '[]';
    showMoments({ room: 'T', seq: 3, view: cpView, prompt: null, legal: [], events: [swap] }, cp, ctxFor(0, cpView));
    out.swapBanner = el.textContent;
    clearMoments();
    // Santa (Clara) catches Oma Rosi's penguin and takes a red present: told to both, and to Ben.
    const log = [{ kind: 'game_started' }, { kind: 'santa_met', santa_seat: 2, penguin_seat: 0, floe: 4, by: 'santa' },
      { kind: 'present_confiscated', from: 0, colour: 'red', to: 'pool' }];
    out.caught = each((seat) => cp.eventText(log[1], ctxFor(seat, cpView), log, 1));
    out.taken = each((seat) => cp.eventText(log[2], ctxFor(seat, cpView), log, 2));
    out.rolled = each((seat) => cp.eventText({ kind: 'rolled', seat: 0, value: 4 }, ctxFor(seat, cpView)));
    out.stolen = each((seat) => cp.eventText({ kind: 'present_stolen', seat: 0, colour: 'orange' }, ctxFor(seat, cpView)));
    out.pushed = each((seat) => cp.eventText({ kind: 'pushed', seat: 1, from: 3, chain: [5], penguins: [0] }, ctxFor(seat, cpView)));
    // Which floe: a floe on the edge (id 2: the top row's right end) by its number, drawn on the board.
    out.moved = each((seat) => cp.eventText({ kind: 'moved', seat: 0, figure: 'penguin', from: 4, to: 2 }, ctxFor(seat, cpView)));
    out.placed = cp.eventText({ kind: 'penguin_placed', seat: 1, floe: 14 }, ctxFor(null, cpView));
    const svg = new DOMParser().parseFromString(cp.render(ctxFor(1, cpView)), 'text/html');
    out.floeNumbers = [...svg.querySelectorAll('[data-testid^="floe-"]')].map((g) => [g.dataset.testid, g.querySelector('.floe-no')?.textContent]);

    // Happy Holidays: gifts with their colours for everyone; what was done to the viewer is theirs.
    const none = { red: 0, green: 0, blue: 0, yellow: 0 };
    const hhView = { game: 'happy_holidays', phase: 'roll', active: 0, round: 3, max_rounds: 200, tree: { red: 3, green: 3, blue: 3, yellow: 3 }, players: [], last_roll: null };
    const own = { kind: 'banked', seat: 0, sleigh_owner: 0, colour: 'yellow', gifts: { ...none, yellow: 1 }, count: 1 };
    out.bankedOwn = each((seat) => hh.eventText(own, ctxFor(seat, hhView)));
    const other = { kind: 'banked', seat: 0, sleigh_owner: 1, gifts: { ...none, green: 2, blue: 1 }, count: 3 };
    out.bankedOther = each((seat) => hh.eventText(other, ctxFor(seat, hhView)));
    out.toSleigh = each((seat) => hh.eventText({ kind: 'gifts_to_sleigh', seat: 0, colours: ['red', 'yellow'] }, ctxFor(seat, hhView)));
    out.hhRolled = each((seat) => hh.eventText({ kind: 'rolled', seat: 0, face: 'christmas_wish' }, ctxFor(seat, hhView)));
    out.hhTurn = each((seat) => hh.eventText({ kind: 'turn_started', seat: 0, turn: 3, round: 2, has_reindeer: true }, ctxFor(seat, hhView)));
    // The line under the tree about the last roll.
    const hp = (seat) => ({ seat, reindeer: true, score: 0, total_gifts: 0, sleigh: { id: seat, gifts: { ...none } }, stacks: { ...none } });
    const rolledView = { ...hhView, players: [hp(0), hp(1), hp(2)], last_roll: { seat: 0, face: 'christmas_wish' } };
    out.dieCaption = each((seat) => new DOMParser().parseFromString(hh.render(ctxFor(seat, rolledView)), 'text/html').querySelector('.die-caption').textContent);

    // Unterm Baum: whose table filled up and ended the game.
    const ubState = (seat) => ({ ...ctxFor(seat, { game: 'unterm_baum', players: [] }), state: { result: { reason: 'field_full', ended_by: 0 } } });
    out.ubEnd = each((seat) => ub.resultNote(ubState(seat)));
    return out;
  }, lang);

  const de = await say('de');
  // Christmas Penguins: Ben's red stone, as the issue tells it.
  assert.deepEqual(de.swap, {
    oma: 'Ben spielt den Stein in Rot und tauscht den Platz mit deinem Pinguin',
    ben: 'Du spielst den Stein in Rot und tauschst den Platz mit dem Pinguin von Oma Rosi',
    clara: 'Ben spielt den Stein in Rot und tauscht den Platz mit dem Pinguin von Oma Rosi',
    watcher: 'Ben spielt den Stein in Rot und tauscht den Platz mit dem Pinguin von Oma Rosi',
  });
  assert.equal(de.swapBanner, '🪨 Ben spielt den Stein in Rot und tauscht den Platz mit deinem Pinguin');
  assert.deepEqual(de.caught, {
    oma: 'Der Weihnachtsmann (Clara) hat deinen Pinguin erwischt!',
    ben: 'Der Weihnachtsmann (Clara) hat den Pinguin von Oma Rosi erwischt!',
    clara: 'Du bist der Weihnachtsmann und hast den Pinguin von Oma Rosi erwischt!',
    watcher: 'Der Weihnachtsmann (Clara) hat den Pinguin von Oma Rosi erwischt!',
  });
  assert.deepEqual(de.taken, {
    oma: 'Der Weihnachtsmann nimmt dir ein Geschenk in Rot ab',
    ben: 'Der Weihnachtsmann nimmt Oma Rosi ein Geschenk in Rot ab',
    clara: 'Du nimmst Oma Rosi ein Geschenk in Rot ab',
    watcher: 'Der Weihnachtsmann nimmt Oma Rosi ein Geschenk in Rot ab',
  });
  assert.equal(de.rolled.oma, 'Du würfelst eine 4');
  assert.equal(de.rolled.ben, 'Oma Rosi würfelt eine 4');
  assert.equal(de.stolen.oma, 'Du stibitzt ein Geschenk in Orange!');
  assert.equal(de.pushed.oma, 'Ben schiebt deinen Pinguin weg');
  assert.equal(de.pushed.ben, 'Du schiebst Pinguine weg');
  assert.equal(de.pushed.clara, 'Ben schiebt Pinguine weg');
  assert.equal(de.moved.oma, 'Du ziehst auf Scholle 3 am Rand oben rechts');
  assert.equal(de.moved.ben, 'Oma Rosi zieht auf Scholle 3 am Rand oben rechts');
  assert.equal(de.placed, 'Der Pinguin von Ben steht auf Scholle 15 in der Mitte');
  // Every floe carries its number on the board: the one the log names.
  assert.equal(de.floeNumbers.length, 19);
  for (const [id, n] of de.floeNumbers) assert.equal(n, String(Number(id.slice('floe-'.length)) + 1), `${id} shows its number`);
  // Happy Holidays: "1 gelbes Geschenk", never "1 Gelb"; the colours for everyone.
  assert.deepEqual(de.bankedOwn, {
    oma: 'Du stapelst 1 gelbes Geschenk von deinem eigenen Schlitten',
    ben: 'Oma Rosi stapelt 1 gelbes Geschenk vom eigenen Schlitten',
    clara: 'Oma Rosi stapelt 1 gelbes Geschenk vom eigenen Schlitten',
    watcher: 'Oma Rosi stapelt 1 gelbes Geschenk vom eigenen Schlitten',
  });
  assert.deepEqual(de.bankedOther, {
    oma: 'Du stapelst 2 grüne und 1 blaues Geschenk vom Schlitten von Ben',
    ben: 'Oma Rosi stapelt 2 grüne und 1 blaues Geschenk von deinem Schlitten',
    clara: 'Oma Rosi stapelt 2 grüne und 1 blaues Geschenk vom Schlitten von Ben',
    watcher: 'Oma Rosi stapelt 2 grüne und 1 blaues Geschenk vom Schlitten von Ben',
  });
  assert.equal(de.toSleigh.oma, 'Auf deinen Schlitten: 1 rotes und 1 gelbes Geschenk');
  assert.equal(de.toSleigh.ben, 'Auf den Schlitten von Oma Rosi: 1 rotes und 1 gelbes Geschenk');
  assert.equal(de.hhRolled.oma, 'Du würfelst Weihnachtswunsch');
  assert.equal(de.dieCaption.oma, 'Du würfelst Weihnachtswunsch');
  assert.equal(de.dieCaption.ben, 'Oma Rosi würfelt Weihnachtswunsch');
  assert.equal(de.hhTurn.oma, 'Du bist dran');
  assert.equal(de.hhTurn.watcher, 'Oma Rosi ist dran');
  assert.equal(de.ubEnd.oma, 'Dein Tisch ist voll: das Spiel ist aus.');
  assert.equal(de.ubEnd.ben, 'Der Tisch von Oma Rosi ist voll: das Spiel ist aus.');

  const en = await say('en');
  assert.deepEqual(en.swap, {
    oma: 'Ben plays the red stone and swaps places with your penguin',
    ben: "You play the red stone and swap places with Oma Rosi's penguin",
    clara: "Ben plays the red stone and swaps places with Oma Rosi's penguin",
    watcher: "Ben plays the red stone and swaps places with Oma Rosi's penguin",
  });
  assert.equal(en.swapBanner, '🪨 Ben plays the red stone and swaps places with your penguin');
  assert.equal(en.caught.oma, 'Santa (Clara) caught your penguin!');
  assert.equal(en.caught.clara, "You are Santa and caught Oma Rosi's penguin!");
  assert.equal(en.taken.oma, 'Santa takes a red present from you');
  assert.equal(en.taken.clara, 'You take a red present from Oma Rosi');
  assert.equal(en.taken.ben, 'Santa takes a red present from Oma Rosi');
  assert.equal(en.stolen.oma, 'You steal an orange present!');
  assert.equal(en.stolen.ben, 'Oma Rosi steals an orange present!');
  assert.equal(en.moved.oma, 'You move to floe 3 on the edge at the top right');
  assert.equal(en.moved.watcher, 'Oma Rosi moves to floe 3 on the edge at the top right');
  assert.deepEqual(en.bankedOwn, {
    oma: 'You stack 1 yellow gift from your own sleigh',
    ben: 'Oma Rosi stacks 1 yellow gift from their own sleigh',
    clara: 'Oma Rosi stacks 1 yellow gift from their own sleigh',
    watcher: 'Oma Rosi stacks 1 yellow gift from their own sleigh',
  });
  assert.equal(en.bankedOther.ben, 'Oma Rosi stacks 2 green gifts and 1 blue gift from your sleigh');
  assert.equal(en.bankedOther.clara, "Oma Rosi stacks 2 green gifts and 1 blue gift from Ben's sleigh");
  assert.equal(en.toSleigh.oma, 'Onto your sleigh: 1 red gift and 1 yellow gift');
  assert.equal(en.hhTurn.oma, 'Your turn');
  assert.equal(en.dieCaption.oma, 'You rolled Christmas wish');
  assert.equal(en.dieCaption.watcher, 'Oma Rosi rolled Christmas wish');
  assert.equal(en.ubEnd.oma, 'Your table is full: the game is over.');
  assertNoPageErrors(page);
});

await run('browser: German results on a phone break no word in the middle', async ({ browser, baseUrl }) => {
  const { page } = await newPlayer(browser, 'Oma', { locale: 'de-DE', viewport: { width: 390, height: 844 } });
  await page.goto(`${baseUrl}/`);
  await page.locator('#name').waitFor();
  // Christmas Penguins' results as the game screen shows them, with a final Santa (whose bonus cell
  // once broke "Weihnacht / smann"; now "keiner 🎅", the note below says why), long names and log
  // lines, drawn with the page's own styles.
  const show = (lang) => page.evaluate(async (l) => {
    const i18n = await import('/js/i18n.js');
    i18n.setLang(l);
    const cp = (await import('/js/games/christmas_penguins.js')).createBoard();
    const names = ['Oma Rosemarie', 'Bernhard', 'Clara-Sophie'];
    const result = { scores: [4, 0, 3], winners: [0], final_santa: 1, reason: 'round_cap',
      presents: [{ red: 2, blue: 1 }, {}, { green: 3 }] };
    const ctx = { seat: 0, name: (s) => names[s], who: (s) => names[s], colour: () => '#1d6fd6', state: { over: true, result } };
    document.querySelector('.layout').style.display = 'none';
    document.getElementById('words-probe')?.remove();
    const layout = document.createElement('div');
    layout.className = 'layout';
    layout.id = 'words-probe';
    layout.innerHTML = `<main id="screen"><section class="game game-christmas_penguins"><section class="card results" data-testid="results">
      <h2>🏆 ${i18n.t('game.over')}</h2><p class="headline">${i18n.t('game.winner', { names: names[0] })}</p>
      ${cp.resultHtml(ctx)}<p class="result-note">${cp.resultNote(ctx)}</p></section></section></main>
      <aside class="card"><ul class="log-list"><li>${i18n.t('cp.e.roles_swapped_hut_you', { santa: names[1] })}</li>
        <li>${i18n.t('cp.e.santa_met_by_you', { penguin: names[2] })}</li></ul></aside>`;
    document.body.append(layout);
    const box = document.querySelector('#words-probe .results').getBoundingClientRect();
    return { santaCell: document.querySelector('[data-testid="cp-bonus-1"]').textContent, top: box.top, height: box.height, probe: layout.getBoundingClientRect().height };
  }, lang);
  for (const lang of ['de', 'en']) {
    const { santaCell, ...box } = await show(lang);
    assert.ok(box.height > 150, `the results are drawn (${box.height} px high)`);
    assert.equal(santaCell, lang === 'de' ? 'keiner 🎅' : 'none 🎅');
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 844 });
      await screenshot(page, `words-cp-results-${lang}-${width}.png`);
      assert.deepEqual(await brokenWords(page, '#words-probe'), [], `no word broken in the middle of the ${lang} results at ${width} px`);
      await assertNoSideScroll(page, `the ${lang} results at ${width} px`);
    }
  }
  assertNoPageErrors(page);
});
