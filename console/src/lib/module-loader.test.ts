import { moduleLoader } from './module-loader';

describe('moduleLoader', () => {
  it('imports once, and reads the value synchronously once loaded', async () => {
    let imports = 0;
    const loader = moduleLoader(async () => {
      imports += 1;
      return 'page';
    });
    expect(loader.loaded).toBeUndefined();
    const first = loader.load();
    expect(loader.load()).toBe(first);
    await expect(first).resolves.toBe('page');
    expect(loader.loaded).toBe('page');
    await loader.load();
    expect(imports).toBe(1);
  });

  it('imports again after a failure', async () => {
    let attempts = 0;
    const loader = moduleLoader(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('chunk failed to load');
      return 'page';
    });
    await expect(loader.load()).rejects.toThrow('chunk failed to load');
    expect(loader.loaded).toBeUndefined();
    await expect(loader.load()).resolves.toBe('page');
    expect(attempts).toBe(2);
  });
});
