// <posnorm-order> in Chromium, for a keyboard user: two moves that come
// within one frame (key auto-repeat on a busy page, two quick presses of ▶)
// each move the token they were meant for, and a redraw that no move caused
// (a control, the language, the width, an order set from outside) leaves
// focus on the control of the same token that had it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, useBrowser } from './browser/harness.mjs';

const env = useBrowser(before, after);
const tag = 'posnorm-order';

/** Runs `fn(el, arg)` in the page (one task); returns its result. */
const run = (page, fn, arg) => page.evaluate(([t, src, a]) => new Function('el', 'a', `return (${src})(el, a)`)(document.querySelector(t), a), [tag, fn.toString(), arg]);

/** Runs `fn` in the page, then waits for the figure's next render (which it must cause). */
async function rendered(page, fn, arg) {
  const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
  const r = await run(page, fn, arg);
  await page.waitForFunction(([t, k]) => document.querySelector(t).renderTimes.length > k, [tag, n], { timeout: 5000 });
  // and one frame more, for anything the render left to the next one
  await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
  return r;
}

/** What has focus: where the document's focus is, and which control of which token in the shadow root. */
const focus = (page) => run(page, (el) => {
  const a = el.shadowRoot.activeElement;
  const li = a?.closest('li');
  const chip = li?.querySelector('button.tok');
  const buttons = li ? [...li.querySelectorAll('button')] : [];
  return {
    document: document.activeElement === el ? 'figure' : document.activeElement?.localName,
    token: chip ? chip.dataset.token : null,
    control: !a ? null : a === chip ? 'chip' : a === buttons[0] ? 'left' : a === buttons[2] ? 'right' : a.localName,
  };
});

/** The figure's public state: its property, its attribute, what it drew, and the chips in the order shown. */
const state = (page) => run(page, (el) => ({
  order: el.order,
  attr: el.getAttribute('order'),
  drawn: el.result.order,
  chips: [...el.shadowRoot.querySelectorAll('button.tok')].map((c) => c.dataset.token).join(''),
}));

