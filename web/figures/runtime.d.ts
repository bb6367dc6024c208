import type { InitOptions, Posnorm } from '../../src/js/posnorm.js';
/** Options for the posnorm instance the figures share; call before the first figure starts. */
export declare function configure(initOptions: InitOptions): void;
/** The shared posnorm instance. */
export declare function getPosnorm(): Promise<Posnorm>;
