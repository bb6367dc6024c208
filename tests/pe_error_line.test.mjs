// pe_error_line.test.mjs — draw/pe-error.js's PeErrorLine in Node, with a
// Worker of the test's own that runs worker/kernel-worker.js's answer() in
// this process after a delay: as the sizes cross OFF_THREAD_VALUES back and
// forth (the Worker's task and the main thread's slices taking turns), the
// line only ever shows the errors of the sizes it was last given, and ends
// with those; a figure that leaves the page while the Worker computes is
// written nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

// what PeErrorLine touches of a page: an element for its line, and a Worker
globalThis.document ??= { createElement: () => ({ classList: { add() {} }, setAttribute() {}, textContent: '' }) };
const { answer } = await import('../web/figures/worker/kernel-worker.js');
let requests = 0;
/** While true, the Worker answers every request with an error (a call that threw there). */
let workerFails = false;
globalThis.Worker = class {
  constructor() { this.queue = Promise.resolve(); }
  postMessage(message) {
    if (message.calls) requests++;
    if (workerFails && message.calls) {
      setTimeout(() => this.onmessage({ data: { id: message.id, error: 'RangeError: out of memory in the worker' } }), 5);
      return;
    }
    // each request answered 30 ms later, one at a time, as a Worker does
    this.queue = this.queue.then(() => new Promise((r) => setTimeout(r, 30))).then(async () => {
      const before = globalThis.postMessage;
      globalThis.postMessage = (m) => this.onmessage({ data: m });
      try {
        await answer({ data: message });
      } finally {
        globalThis.postMessage = before;
      }
    });
  }
  terminate() {}
};
const { init } = await import('../src/js/posnorm.js');
const { maxErrorVsFloat64 } = await import('./reference/pe.mjs');
const { PeErrorLine, OFF_THREAD_VALUES } = await import('../web/figures/draw/pe-error.js');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// one posnorm instance for every test: the page's Worker serves the module
// of the instance that started it (core/off-thread.js), so a test with an
// instance of its own would never reach the Worker
const instance = await init();

test('PeErrorLine shows only the errors of its last sizes as they cross the Worker threshold, and nothing once off the page', async () => {
  const pn = instance;
  const host = { pn, t: { peErrorPending: 'pending', peErrorLine: (a, b) => `${a} ${b}` }, addController() {} };
  const line = new PeErrorLine(host);
  // float64 errors of the sizes used, from the API (posnorm's values and the float32 code's)
  const expected = (s) => ({
    posnorm: maxErrorVsFloat64(pn.positionalEncoding(s), s),
    float32: maxErrorVsFloat64(pn.positionalEncoding({ ...s, precision: 'float32' }), s),
  });
  const big = { seqLen: 2048, dModel: 64, base: 10000 }, big2 = { seqLen: 2048, dModel: 66, base: 10000 }, small = { seqLen: 30, dModel: 64, base: 10000 };
  assert.ok(big.seqLen * big.dModel > OFF_THREAD_VALUES && small.seqLen * small.dModel <= OFF_THREAD_VALUES);
  let current = null;
  const stale = [];
  const write = line._write.bind(line);
  line._write = () => {
    if (JSON.stringify(host.peErrors.sizes) !== current) stale.push({ shown: host.peErrors.sizes, current });
    write();
  };
  const show = (s) => {
    current = JSON.stringify(s);
    line.show(s);
  };
  for (const seq of [[big, small], [small, big], [big, small, big], [big, big2, small, big]]) {
    for (const gap of [0, 5, 40]) {
      host.peErrors = null;
      line.hostDisconnected();
      stale.length = 0;
      for (const s of seq) {
        show(s);
        await sleep(gap);
      }
      const last = seq.at(-1);
      for (let waited = 0; !host.peErrors && waited < 5000; waited += 20) await sleep(20);
      await sleep(150);
      const what = `${seq.map((s) => s.seqLen * s.dModel).join(' → ')}, ${gap} ms apart`;
      assert.deepEqual(stale, [], `${what}: errors of other sizes shown`);
      assert.deepEqual(host.peErrors?.sizes, last, what);
      const want = expected(last);
      assert.ok(Math.abs(host.peErrors.posnorm - want.posnorm) <= 1e-12 && Math.abs(host.peErrors.float32 - want.float32) <= 1e-12, `${what}: ${JSON.stringify(host.peErrors)}`);
      assert.equal(line.offThread, last === small ? false : true, `${what}: where it ran`);
    }
  }
  assert.ok(requests > 0, 'the Worker was asked');
  // off the page while the Worker computes: nothing is written afterwards.
  // (New sizes, and the request seen on its way before the figure leaves:
  // show(big) again, 5 ms before leaving, started nothing — the line had
  // just shown big — so this part passed with hostDisconnected() not
  // cancelling the Worker's task.)
  host.peErrors = null;
  line.hostDisconnected();
  const sent = requests, away = { ...big, dModel: 68 };
  show(away);
  for (let waited = 0; requests === sent && waited < 5000; waited += 5) await sleep(5);
  assert.equal(requests, sent + 1, 'the Worker is computing when the figure leaves');
  line.hostDisconnected();
  current = 'off the page';
  await sleep(500);
  assert.equal(host.peErrors, null);
  assert.deepEqual(stale, []);
});

