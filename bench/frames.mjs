// bench/frames.mjs — does every figure stay within its frame budget while a
// reader drags any of its controls? In headless Chromium, for every figure
// of the registry (each alone on figure.html) and every control it renders
// (each <input type=range> and <select> of its form, found on the page, not
// listed here), at the default sizes and at the largest the controls allow
// (every visible slider at its max): a drag of INPUTS inputs across the
// control's whole range, one per frame (dragValues: every input changes the
// value, as a reader's does). Per drag it reports
//   - input → next painted frame: the page runs the drag itself (no DevTools
//     round trip between inputs); the first input at once, on the idle
//     page, the others due a few ms after the previous paint (so that
//     background work has started and can be in the way, and a slice that
//     holds the input back counts), timed to a message posted from the next
//     requestAnimationFrame, which runs after that frame's paint; p95 and
//     max. Chromium runs without its frame-rate limit, so "next frame" means
//     as soon as the main thread is free, not the next 60 Hz tick: the
//     figure is timed, not the vsync wait;
//   - the main thread's CPU time per input, from a Chromium trace of the
//     drag (inputThreadTimes: its tasks from one input to the next);
//   - long tasks (PerformanceObserver 'longtask', ≥ 50 ms) during the drag;
//   - the longest background slice (core/background.js's measures) during
//     the drag and until the page is quiet again, in wall-clock time and in
//     the main thread's CPU time (the thread time of the task that ran the
//     slice, sliceThreadTimes()).
// Not dragged: what is not a slider or a select (order's tokens, the
// resample buttons, rope-config's pasted config). A figure's work in a
// Worker (depth's gradients) is in no CPU column: they count the main
// thread.
// Budgets: p95 ≤ 16.7 ms at the defaults, ≤ 33 ms at the largest sizes; no
// long task; no background slice over SLICE_MS + 1 ms. The wall-clock
// verdict holds latency and slices in wall-clock time; the CPU verdict holds
// the main thread's CPU time per input and per slice to the same budgets
// (on this 2-core machine a slice is often descheduled part-way: a 6.2 ms
// slice had 2.3 ms of thread time).
//
//   node bench/frames.mjs [--only heatmap,depth] [--inputs 32]
import { chromium } from 'playwright-core';
import { CHROMIUM, serve } from '../tests/browser/harness.mjs';
import { FIGURES } from '../web/figures/registry.js';
import { SLICE_MEASURE, SLICE_MS } from '../web/figures/core/background.js';

export const BUDGET_MS = { default: 16.7, largest: 33 };
/** A slice may overrun its budget by this much (timer resolution, one unit's spread). */
export const SLICE_SLACK_MS = 1;
const GAP_MS = 4;

/** Chromium as the tests launch it, without the frame-rate limit. */
export function launchUnthrottled() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', '--disable-frame-rate-limit', '--disable-gpu-vsync'],
  });
}

/**
 * In the page: sets the figure `tag` to its defaults ('default') or every
 * visible numeric control to its maximum ('largest'); returns the visible
 * controls' values.
 */
export function setSizes(page, tag, size) {
  return page.evaluate(({ tag, size }) => {
    const el = document.querySelector(tag);
    const controls = el.constructor.controls.filter((c) => !c.hidden);
    // twice: a bound that depends on another control (waveform's i < d_model/2) follows it
    for (let pass = 0; pass < 2; pass++) {
      for (const c of controls) {
        if (size === 'default') el[c.prop] = undefined;
        else if (c.kind !== 'choice') el[c.prop] = typeof c.max === 'function' ? c.max(el) : c.max;
      }
    }
    // the visible controls' values (a hidden seed is not a size)
    return Object.fromEntries(controls.map((c) => [c.prop, el.values[c.prop]]));
  }, { tag, size });
}

/** In the page: resolves once no background slice has run for `quiet` ms (at most `limit` ms). */
export function settle(page, quiet = 300, limit = 15000) {
  return page.evaluate(({ name, quiet, limit }) => new Promise((resolve) => {
    let last = performance.now();
    const start = last;
    const obs = new PerformanceObserver((list) => {
      if (list.getEntries().some((e) => e.name === name)) last = performance.now();
    });
    obs.observe({ type: 'measure' });
    const check = () => {
      const now = performance.now();
      if (now - last >= quiet || now - start >= limit) {
        obs.disconnect();
        resolve(now - start);
      } else setTimeout(check, 50);
    };
    requestAnimationFrame(() => requestAnimationFrame(check));
  }), { name: SLICE_MEASURE, quiet, limit });
}

