import type { RunningEmulators } from '../../bin/local/emulators';
import { EMULATORS_KEY } from './global-setup';

/** Stops the emulators global-setup.ts started; nothing may outlive the test run. */
export default async function globalTeardown(): Promise<void> {
  const emulators = (globalThis as Record<string, unknown>)[EMULATORS_KEY] as RunningEmulators | undefined;
  delete (globalThis as Record<string, unknown>)[EMULATORS_KEY];
  await emulators?.stop();
}
