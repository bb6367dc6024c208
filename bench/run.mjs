// bench/run.mjs — everything `make bench` prints.
import { benchFrames } from './frames.mjs';
import { benchKernels } from './kernels.mjs';
import { benchSizes } from './sizes.mjs';

const kernels = await benchKernels();
console.log('## Kernels (ms per call, fastest of 7 rounds, one run, this machine)\n');
console.log(kernels.table);
console.log('\nTargets:');
console.log(kernels.checks.join('\n'));
console.log('\n## Figures: repaint work per slider input (headless Chromium, 50 inputs)\n');
console.log((await benchFrames()).table);
console.log('\n## Sizes\n');
console.log(await benchSizes());
