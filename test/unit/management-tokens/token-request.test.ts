import { OAuthError } from '../../../functions/oauth/oauth-error';
import { parsePasswordGrantRequest } from '../../../functions/oauth/token-request';
import type { HttpRequest } from '../../../functions/shared/http/types';

function request(body: string, contentType?: string): HttpRequest {
  return {
    method: 'POST',
    path: '/v1/o/oauth/access_tokens',
    headers: contentType ? { 'content-type': contentType } : {},
    cookies: {},
    query: {},
    pathParams: { orgId: 'o' },
    rawBody: Buffer.from(body),
    bodyText: body,
    sourceIp: '',
    receivedAt: new Date(),
  };
}

function oauthError(fn: () => unknown): OAuthError {
  try {
    fn();
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('token request parsing', () => {
  it('reads a form body and a JSON body alike', () => {
    const expected = { username: 'alice', password: 'p w', scope: 'read:events', app_id: undefined };
    expect(
      parsePasswordGrantRequest(
        request('grant_type=password&username=alice&password=p+w&scope=read%3Aevents', 'application/x-www-form-urlencoded; charset=utf-8'),
      ),
    ).toEqual(expected);
    expect(
      parsePasswordGrantRequest(
        request(JSON.stringify({ grant_type: 'password', username: 'alice', password: 'p w', scope: 'read:events' }), 'application/json'),
      ),
    ).toEqual(expected);
  });

  it('answers in RFC 6749 codes', () => {
    const form = 'application/x-www-form-urlencoded';
    expect(oauthError(() => parsePasswordGrantRequest(request('username=a&password=b', form)))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(oauthError(() => parsePasswordGrantRequest(request('grant_type=client_credentials', form)))).toMatchObject({
      status: 400,
      code: 'unsupported_grant_type',
    });
    expect(oauthError(() => parsePasswordGrantRequest(request('grant_type=password&password=b', form))).description).toMatch(/username/);
    expect(oauthError(() => parsePasswordGrantRequest(request('grant_type=password&username=a', form))).description).toMatch(/password/);
    expect(oauthError(() => parsePasswordGrantRequest(request('grant_type=password&grant_type=password&username=a&password=b', form))).description).toMatch(
      /more than once/,
    );
    expect(oauthError(() => parsePasswordGrantRequest(request('{not json', 'application/json')))).toMatchObject({ code: 'invalid_request' });
    expect(oauthError(() => parsePasswordGrantRequest(request('[]', 'application/json')))).toMatchObject({ code: 'invalid_request' });
    expect(
      oauthError(() => parsePasswordGrantRequest(request(JSON.stringify({ grant_type: 'password', username: 7, password: 'x' }), 'application/json')))
        .description,
    ).toMatch(/username/);
    expect(oauthError(() => parsePasswordGrantRequest(request('x', 'text/plain')))).toMatchObject({ code: 'invalid_request' });
  });
});
