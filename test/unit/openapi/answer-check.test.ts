import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AnswerChecker } from '../../../functions/openapi/answer-check';
import { OPENAPI_FILES } from '../../../functions/openapi/documents';

const checker = new AnswerChecker(JSON.parse(readFileSync(resolve(__dirname, '../../..', OPENAPI_FILES.management), 'utf8')), 'management');
const error = (status: number, code: string) => ({ error: { status, code, message: 'm', details: [] } });

describe('answers checked against the committed management document', () => {
  it('passes a declared status whose body matches', () => {
    expect(checker.problem({ method: 'POST', path: '/search/~/count/events', status: 200, body: { count: 3 } })).toBeUndefined();
    expect(checker.problem({ method: 'POST', path: '/v1/search/~/count/events', status: 504, body: error(504, 'query_timeout') })).toBeUndefined();
  });

  it('names a body that does not match, and a status the operation does not declare', () => {
    expect(checker.problem({ method: 'POST', path: '/search/~/count/events', status: 200, body: { count: 'three' } })).toMatch(
      /does not match its schema: \/count/,
    );
    expect(checker.problem({ method: 'POST', path: '/search/~/count/events', status: 500, body: error(500, 'internal_error') })).toMatch(
      /answered 500, which it does not declare/,
    );
  });

  it('takes 405 with the path’s methods for an undocumented method, 404 for an unknown path, and the preflight', () => {
    expect(
      checker.problem({ method: 'DELETE', path: '/search/~/count/events', status: 405, allow: 'POST, OPTIONS', body: error(405, 'method_not_allowed') }),
    ).toBeUndefined();
    expect(checker.problem({ method: 'DELETE', path: '/search/~/count/events', status: 405, allow: 'GET', body: error(405, 'method_not_allowed') })).toMatch(
      /Allow says GET/,
    );
    expect(checker.problem({ method: 'PATCH', path: '/search/~/count/events', status: 200 })).toMatch(/not documented/);
    expect(checker.problem({ method: 'GET', path: '/no/such/path', status: 404, body: error(404, 'not_found') })).toBeUndefined();
    expect(checker.problem({ method: 'GET', path: '/no/such/path', status: 200 })).toMatch(/no documented path/);
    expect(checker.problem({ method: 'OPTIONS', path: '/search/~/count/events', status: 204 })).toBeUndefined();
  });
});
