import { analyzeText, fieldNameProblem, isToken, resolveField, textRangeProblem } from '../../../../functions/search/fields';
import { commonComponentTemplate, indexTemplates } from '../../../../functions/search/opensearch/templates';
import { DOC_ID_FIELD, KEYWORD_PATHS, mappedField } from '../../../../functions/search/opensearch/stored-source';

describe('resolveField', () => {
  test.each([
    ['_id', { path: '_id', raw: false, type: 'id' }, 'id'],
    ['org_id', { path: 'org_id', raw: false, type: 'keyword' }, 'org_id'],
    ['app_id', { path: 'app_id', raw: false, type: 'keyword' }, 'app_id'],
    ['time', { path: 'time', raw: false, type: 'date' }, 'time'],
    ['user_id', { path: 'user_id', raw: false, type: 'keyword' }, 'user_id'],
    ['user_id.raw', { path: 'user_id', raw: true, type: 'keyword' }, 'user_id'],
    ['event_type', { path: 'event_type', raw: false, type: 'keyword' }, 'event_type'],
    ['request.verb', { path: 'request.verb', raw: false, type: 'keyword' }, 'verb'],
    ['session_token', { path: 'session_token', raw: false, type: 'keyword' }, 'session_token'],
    ['request.route', { path: 'request.route', raw: false, type: 'text' }, 'route'],
    ['request.route.raw', { path: 'request.route', raw: true, type: 'keyword' }, 'route'],
    ['response.status', { path: 'response.status', raw: false, type: 'number' }, 'status'],
    ['weight', { path: 'weight', raw: false, type: 'number' }, 'weight'],
    ['is_late', { path: 'is_late', raw: false, type: 'boolean' }, 'is_late'],
    ['received_at', { path: 'received_at', raw: false, type: 'date' }, 'received_at'],
    // Every event is dated by its request.time (documentProblem refuses one that is not).
    ['request.time', { path: 'request.time', raw: false, type: 'date' }, 'time'],
  ])('events %s', (name, expected, column) => {
    const field = resolveField('events', name);
    expect(field).toMatchObject(expected);
    expect(field.hot?.name).toBe(column);
  });

  test.each([
    ['direction', 'keyword'],
    ['transaction_id', 'keyword'],
    ['span.parent_id', 'keyword'],
    ['request.time.raw', 'keyword'],
    ['response.time', 'date'],
    ['metadata.signed_up_at', 'date'],
    ['metadata.last_login_time', 'date'],
    ['metadata.plan', 'unknown'],
    ['metadata.plan.raw', 'keyword'],
    ['request.headers.x-request-id', 'unknown'],
    ['request.headers.user_id', 'keyword'],
    ['span.id', 'unknown'],
  ])('events JSON path %s is %s', (name, type) => {
    const field = resolveField('events', name);
    expect(field.type).toBe(type);
    expect(field.hot).toBeUndefined();
  });

  test('profiles: their own columns and dates', () => {
    expect(resolveField('users', 'metadata.email')).toMatchObject({ type: 'text', hot: { name: 'email' } });
    expect(resolveField('users', 'metadata.email.raw')).toMatchObject({ type: 'keyword', raw: true, hot: { name: 'email' } });
    expect(resolveField('users', 'created_at').type).toBe('date');
    expect(resolveField('subscriptions', 'current_period_end').type).toBe('date');
    expect(resolveField('subscriptions', 'status')).toMatchObject({ type: 'text', hot: { name: 'status' } });
    // The events table's typed status is response.status; a profile's response.status is plain JSON.
    expect(resolveField('users', 'response.status')).toEqual({ path: 'response.status', raw: false, type: 'unknown' });
    expect(resolveField('users', 'request.time')).toEqual({ path: 'request.time', raw: false, type: 'date' });
  });

  test('a .raw of a non-string column is the JSON string, not the typed column', () => {
    expect(resolveField('events', 'received_at.raw')).toEqual({ path: 'received_at', raw: true, type: 'keyword' });
    expect(resolveField('events', 'time.raw')).toEqual({ path: 'time', raw: true, type: 'keyword' });
  });
});

describe('analyzeText', () => {
  test.each<[string, string[]]>([
    ['Hello, World!', ['hello', 'world']],
    ['/api/v1/users/{id}', ['api', 'v1', 'users', 'id']],
    ['Mozilla/5.0 (X11; Linux x86_64)', ['mozilla', '5', '0', 'x11', 'linux', 'x86', '64']],
    ['user@example.com', ['user', 'example', 'com']],
    ['Straße ÉTÉ 日本語 naïve', ['straße', 'été', '日本語', 'naïve']],
    ['  --  ', []],
    ['', []],
  ])('%j', (text, tokens) => {
    expect(analyzeText(text)).toEqual(tokens);
  });

  test('isToken: lower-case letters and digits only', () => {
    expect(isToken('linux')).toBe(true);
    expect(isToken('x86')).toBe(true);
    expect(isToken('Linux')).toBe(false);
    expect(isToken('x-86')).toBe(false);
    expect(isToken('')).toBe(false);
  });
});

