import fc from 'fast-check';
import { callerFieldsOf, geographyOfRecord, openCallerEnricher, withCallerFields } from '../../../functions/enrichment';
import type { IndexDocument } from '../../../functions/search/port';

const enricher = openCallerEnricher();

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

function eventDoc(request: Record<string, unknown>, kind: IndexDocument['kind'] = 'events'): IndexDocument {
  return { kind, id: 'e1', org_id: 'o', app_id: 'a', time: '2026-11-01T00:00:00.000Z', source: { request } };
}

describe('IP geography (DB-IP Country Lite, shipped)', () => {
  it.each([
    ['81.2.69.142', 'GB', 'United Kingdom'],
    ['8.8.8.8', 'US', 'United States'],
    ['2a00:1450:4001:830::200e', 'DE', 'Germany'],
  ])('%s is in %s', (ip, code, name) => {
    expect(enricher.geography(ip)).toEqual({ country_iso_code: code, country_name: name });
  });

  it.each(['127.0.0.1', '10.1.2.3', '192.168.0.1', '::1', 'not-an-ip', '', '999.1.1.1'])('%s has no country', (ip) => {
    expect(enricher.geography(ip)).toBeUndefined();
  });

  it('reads the nested layout of MaxMind databases too (region and city when the database has them)', () => {
    expect(
      geographyOfRecord({
        country: { iso_code: 'FR', names: { en: 'France' } },
        subdivisions: [{ names: { en: 'Île-de-France' } }],
        city: { names: { en: 'Paris' } },
      }),
    ).toEqual({ country_iso_code: 'FR', country_name: 'France', region_name: 'Île-de-France', city_name: 'Paris' });
    expect(geographyOfRecord({ country_code: 'JP', state1: 'Tokyo', city: 'Shibuya' })).toEqual({
      country_iso_code: 'JP',
      country_name: 'Japan',
      region_name: 'Tokyo',
      city_name: 'Shibuya',
    });
    expect(geographyOfRecord({ continent: { code: 'EU' } })).toBeUndefined();
  });

  it('never throws, whatever the string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6()), (ip) => {
        const found = enricher.geography(ip);
        if (found !== undefined) expect(found.country_iso_code).toMatch(/^[A-Z0-9]{2}$/);
      }),
    );
  });
});

describe('user agents', () => {
  it.each([
    [CHROME_WINDOWS, { name: 'Chrome', major: '120', os_name: 'Windows', os_major: '10', device_type: 'desktop' }],
    [SAFARI_IPHONE, { name: 'Mobile Safari', major: '17', os_name: 'iOS', os_major: '17', device_type: 'mobile', device: 'Apple iPhone' }],
    ['curl/8.4.0', { name: 'curl', major: '8' }],
    ['python-requests/2.31.0', { name: 'python-requests', major: '2' }],
    ['PostmanRuntime/7.36.0', { name: 'Postman', major: '7' }],
    ['Go-http-client/1.1', { name: 'Go-http-client', major: '1' }],
    ['Python/3.11 aiohttp/3.9.1', { name: 'aiohttp', major: '3' }],
    ['node', { name: 'node' }],
  ])('%s', (userAgent, client) => {
    expect(enricher.client(userAgent)).toEqual(client);
  });

  it('names nothing for a string it does not recognise', () => {
    expect(enricher.client('%%%')).toBeUndefined();
  });

  it('never throws, and answers the same string the same way (cached or not)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (userAgent) => {
        expect(enricher.client(userAgent)).toEqual(enricher.client(userAgent));
      }),
    );
  });
});

describe('withCallerFields', () => {
  it("adds an API call's country and client, from its User-Agent header in any case", () => {
    const [document] = withCallerFields(enricher, [eventDoc({ ip_address: '81.2.69.142', headers: { 'USER-AGENT': 'curl/8.4.0' }, verb: 'GET' })]);
    expect(document!.source['request']).toEqual({
      ip_address: '81.2.69.142',
      headers: { 'USER-AGENT': 'curl/8.4.0' },
      verb: 'GET',
      geo_ip: { country_iso_code: 'GB', country_name: 'United Kingdom' },
      user_agent: { name: 'curl', major: '8' },
    });
  });

  it("reads an action's user_agent_string", () => {
    expect(callerFieldsOf(enricher, { user_agent_string: CHROME_WINDOWS })).toEqual({
      user_agent: { name: 'Chrome', major: '120', os_name: 'Windows', os_major: '10', device_type: 'desktop' },
    });
  });

  it('keeps what the sender set itself, and adds nothing when there is nothing to read', () => {
    const own = eventDoc({ ip_address: '8.8.8.8', geo_ip: { country_iso_code: 'FR' }, headers: { 'user-agent': 'curl/8.4.0' } });
    expect(withCallerFields(enricher, [own])[0]!.source['request']).toMatchObject({ geo_ip: { country_iso_code: 'FR' }, user_agent: { name: 'curl' } });
    const bare = eventDoc({ ip_address: '10.0.0.1', headers: {} });
    expect(withCallerFields(enricher, [bare])[0]).toBe(bare);
  });

  it("reads a sender's string user_agent as the User-Agent, keeps it as user_agent_string, and never leaves a scalar where an object goes", () => {
    const sent = eventDoc({ ip_address: '10.0.0.1', user_agent: 'curl/8.4.0', geo_ip: 'somewhere', headers: {} });
    expect(withCallerFields(enricher, [sent])[0]!.source['request']).toEqual({
      ip_address: '10.0.0.1',
      headers: {},
      user_agent_string: 'curl/8.4.0',
      user_agent: { name: 'curl', major: '8' },
    });
    const unreadable = eventDoc({ user_agent: 42, headers: {} });
    expect(withCallerFields(enricher, [unreadable])[0]!.source['request']).toEqual({ headers: {} });
  });

  it('leaves profiles alone', () => {
    const profile = eventDoc({ ip_address: '8.8.8.8' }, 'users');
    expect(withCallerFields(enricher, [profile])[0]).toBe(profile);
  });
});
