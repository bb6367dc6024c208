// bench/run.mjs — everything `make bench` prints.
import { benchKernels } from './kernels.mjs';

const kernels = await benchKernels();
console.log('## Kernels (median ms per call, one run, this machine)\n');
console.log(kernels.table);
console.log('\nTargets:');
console.log(kernels.checks.join('\n'));
