import { ApiError, apiErrorOf, fieldProblem } from './api-error';

describe('API errors', () => {
  it("read the service's error shape and OAuth's", () => {
    expect(
      apiErrorOf(400, { error: { status: 400, code: 'invalid_request', message: 'Invalid body', details: [{ field: 'slug', reason: 'bad' }] } }),
    ).toMatchObject({ status: 400, code: 'invalid_request', message: 'Invalid body', details: [{ field: 'slug', reason: 'bad' }] });
    expect(apiErrorOf(401, { error: 'invalid_grant', error_description: 'The username or password is wrong' })).toMatchObject({
      status: 401,
      code: 'invalid_grant',
      message: 'The username or password is wrong',
    });
    expect(apiErrorOf(502, undefined)).toMatchObject({ status: 502, message: 'The API answered 502' });
  });

  it('say why a field, or anything under it, was refused', () => {
    const error = new ApiError(400, 'invalid_request', 'Invalid body', [
      { field: 'tiers[1].up_to', reason: 'must be inf' },
      { field: 'slug', reason: 'bad' },
    ]);
    expect(fieldProblem(error, 'slug')).toBe('bad');
    expect(fieldProblem(error, 'tiers')).toBe('[1].up_to: must be inf');
    expect(fieldProblem(error, 'tiers[1]')).toBe('up_to: must be inf');
    expect(fieldProblem(error, 'name')).toBeUndefined();
    expect(fieldProblem(new Error('x'), 'slug')).toBeUndefined();
  });
});
