// bench/cpu.mjs's describeCpu: the CPU line make bench writes beside its
// tables (model, family and model numbers, a core's own caches, shared ones).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeCpu } from '../bench/cpu.mjs';

const cpuinfo = `processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC
stepping\t: 1
`;
// sysfs reads end in a newline, as they do on Linux
const cache = (level, type, size, shared) => ({ level: `${level}\n`, type: `${type}\n`, size: `${size}\n`, shared: `${shared}\n` });

test('describeCpu names the family, the model, a core\'s own data caches and the shared ones', () => {
  const caches = [cache(1, 'Data', '32K', '0'), cache(1, 'Instruction', '32K', '0'), cache(2, 'Unified', '1024K', '0'), cache(3, 'Unified', '32768K', '0-1')];
  assert.equal(describeCpu({ model: 'ignored', logical: 2, cpuinfo, caches }),
    'AMD EPYC (family 25, model 17), 2 logical cores; per core L1d 32 KiB, L2 1 MiB; L3 32 MiB shared by cpus 0-1');
});

test('describeCpu orders the caches by level and keeps sizes that are not whole MiB in KiB', () => {
  const caches = [cache(3, 'Unified', '16384K', '0-3'), cache(2, 'Unified', '1280K', '0'), cache(1, 'Data', '48K', '0')];
  assert.equal(describeCpu({ logical: 4, cpuinfo: cpuinfo.replace('model\t\t: 17', 'model\t\t: 2').replace('25', '26'), caches }),
    'AMD EPYC (family 26, model 2), 4 logical cores; per core L1d 48 KiB, L2 1280 KiB; L3 16 MiB shared by cpus 0-3');
});

test('describeCpu without /proc/cpuinfo or sysfs says what os.cpus() says, and "unknown CPU" without that', () => {
  assert.equal(describeCpu({ model: ' Apple M2 ', logical: 8 }), 'Apple M2, 8 logical cores');
  assert.equal(describeCpu({ logical: 1 }), 'unknown CPU, 1 logical core');
});