async function figure() {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=order&lang=en`, { width: 800 });
  await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag, { timeout: 15000 });
  await run(page, (el) => el.ready);
  return { page, problems, context };
}

const chipOf = (el, token) => el.shadowRoot.querySelector(`button.tok[data-token="${token}"]`);

test('order: two arrow keys or two presses of ◀ ▶ in one task move the same token twice, and focus follows it', async () => {
  const { page, problems, context } = await figure();
  assert.deepEqual(await state(page), { order: '012', attr: null, drawn: '012', chips: '012' });

  // two ArrowRight keydowns on token 0 before the next frame
  await page.locator(`${tag} button.tok[data-token="0"]`).focus();
  const keys = await rendered(page, (el) => {
    const chip = el.shadowRoot.querySelector('button.tok[data-token="0"]');
    const press = () => {
      const e = new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true, composed: true });
      chip.dispatchEvent(e);
      return e.defaultPrevented;
    };
    return { prevented: [press(), press()], order: el.order };
  });
  assert.deepEqual(keys, { prevented: [true, true], order: '120' }, 'both keys handled, in the same task');
  assert.deepEqual(await state(page), { order: '120', attr: '120', drawn: '120', chips: '120' });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'chip' });

  // and back: two ArrowLeft keydowns
  await rendered(page, (el) => {
    const chip = el.shadowRoot.querySelector('button.tok[data-token="0"]');
    for (let k = 0; k < 2; k++) chip.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true, composed: true }));
  });
  assert.deepEqual(await state(page), { order: '012', attr: '012', drawn: '012', chips: '012' });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'chip' });

  // two presses of token 0's ▶ in one task (it had focus: Enter, Enter)
  await page.locator(`${tag} li:has(button.tok[data-token="0"]) button`).last().focus();
  await rendered(page, (el) => {
    const right = el.shadowRoot.querySelector('button.tok[data-token="0"]').closest('li').lastElementChild;
    right.click();
    right.click();
  });
  assert.deepEqual(await state(page), { order: '120', attr: '120', drawn: '120', chips: '120' });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'chip' }, 'after a move, focus is on the moved token');

  // two presses of token 0's ◀ (now last), by mouse
  await rendered(page, (el) => {
    const left = el.shadowRoot.querySelector('button.tok[data-token="0"]').closest('li').firstElementChild;
    left.click();
    left.click();
  });
  assert.deepEqual(await state(page), { order: '012', attr: '012', drawn: '012', chips: '012' });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'chip' });

  // three presses on the middle token's ▶ in one task: the third finds it last and does nothing
  await rendered(page, (el) => {
    const right = el.shadowRoot.querySelector('button.tok[data-token="1"]').closest('li').lastElementChild;
    for (let k = 0; k < 3; k++) right.click();
  });
  assert.deepEqual(await state(page), { order: '021', attr: '021', drawn: '021', chips: '021' });
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' });

  // the chips' ARIA and the ◀ ▶ buttons' states follow the order
  const aria = await run(page, (el) => [...el.shadowRoot.querySelectorAll('.tokens li')].map((li) => {
    const [l, c, r] = li.querySelectorAll('button');
    return [c.getAttribute('aria-label'), l.getAttribute('aria-label'), l.disabled, r.getAttribute('aria-label'), r.disabled];
  }));
  assert.deepEqual(aria, [
    ['나는, position 1 of 3. Arrow keys move it', 'move 나는 left', true, 'move 나는 right', false],
    ['공부한다, position 2 of 3. Arrow keys move it', 'move 공부한다 left', false, 'move 공부한다 right', false],
    ['AI를, position 3 of 3. Arrow keys move it', 'move AI를 left', false, 'move AI를 right', true],
  ]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('order: a redraw no move caused (pe, lang, width, an order set from outside) keeps focus on the same token', async () => {
  const { page, problems, context } = await figure();
  await page.locator(`${tag} button.tok[data-token="1"]`).focus();
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' });
  const chip1 = await page.evaluateHandle(([t, k]) => document.querySelector(t).shadowRoot.querySelector(`button.tok[data-token="${k}"]`), [tag, 1]);

  await rendered(page, (el) => el.setAttribute('pe', 'on'));
  assert.equal(await run(page, (el) => el.result.pe), 'on');
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' }, 'after pe="on"');

  await rendered(page, (el) => el.setAttribute('lang', 'ko'));
  assert.match(await run(page, (el) => el.shadowRoot.activeElement?.getAttribute('aria-label')), /3개 중 2번째/, 'relabelled in Korean');
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' }, 'after lang="ko"');

  await rendered(page, (el) => { el.lang = 'en'; });
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' }, 'after lang="en"');

  await rendered(page, (el) => { el.style.width = '520px'; });
  assert.equal(await run(page, (el) => el.getBoundingClientRect().width), 520);
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' }, 'after a resize');

  // a chip that did not change is the same element (not rebuilt)
  assert.equal(await page.evaluate(([t, c]) => document.querySelector(t).shadowRoot.querySelector('button.tok[data-token="1"]') === c, [tag, chip1]), true);

  // an order set from outside: the focused token moves, its chip keeps focus
  await rendered(page, (el) => { el.order = '102'; });
  assert.deepEqual(await state(page), { order: '102', attr: '102', drawn: '102', chips: '102' });
  assert.deepEqual(await focus(page), { document: 'figure', token: '1', control: 'chip' }, 'after order="102" set from outside');

  // focus on a ▶ stays on that ▶ through a redraw
  await page.locator(`${tag} li:has(button.tok[data-token="0"]) button`).last().focus();
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'right' });
  await rendered(page, (el) => el.setAttribute('pe', 'off'));
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'right' }, 'after pe="off", on ▶');
  await rendered(page, (el) => { el.style.width = '600px'; });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'right' }, 'after a resize, on ▶');
  await rendered(page, (el) => { el.order = '201'; });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'right' }, 'after order="201", on ▶ of the same token');
  // ... and when that ▶ can no longer be pressed (its token is now last), on the token itself
  await rendered(page, (el) => { el.order = '210'; });
  assert.deepEqual(await focus(page), { document: 'figure', token: '0', control: 'chip' }, 'after order="210", its ▶ disabled');

  // focus elsewhere on the page is left alone by a redraw
  await run(page, (el) => el.shadowRoot.querySelector('select').focus());
  await rendered(page, (el) => { el.order = '012'; });
  assert.equal(await run(page, (el) => el.shadowRoot.activeElement?.localName), 'select');
  assert.deepEqual(problems, []);
  await context.close();
});

test('order: move() called by a page\'s script changes the order as a property, and leaves the focus and the scroll where the reader has them', async () => {
  const { page, problems, context } = await open(env.browser, `${env.server.url}/web/figure.html?fig=order&lang=en`, { width: 800, height: 600 });
  try {
    await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, tag);
    // a text field above the figure, with the reader in it, and the figure far below the window
    const before = await page.evaluate((t) => {
      const input = document.createElement('input');
      input.id = 'reader';
      document.body.prepend(input);
      const spacer = document.createElement('div');
      spacer.style.height = '3000px';
      input.after(spacer);
      input.focus();
      window.scrollTo(0, 0);
      window.seen = [];
      document.querySelector(t).addEventListener('posnorm-change', (e) => window.seen.push(`${e.detail.name}=${e.detail.value}/${e.detail.source}`));
      return document.querySelector(t).order;
    }, tag);
    await rendered(page, (el) => el.move(0, 1));
    const after = await page.evaluate((t) => ({ order: document.querySelector(t).order, active: document.activeElement?.id, scrollY: window.scrollY, seen: window.seen }), tag);
    assert.equal(before, '012');
    assert.deepEqual(after, { order: '102', active: 'reader', scrollY: 0, seen: ['order=102/property'] });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('order: a key that moves nothing (the last token to the right) leaves no focus behind for a later redraw to take', async () => {
  const { page, problems, context } = await figure();
  await page.locator(`${tag} button.tok[data-token="2"]`).focus();
  await page.keyboard.press('ArrowRight');
  await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
  assert.equal((await state(page)).order, '012', 'the last token cannot move right');
  // the reader goes on to the pe select; the redraw its change causes must leave the focus there
  const select = page.locator(`${tag} select[name=pe]`);
  await select.focus();
  const n = await page.evaluate((t) => document.querySelector(t).renderTimes.length, tag);
  await select.selectOption('on');
  await page.waitForFunction(([t, k]) => document.querySelector(t).renderTimes.length > k, [tag, n], { timeout: 5000 });
  await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
  assert.deepEqual(await focus(page), { document: 'figure', token: null, control: 'select' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('order: move() with a position that holds no token (−1, 3, 0.5, NaN) or a step that is not a whole place (0.5, −0.5) refuses: the order stays, no posnorm-change', async () => {
  const { page, problems, context } = await figure();
  const r = await run(page, async (el) => {
    const tick = () => new Promise((res) => setTimeout(res));
    const seen = [];
    el.addEventListener('posnorm-change', (e) => seen.push(`${e.detail.name}=${e.detail.value}`));
    const out = {};
    for (const [at, step] of [[-1, 1], [3, -1], [0.5, -0.5], [1.5, 1], [NaN, 1], [2, 0.5], [1, -0.5]]) {
      el.order = '210';
      await tick();
      seen.length = 0;
      el.move(at, step);
      await tick();
      out[`move(${at}, ${step})`] = [el.order, seen.join(' ')];
    }
    return out;
  });
  // the tokens are at positions 0, 1 and 2: nothing lies at −1, 3 or 0.5, nor half a place away;
  // move(-1, 1), move(0.5, -0.5), move(2, 0.5) and move(1, -0.5) wrote undefined into the
  // permutation, which the choice control took for no choice and reset to the default "012"
  for (const [call, got] of Object.entries(r)) assert.deepEqual(got, ['210', ''], `${call} leaves "210" alone (got ${JSON.stringify(got)})`);
  assert.deepEqual(problems, []);
  await context.close();
});
