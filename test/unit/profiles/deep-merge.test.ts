import { deepMerge } from '../../../functions/profiles/deep-merge';

describe('deepMerge', () => {
  it('merges nested objects key by key', () => {
    const stored = { user_id: 'u1', metadata: { email: 'a@x.io', plan: { name: 'free', seats: 1 } } };
    expect(deepMerge(stored, { metadata: { plan: { seats: 5 } } })).toEqual({ user_id: 'u1', metadata: { email: 'a@x.io', plan: { name: 'free', seats: 5 } } });
  });

  it('replaces arrays, scalars and sets null; skips undefined', () => {
    expect(deepMerge({ a: [1, 2], b: 1, c: { d: 1 }, e: 'keep' }, { a: [3], b: 'two', c: null, e: undefined })).toEqual({
      a: [3],
      b: 'two',
      c: null,
      e: 'keep',
    });
  });

  it('is idempotent (a retried update changes nothing)', () => {
    const stored = { metadata: { x: 1 } };
    const patch = { metadata: { y: 2 }, company_id: 'c1' };
    const once = deepMerge(stored, patch);
    expect(deepMerge(once, patch)).toEqual(once);
  });

  it('keeps a "__proto__" key as data and never changes a prototype', () => {
    const patch = JSON.parse('{"metadata": {"__proto__": {"polluted": true}, "x": 1}}');
    const merged = deepMerge({ metadata: { y: 2 } }, patch);
    const metadata = merged.metadata as Record<string, unknown>;
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect((metadata as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(metadata).sort()).toEqual(['__proto__', 'x', 'y']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('does not mutate its inputs', () => {
    const stored = { metadata: { x: 1 } };
    const patch = { metadata: { y: 2 } };
    deepMerge(stored, patch);
    expect(stored).toEqual({ metadata: { x: 1 } });
    expect(patch).toEqual({ metadata: { y: 2 } });
  });
});