/**
 * In the page: the values a drag of `inputs` inputs sets on `input`. A
 * <select> goes through its options in turn. A slider goes across its
 * range in even steps, each snapped by the input itself to its step grid;
 * a slider with fewer distinct values than `inputs` goes back and forth
 * across them. Every value differs from the one before it (the first from
 * the control's current value), as a reader's drag does: a native slider
 * fires no input event while its value stays the same.
 */
export function dragValues({ input, inputs }) {
  if (input.tagName === 'SELECT') {
    const options = [...input.options].map((o) => o.value);
    if (options.length < 2) throw new Error(`frames: ${input.name} has one value: nothing to drag`);
    const from = options.indexOf(input.value);
    return Array.from({ length: inputs }, (_, k) => options[(from + k + 1) % options.length]);
  }
  if (input.type !== 'range') throw new Error(`frames: ${input.name} is not a slider or a select: nothing to drag`);
  const min = Number(input.min), max = Number(input.max), current = input.value;
  const grid = [];
  for (let k = 0; k < inputs; k++) {
    input.value = String(min + ((max - min) * k) / (inputs - 1));
    if (input.value !== grid.at(-1)) grid.push(input.value);
  }
  input.value = current;
  if (grid.length < 2) throw new Error(`frames: ${input.name} has one value: nothing to drag`);
  // back and forth across the grid, from its first value that differs from the current one
  const values = [];
  let k = grid[0] === current ? 1 : 0, dir = 1;
  while (values.length < inputs) {
    values.push(grid[k]);
    if (k + dir < 0 || k + dir >= grid.length) dir = -dir;
    k += dir;
  }
  return values;
}

/** The User Timing marks drag() leaves at each input it dispatches, and after the last input's frame. */
export const INPUT_MARK = 'pn-bench-input';
export const END_MARK = 'pn-bench-end';

/**
 * Drags control `prop` of `tag` across its range in `inputs` inputs
 * (dragValues), one per frame, the whole drag run by the page itself so
 * that no DevTools round trip comes between an input and the page: the
 * first input is dispatched at once, on the idle page, as a reader's first
 * one is; every later one is due `gap` ms after the paint its predecessor
 * waited for (so that background work has started and can be in its way),
 * a timer set then. Latency runs from the moment an input was due to a
 * message posted from the next requestAnimationFrame, which runs after
 * that frame's paint: a task that holds the timer back (a background
 * slice) counts, as it would hold back a reader's input. Each input is
 * marked (INPUT_MARK, and END_MARK after the last frame), so a trace taken
 * over the drag gives the main thread's CPU time per input
 * (inputThreadTimes). Returns the values, latencies, long tasks and the
 * figure's render times; the background slices seen are left for settle()
 * and sliceTimes().
 */
export async function drag(page, tag, prop, inputs, gap = GAP_MS) {
  const input = await page.evaluateHandle(({ tag, prop }) => document.querySelector(tag).shadowRoot.querySelector(`form [name="${prop}"]`), { tag, prop });
  const values = await page.evaluate(dragValues, { input, inputs });
  const result = await page.evaluate(async ({ input, values, gap, name, inputMark, endMark }) => {
    const el = input.getRootNode().host;
    const longTasks = [], slices = [];
    const lt = new PerformanceObserver((l) => longTasks.push(...l.getEntries().map((e) => e.duration)));
    lt.observe({ type: 'longtask' });
    const sl = new PerformanceObserver((l) => slices.push(...l.getEntries().filter((e) => e.name === name).map((e) => e.duration)));
    sl.observe({ type: 'measure' });
    window.__sliceObserver = { sl, slices };
    const afterPaint = (done) => requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => done(performance.now());
      ch.port2.postMessage(0);
    });
    const latencies = await new Promise((resolve) => {
      const lat = [];
      const fire = (due) => {
        performance.mark(inputMark);
        input.value = values[lat.length];
        input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
        afterPaint((painted) => {
          lat.push(painted - due);
          if (lat.length === values.length) {
            performance.mark(endMark);
            resolve(lat);
          } else setTimeout(() => fire(painted + gap), gap);
        });
      };
      fire(performance.now());
    });
    // the last frame's long task may not have reached the observer yet: take it from its queue
    longTasks.push(...lt.takeRecords().map((e) => e.duration));
    lt.disconnect();
    // renderTimes keeps the last 200
    return { values, latencies, longTasks, renders: el.renderTimes.slice(-values.length) };
  }, { input, values, gap, name: SLICE_MEASURE, inputMark: INPUT_MARK, endMark: END_MARK });
  await input.dispose();
  return result;
}

