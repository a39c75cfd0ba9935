import { keysetPage } from './keyset-pages';

describe('keyset pages', () => {
  it("take the items and the next page's position from the answer", () => {
    const headers = new Headers({ 'x-next-before-id': 'abc' });
    expect(keysetPage({ data: [{ id: 1 }], response: { ok: true, status: 200, headers } as Response })).toEqual({ items: [{ id: 1 }], next: 'abc' });
    expect(keysetPage({ data: [], response: { ok: true, status: 200, headers: new Headers() } as Response })).toEqual({ items: [] });
  });

  it("throw the API's refusal as an error naming the field", () => {
    const refused = { ok: false, status: 400, headers: new Headers() } as Response;
    expect(() =>
      keysetPage({
        error: {
          error: { status: 400, code: 'invalid_request', message: 'Invalid before_id', details: [{ field: 'before_id', reason: 'is not a resource id' }] },
        },
        response: refused,
      }),
    ).toThrow(expect.objectContaining({ status: 400, details: [{ field: 'before_id', reason: 'is not a resource id' }] }));
  });
});
