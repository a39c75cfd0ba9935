import { ensureConsoleBuilt } from './local/console-build';

/**
 * `npm install` / `npm ci` (postinstall): builds the web console once, so the first `npm start`
 * serves it at once instead of building it then. A current build is left as it is.
 */
ensureConsoleBuilt({ log: (line) => console.log(line) }).catch((error: unknown) => {
  // A failed build does not fail the install: `npm start` tries again and says why.
  console.warn(`console: not built at install (${error instanceof Error ? error.message : String(error)}); npm start will build it`);
});