/**
 * The main thread's CPU time per input of a traced drag, in ms: for each
 * INPUT_MARK of the trace (`events`, recorded with TRACE_CATEGORIES), the
 * thread time (tdur) of the outermost tasks of the marks' thread that end
 * at or after it and before the next mark (END_MARK after the last input):
 * the task that dispatched the input, the figure's frame, and the
 * background slices before the next input. Tasks that end before the
 * first mark or after END_MARK are not counted.
 */
export function inputThreadTimes(events) {
  const marks = events.filter((e) => (e.name === INPUT_MARK || e.name === END_MARK) && e.cat?.includes('blink.user_timing'))
    .sort((a, b) => a.ts - b.ts);
  const inputs = marks.filter((m) => m.name === INPUT_MARK);
  if (!inputs.length) throw new Error('frames: the trace holds no input mark');
  const end = marks.find((m) => m.name === END_MARK && m.ts >= inputs.at(-1).ts);
  if (!end) throw new Error('frames: the trace holds no end mark after the last input');
  const { pid, tid } = inputs[0];
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === pid && e.tid === tid && typeof e.dur === 'number')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const cpu = new Array(inputs.length).fill(0);
  let outerEnd = -Infinity;
  for (const t of tasks) {
    const tEnd = t.ts + t.dur;
    if (tEnd <= outerEnd) continue; // inside a task already counted
    outerEnd = tEnd;
    if (tEnd < inputs[0].ts || tEnd > end.ts + CLOCK_SLACK_US) continue;
    let k = 0;
    while (k + 1 < inputs.length && inputs[k + 1].ts <= tEnd) k++;
    cpu[k] += (typeof t.tdur === 'number' ? t.tdur : t.dur) / 1000;
  }
  return cpu;
}

/**
 * The two verdicts of a drag's row: `ok` by the wall clock (p95 latency,
 * longest slice), `cpuOk` by the main thread's CPU time (p95 per input,
 * longest slice's thread time); both also need no long task.
 */
export function verdicts({ p95, cpu95, longTasks, maxSlice, maxSliceCpu, budget }) {
  const sliceLimit = SLICE_MS + SLICE_SLACK_MS;
  return {
    ok: p95 <= budget && longTasks === 0 && maxSlice <= sliceLimit,
    cpuOk: cpu95 <= budget && longTasks === 0 && maxSliceCpu <= sliceLimit,
  };
}

/** The background slices seen since drag() began (stops watching). */
export function sliceTimes(page) {
  return page.evaluate(() => {
    const { sl, slices } = window.__sliceObserver;
    sl.disconnect();
    return slices;
  });
}

/** What the trace of a drag records: Blink's tasks (with thread time) and the User Timing measures. */
export const TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline', 'blink.user_timing'];

/**
 * How far a measure's ends may lie outside the task that ran it (µs): the
 * page's clock (performance.now()) is coarsened to 100 µs in Chromium, the
 * trace's is not.
 */
const CLOCK_SLACK_US = 200;

/**
 * The background slices of a Chromium trace (its traceEvents, recorded with
 * TRACE_CATEGORIES): for each SLICE_MEASURE measure, in time order,
 * { wall, cpu, task } in ms: wall its own length; cpu the thread time (tdur)
 * of the innermost RunTask of its thread that contains it (within
 * CLOCK_SLACK_US) — the slice's CPU time plus whatever else that task ran —
 * or its wall time where that is less: an upper bound either way. A slice
 * no recorded task contains (one that began before the trace) counts its
 * wall time as its CPU time (`task` false).
 */
