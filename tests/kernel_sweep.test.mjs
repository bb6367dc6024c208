// Every kernel of tests/kernel_table.mjs, every variant, every size from 1
// to 3·block + 3 (so every SIMD tail) and a few large ones, in place where
// allowed, in both wasm builds, against the table's float64 references.
// MEASURE=1 prints the largest error of every check (what the bounds rest on).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { builds } from './helpers.mjs';
import { KERNELS, sizesFor } from './kernel_table.mjs';

const all = await builds();
const measured = new Map();

test('the table lists every kernel the API exposes', () => {
  // every method of the instance but the plumbing and the two table getters
  // (alibiSlopes, colormapTable: the sweep reaches them through alibi and colormap),
  // and ropeFromConfig, which reads a config.json and runs no kernel (its
  // fixtures of published configs are in rope_config.test.mjs)
  const notKernels = ['constructor', '_grew', 'memory', 'heapStats', 'raw', 'alloc', 'alibiSlopes', 'colormapTable', 'ropeFromConfig'];
  const api = Object.getOwnPropertyNames(Object.getPrototypeOf(all[0].pn)).filter((k) => !notKernels.includes(k));
  assert.deepEqual(KERNELS.map((k) => k.name).sort(), [...api].sort());
});

for (const { name, pn } of all) {
  for (const kernel of KERNELS) {
    test(`${name}: ${kernel.name} — ${kernel.variants.length} variants × sizes 1…${3 * kernel.block + 3} and large${kernel.inPlace ? ', also in place' : ''}`, () => {
      let calls = 0;
      for (const variant of kernel.variants) {
        for (const n of sizesFor(kernel)) {
          for (const inPlace of kernel.inPlace ? [false, true] : [false]) {
            const at = `${kernel.name} ${JSON.stringify(variant)} n=${n}${inPlace ? ' in place' : ''}`;
            const checks = kernel.run(pn, n, variant, inPlace);
            assert.ok(checks.length > 0, `${at}: no check`);
            for (const { what, err, bound, compared } of checks) {
              assert.ok(compared > 0, `${at}: ${what} compared nothing`);
              assert.ok(err <= bound, `${at}: ${what} error ${err} > ${bound}`);
              const key = `${kernel.name}: ${what}`;
              measured.set(key, Math.max(measured.get(key) ?? 0, err));
            }
            calls++;
          }
        }
      }
      assert.equal(calls, kernel.variants.length * sizesFor(kernel).length * (kernel.inPlace ? 2 : 1));
    });
  }
}

after(() => {
  if (process.env.MEASURE) for (const [key, err] of measured) console.log(`measured ${key}: ${err}`);
});
