import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { signStatement, statementKeyPair, statementSignatureHolds } from '../../../functions/customer-portal/statements/statement-keys';
import { canonicalJson } from '../../../values/canonical-json';

/** Shuffles every object's keys (deeply): the same document as another writer might lay it out. */
const reordered = (value: unknown, seed: number): unknown => {
  if (Array.isArray(value)) return value.map((item) => reordered(item, seed));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  const order = keys.map((key, n) => ({ key, rank: (n * 7919 + seed) % (keys.length + 1) })).sort((a, b) => a.rank - b.rank);
  return Object.fromEntries(order.map(({ key }) => [key, reordered((value as Record<string, unknown>)[key], seed)]));
};

const statementLike = fc.record({
  org_id: fc.string({ minLength: 1 }),
  app_id: fc.string({ minLength: 1 }),
  version: fc.integer({ min: 1, max: 1000 }),
  meters: fc.array(
    fc.record({ billing_meter_id: fc.string(), usage: fc.integer(), amount: fc.option(fc.string(), { nil: null }), events_digest: fc.string() }),
  ),
  extra: fc.jsonValue(),
});

describe('statement signing', () => {
  const root = randomBytes(32);

  it('writes one canonical form per document, whatever the order of its keys, and it parses back to the document', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const canonical = canonicalJson(value);
        expect(canonicalJson(reordered(value, seed))).toBe(canonical);
        expect(canonicalJson(JSON.parse(canonical))).toBe(canonical);
        expect(canonical).not.toMatch(/^\s|\s$/);
      }),
    );
  });

  it('verifies a signed statement however its keys are laid out, and refuses it after any change of a value', () => {
    fc.assert(
      fc.property(statementLike, fc.nat(), (statement, seed) => {
        const pair = statementKeyPair(root, { orgId: statement.org_id, appId: statement.app_id });
        const signature = signStatement(pair, statement);
        expect(statementSignatureHolds(pair, reordered({ ...statement, signature: { value: signature } }, seed) as Record<string, unknown>, signature)).toBe(
          true,
        );
        expect(statementSignatureHolds(pair, { ...statement, version: statement.version + 1 }, signature)).toBe(false);
        const meters = statement.meters.map((meter, n) => (n === seed % Math.max(1, statement.meters.length) ? { ...meter, usage: meter.usage + 1 } : meter));
        if (statement.meters.length > 0) expect(statementSignatureHolds(pair, { ...statement, meters }, signature)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it('gives each app its own key, the same every time it is derived', () => {
    const first = statementKeyPair(root, { orgId: 'o', appId: 'a' });
    expect(statementKeyPair(Buffer.from(root), { orgId: 'o', appId: 'a' }).publicKeyRaw).toBe(first.publicKeyRaw);
    expect(statementKeyPair(root, { orgId: 'o', appId: 'b' }).publicKeyRaw).not.toBe(first.publicKeyRaw);
    expect(statementKeyPair(root, { orgId: 'o\u0000a', appId: '' }).publicKeyRaw).not.toBe(first.publicKeyRaw);
    expect(statementKeyPair(randomBytes(32), { orgId: 'o', appId: 'a' }).publicKeyRaw).not.toBe(first.publicKeyRaw);
    const signature = signStatement(first, { org_id: 'o', app_id: 'a' });
    expect(statementSignatureHolds(statementKeyPair(root, { orgId: 'o', appId: 'b' }), { org_id: 'o', app_id: 'a' }, signature)).toBe(false);
    expect(statementSignatureHolds(first, { org_id: 'o', app_id: 'a' }, 'short')).toBe(false);
  });
});
