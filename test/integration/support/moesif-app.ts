import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An Express API server with the unmodified moesif-nodejs middleware in front, pointed at a local
 * collector: what a user's API server runs. moesif-nodejs keeps its fetched config in module state,
 * so each server loads its own copy, as two API servers would.
 */
export async function startMoesifApp(options: Record<string, unknown>): Promise<{ url: string; close: () => Promise<void> }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const express = require('express');
  let moesif: ((options: Record<string, unknown>) => unknown) | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    moesif = require('moesif-nodejs');
  });
  const app = express();
  app.use(moesif!(options));
  app.get(/.*/, (_req: unknown, res: { json(body: unknown): void }) => res.json({ ok: true }));
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      // Let the SDK's batched event delivery (2 s timer) finish before the collector goes away.
      await new Promise((resolve) => setTimeout(resolve, 2500));
    },
  };
}