describe('fieldNameProblem', () => {
  test.each(['user_id', 'request.headers.user-agent', 'metadata.a b', "metadata.it's", '_id'])('accepts %j', (name) => {
    expect(fieldNameProblem(name)).toBeUndefined();
  });

  test.each(['', '_all', '_index', '_source', 'index_meta.time', 'metadata.*', 'a?', 'a"b', 'a\\b', 'a\nb', '.a', 'a.', 'a..b', 'x'.repeat(513)])(
    'refuses %j',
    (name) => {
      expect(fieldNameProblem(name)).toEqual(expect.any(String));
    },
  );
});

test('textRangeProblem: text fields, and word bounds on untyped fields', () => {
  const range = (field: string, gte: string | number) => ({ type: 'range' as const, field, gte });
  expect(textRangeProblem(range('request.route', 1), resolveField('events', 'request.route'))).toMatch(/use request.route.raw/);
  expect(textRangeProblem(range('metadata.plan', 'a'), resolveField('events', 'metadata.plan'))).toMatch(/use metadata.plan.raw/);
  expect(textRangeProblem(range('metadata.count', '10'), resolveField('events', 'metadata.count'))).toBeUndefined();
  expect(textRangeProblem(range('metadata.plan.raw', 'a'), resolveField('events', 'metadata.plan.raw'))).toBeUndefined();
  expect(textRangeProblem(range('user_id', 'a'), resolveField('events', 'user_id'))).toBeUndefined();
});

/**
 * The OpenSearch templates must type fields as fields.ts does. These are the rules that hold today;
 * the report to the lead lists the ones the templates do not implement yet.
 */
describe('the OpenSearch templates agree with the typing rules', () => {
  const common = commonComponentTemplate('').body.template!.mappings!;
  const events = indexTemplates('')[0]!.body.template!.mappings!.properties as Record<
    string,
    { type?: string; properties?: Record<string, { type?: string }> }
  >;

  test('every keyword the templates map is one mappedField reads for .raw, since keywords keep no .raw copy', () => {
    type Mapping = { type?: string; fields?: unknown; properties?: Record<string, Mapping> };
    const keywords = (properties: Record<string, Mapping>, prefix = ''): string[] =>
      Object.entries(properties).flatMap(([name, mapping]) => {
        expect(mapping.type === 'keyword' ? mapping.fields : undefined).toBeUndefined();
        if (mapping.properties) return keywords(mapping.properties, `${prefix}${name}.`);
        return mapping.type === 'keyword' ? [`${prefix}${name}`] : [];
      });
    const mapped = [...keywords(common.properties as Record<string, Mapping>), ...keywords(events as Record<string, Mapping>)].filter(
      (path) => path !== DOC_ID_FIELD,
    );
    expect(new Set(mapped)).toEqual(new Set(KEYWORD_PATHS));
    for (const path of [...KEYWORD_PATHS, 'request.body.order_id']) expect(mappedField(resolveField('events', `${path}.raw`))).toBe(path);
    expect(mappedField(resolveField('events', 'request.route.raw'))).toBe('request.route.raw');
    expect(mappedField(resolveField('events', 'metadata.valid_ids.raw'))).toBe('metadata.valid_ids.raw');
  });

  test('strings of *_id fields are keywords', () => {
    const ids = (common.dynamic_templates as Record<string, { match?: string; mapping: { type: string; fields?: unknown } }>[]).find((entry) => 'ids' in entry)!
      .ids!;
    expect(ids.match).toBe('*_id');
    expect(ids.mapping.type).toBe('keyword');
    expect(resolveField('events', 'any_thing_id').type).toBe('keyword');
  });

  test('tenant keys are keywords', () => {
    expect(common.properties).toMatchObject({ org_id: { type: 'keyword' }, app_id: { type: 'keyword' } });
  });

  test('event enums, dates, numbers and booleans', () => {
    expect(events.event_type?.type).toBe('keyword');
    expect(resolveField('events', 'event_type').type).toBe('keyword');
    expect(events.received_at?.type).toBe('date');
    expect(events.request?.properties?.time?.type).toBe('date');
    expect(events.response?.properties?.time?.type).toBe('date');
    expect(events.response?.properties?.status?.type).toBe('integer');
    expect(events.is_late?.type).toBe('boolean');
    expect(resolveField('events', 'response.status').type).toBe('number');
    expect(resolveField('events', 'is_late').type).toBe('boolean');
  });
});