export function sliceThreadTimes(events) {
  const open = new Map(), slices = [];
  // (a measure of zero length is one 'n' event; Chromium gives every
  // measure of a name the same id, so b and e pair in time order per thread)
  const sorted = events.filter((e) => e.name === SLICE_MEASURE && (e.ph === 'b' || e.ph === 'e' || e.ph === 'n')).sort((a, b) => a.ts - b.ts);
  for (const e of sorted) {
    const key = `${e.pid}:${e.tid}:${e.id2?.local ?? e.id}`;
    if (e.ph === 'n') slices.push({ pid: e.pid, tid: e.tid, start: e.ts, end: e.ts });
    else if (e.ph === 'b') open.set(key, e);
    else if (open.has(key)) {
      const b = open.get(key);
      open.delete(key);
      slices.push({ pid: b.pid, tid: b.tid, start: b.ts, end: e.ts });
    }
  }
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && typeof e.dur === 'number');
  slices.sort((a, b) => a.start - b.start);
  return slices.map((sl) => {
    let inner = null;
    for (const t of tasks) {
      if (t.pid !== sl.pid || t.tid !== sl.tid || t.ts > sl.start + CLOCK_SLACK_US || t.ts + t.dur < sl.end - CLOCK_SLACK_US) continue;
      if (!inner || t.dur < inner.dur) inner = t;
    }
    // one thread's CPU time within the slice is at most its wall time
    const wall = (sl.end - sl.start) / 1000;
    return inner && typeof inner.tdur === 'number' ? { wall, cpu: Math.min(wall, inner.tdur / 1000), task: true } : { wall, cpu: wall, task: false };
  });
}

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** Runs the drags; `only` limits them to figures by name. Returns rows, one per figure × size × control. */
export async function measureFrames({ only, inputs = 32, log = () => {} } = {}) {
  const server = await serve();
  const browser = await launchUnthrottled();
  const rows = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    for (const f of FIGURES.filter((x) => !only || only.includes(x.name))) {
      const page = await context.newPage();
      await page.goto(`${server.url}/web/figure.html?fig=${f.name}&lang=en`);
      await page.waitForFunction((t) => document.querySelector(t)?.renderTimes?.length > 0, f.tag, { timeout: 30000 });
      await settle(page);
      const props = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('form input[type=range], form select')].map((i) => i.name), f.tag);
      for (const size of ['default', 'largest']) {
        const values = await setSizes(page, f.tag, size);
        await settle(page);
        for (const prop of props) {
          // every drag starts from the same state: this size's values
          await page.evaluate(({ t, v }) => Object.assign(document.querySelector(t), v), { t: f.tag, v: values });
          await settle(page);
          await browser.startTracing(page, { categories: TRACE_CATEGORIES });
          const r = await drag(page, f.tag, prop, inputs);
          await settle(page);
          const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
          const traced = sliceThreadTimes(events);
          const cpu = inputThreadTimes(events);
          const slices = await sliceTimes(page);
          // slices the page saw before the trace reached the renderer (the first ones) count at their wall time
          const untraced = slices.slice(0, Math.max(0, slices.length - traced.length));
          const lat = [...r.latencies].sort((a, b) => a - b);
          const row = {
            figure: f.name, tag: f.tag, size, prop, values: size === 'largest' ? values : null,
            min: lat[0], p50: pct(lat, 0.5), p95: pct(lat, 0.95), max: lat.at(-1), renderMin: Math.min(...r.renders),
            render95: pct([...r.renders].sort((a, b) => a - b), 0.95),
            cpu95: pct(cpu.sort((a, b) => a - b), 0.95),
            longTasks: r.longTasks.length, longest: Math.max(0, ...r.longTasks),
            slices: slices.length, maxSlice: Math.max(0, ...slices), maxSliceCpu: Math.max(0, ...traced.map((t) => t.cpu), ...untraced),
            budget: BUDGET_MS[size], inputs,
          };
          Object.assign(row, verdicts(row));
          rows.push(row);
          log(row);
        }
      }
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

