import type { InitOptions, Posnorm } from '../../../src/js/posnorm.js';

/** Options for the figures of a page: init()'s options for the shared instance, and page-wide behaviour. */
export interface FigureOptions extends InitOptions {
  /** "Copy link" also puts the link in the address bar (history.replaceState). Default false. */
  history?: boolean;
  /** The host the Embed snippets point at (an absolute http(s) URL of the folder that holds web/ and build/); null returns to the default, the host the modules were loaded from. */
  embedBase?: string | URL | null;
}
/** Sets the figures' options; call before the first figure starts. Safe to import on a server. */
export declare function configure(options?: FigureOptions): void;
/** The page-wide settings now in force. */
export declare function figureSettings(): { history: boolean; embedBase: string | undefined };
/** The shared posnorm instance. */
export declare function getPosnorm(): Promise<Posnorm>;