test('a language change while the errors are computed shows the pending text in the new language, then the line in it', async () => {
  const pn = instance;
  const ko = { peErrorPending: '계산 중', peErrorLine: (a, b) => `오차 ${a} ${b}` };
  const en = { peErrorPending: 'computing', peErrorLine: (a, b) => `error ${a} ${b}` };
  const host = { pn, t: ko, addController() {} };
  const line = new PeErrorLine(host);
  for (const sizes of [{ seqLen: 2048, dModel: 64, base: 10000 }, { seqLen: 30, dModel: 64, base: 10000 }]) {
    host.t = ko;
    host.peErrors = null;
    line.hostDisconnected();
    line.show(sizes);
    assert.equal(line.element.textContent, '계산 중');
    // relabelled: the figure repaints with the same sizes in the new language, still computing
    host.t = en;
    line.show(sizes);
    assert.equal(host.peErrors, null, 'still computing');
    assert.equal(line.element.textContent, 'computing');
    for (let waited = 0; !host.peErrors && waited < 5000; waited += 20) await sleep(20);
    assert.match(line.element.textContent, /^error \S+ \S+$/);
  }
});

test('a computation that throws shows the failure in the line and fires posnorm-error once, on the main thread and after its call failed in the Worker; repaints do not run it again, other sizes do (in the Worker again), and then these', async () => {
  const pn = instance;
  const events = [];
  const en = { peErrorPending: 'pending', peErrorLine: (a, b) => `error ${a} ${b}`, peErrorFailed: (why) => `failed: ${why}` };
  const ko = { peErrorPending: '계산 중', peErrorLine: (a, b) => `오차 ${a} ${b}`, peErrorFailed: (why) => `실패: ${why}` };
  // (a figure on the page: events fire only from a connected one, element.js emit)
  const host = { pn, t: en, isConnected: true, addController() {}, dispatchEvent: (e) => events.push(e) };
  const line = new PeErrorLine(host);
  const boom = new RangeError('posnorm: not enough WebAssembly memory');
  const small = { seqLen: 30, dModel: 64, base: 10000 }, big = { seqLen: 2048, dModel: 64, base: 10000 };
  const until = async (cond) => { for (let waited = 0; !cond() && waited < 5000; waited += 20) await sleep(20); };
  for (const sizes of [small, big]) {
    host.t = en;
    host.peErrors = null;
    events.length = 0;
    line.hostDisconnected();
    // the scratch buffers are taken anew after hostDisconnected(): every alloc
    // throws (an own property over the prototype's alloc of the shared
    // instance, deleted below)
    let allocs = 0;
    pn.alloc = () => { allocs++; throw boom; };
    workerFails = sizes === big;
    const before = requests;
    try {
      line.show(sizes);
      assert.equal(line.element.textContent, 'pending');
      await until(() => events.length > 0);
      const what = `${sizes.seqLen} × ${sizes.dModel}`;
      assert.equal(line.element.textContent, `failed: ${boom.message}`, what);
      assert.equal(requests - before, sizes === big ? 1 : 0, `${what}: sent to the Worker (where it failed) or not`);
      assert.equal(host.peErrors, null, what);
      assert.equal(events.length, 1, what);
      assert.equal(events[0].type, 'posnorm-error');
      assert.equal(events[0].detail.error, boom);
      assert.equal(events[0].detail.message, `failed: ${boom.message}`);
      assert.equal(events[0].bubbles && events[0].composed, true);
      // repaints with the same sizes (a cursor move, a relabel): not run again, said in the current language
      const tried = allocs;
      line.show(sizes);
      host.t = ko;
      line.show(sizes);
      await sleep(100);
      assert.equal(allocs, tried, `${what}: not run again`);
      assert.equal(events.length, 1, `${what}: no second event`);
      assert.equal(line.element.textContent, `실패: ${boom.message}`, `${what}: relabelled`);
    } finally {
      delete pn.alloc;
      workerFails = false;
    }
    host.t = en;
    // other sizes compute; then the failed sizes are tried again, and work
    // now: the big ones in the Worker again (its call failed, the Worker did not)
    const asked = requests;
    for (const s of [{ ...sizes, dModel: 62 }, sizes]) {
      line.show(s);
      assert.equal(line.element.textContent, 'pending', `${JSON.stringify(s)}: computing`);
      await until(() => host.peErrors);
      assert.match(line.element.textContent, /^error \S+ \S+$/);
      assert.deepEqual(host.peErrors.sizes, s);
    }
    assert.equal(events.length, 1);
    if (sizes === big) {
      assert.equal(requests - asked, 2, 'after a call that failed in the Worker, the next sizes were sent to it');
      assert.equal(line.offThread, true);
    }
  }
});
