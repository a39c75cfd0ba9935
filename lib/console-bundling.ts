import * as path from 'node:path';
import { REPO_ROOT } from './service-function';

/**
 * The web console on AWS: the management Lambda serves it at /console/ (API Gateway's `$default`
 * route already sends every path it does not know there). Its built files are put beside the
 * Lambda's bundle at `cdk deploy`/`cdk synth`, by Vite, into `console/`: one deployment, one origin
 * for the console and the API (no CORS, no second distribution), and hashed assets the browser
 * caches for a year, so a page load costs the Lambda a request or two.
 */
export function consoleBundlingCommands(_inputDir: string, outputDir: string): string[] {
  const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  // NODE_ENV=production: React's production build, whatever the environment cdk runs in.
  return [
    `NODE_ENV=production node "${vite}" build "${path.join(REPO_ROOT, 'console')}" --outDir "${path.join(outputDir, 'console')}" --emptyOutDir --logLevel warn`,
  ];
}