/** The markdown tables (one per figure) of `rows`. */
export function framesTable(rows) {
  const lines = [`"CPU p95" is the main thread's CPU time per input (the thread time of its tasks in a Chromium trace of the drag, from the task that dispatched the input to the next input, background slices included): what the figure costs on the main thread, whatever else the machine runs (depth's gradients run in a Worker and are not in it). "Slice CPU" is the longest slice's thread time, from a Chromium trace of the drag (the task that ran it: an upper bound). The last column holds both to the same budgets; the verdict before it is the wall-clock one the issue asks for.`, '', `Budget: input → painted frame p95 ≤ ${BUDGET_MS.default} ms at the defaults and ≤ ${BUDGET_MS.largest} ms at the largest sizes, no long task (≥ 50 ms), no background slice over ${SLICE_MS} ms (+${SLICE_SLACK_MS} ms slack). ${rows.length ? `Each drag: ${rows[0].inputs} inputs across the control's range, one per frame, each changing the value (a control with fewer values goes back and forth across them).` : 'No drag was measured.'}`];
  for (const fig of [...new Set(rows.map((r) => r.figure))]) {
    const mine = rows.filter((r) => r.figure === fig);
    const largest = mine.find((r) => r.values)?.values;
    lines.push('', `### \`<posnorm-${fig}>\``, '');
    if (largest) lines.push(`Largest: ${Object.entries(largest).filter(([, v]) => typeof v === 'number').map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
    lines.push('| control | sizes | p50 (ms) | p95 (ms) | max (ms) | repaint p95 (ms) | CPU p95 (ms) | long tasks | slices | longest slice (ms) | slice CPU (ms) | budget (ms) | | CPU |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
    for (const r of mine) {
      lines.push(`| ${r.prop} | ${r.size} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.render95.toFixed(1)} | ${r.cpu95.toFixed(1)} | ${r.longTasks}${r.longTasks ? ` (${r.longest.toFixed(0)} ms)` : ''} | ${r.slices} | ${r.maxSlice.toFixed(1)} | ${r.maxSliceCpu.toFixed(1)} | ${r.budget} | ${r.ok ? 'met' : 'MISSED'} | ${r.cpuOk ? 'met' : 'MISSED'} |`);
    }
  }
  return lines.join('\n');
}

/** For bench/run.mjs: { table, allMet }. */
export async function benchFrames(options = {}) {
  const rows = await measureFrames(options);
  const missed = rows.filter((r) => !r.ok);
  const cpuMissed = rows.filter((r) => !r.cpuOk);
  const summary = (missed.length ? `\n\nMissed (wall clock): ${missed.map((r) => `${r.figure} ${r.prop} (${r.size})`).join(', ')}.` : `\n\nAll ${rows.length} drags within budget (wall clock).`)
    + (cpuMissed.length ? `\n\nMissed (CPU): ${cpuMissed.map((r) => `${r.figure} ${r.prop} (${r.size})`).join(', ')}.` : `\n\nAll ${rows.length} drags within budget (CPU).`)
    + ['default', 'largest'].map((size) => {
      const mine = rows.filter((r) => r.size === size);
      return `\n\nWithin budget ${size === 'default' ? 'at the defaults' : 'at the largest sizes'}: ${mine.filter((r) => r.ok).length} of ${mine.length} drags by the wall clock, ${mine.filter((r) => r.cpuOk).length} of ${mine.length} by CPU time.`;
    }).join('');
  return { table: framesTable(rows) + summary, allMet: missed.length === 0, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name) => {
    const k = process.argv.indexOf(name);
    return k > 0 ? process.argv[k + 1] : undefined;
  };
  const only = arg('--only')?.split(',');
  const inputs = Number(arg('--inputs') ?? 32);
  const t0 = Date.now();
  const { table } = await benchFrames({
    only, inputs,
    log: (r) => console.error(`${r.figure} ${r.size} ${r.prop}: cpu95 ${r.cpu95.toFixed(1)}${r.cpuOk ? '' : ' (CPU MISSED)'} min ${r.min.toFixed(1)} p50 ${r.p50.toFixed(1)} render min ${r.renderMin.toFixed(1)} p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)}, long tasks ${r.longTasks}, longest slice ${r.maxSlice.toFixed(1)} ms (CPU ${r.maxSliceCpu.toFixed(1)})${r.ok ? '' : '  MISSED'}`),
  });
  console.log(table);
  console.error(`${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
