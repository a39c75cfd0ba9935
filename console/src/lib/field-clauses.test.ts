import fc from 'fast-check';
import { fieldClause, pickableFields, withClause } from './field-clauses';

describe('pickable fields', () => {
  it('offers text as its exact .raw form, leaves out dates, objects and ids, and lists the common ones first', () => {
    const fields = pickableFields({
      _id: { type: 'keyword' },
      'metadata.plan': { type: 'text', fields: { raw: { type: 'keyword' } } },
      action_name: { type: 'text', fields: { raw: { type: 'keyword' } } },
      'request.time': { type: 'date' },
      'response.status': { type: 'long' },
      'metadata.trial': { type: 'boolean' },
      event_type: { type: 'keyword' },
    });
    expect(fields.map((field) => field.name)).toEqual([
      'action_name.raw',
      'virtual_event_types',
      'response.status',
      'event_type',
      'metadata.plan.raw',
      'metadata.trial',
    ]);
    expect(fields.find((field) => field.name === 'metadata.plan.raw')?.type).toBe('keyword');
  });

  it('writes a picked value as a clause the query syntax reads back exactly', () => {
    expect(fieldClause({ name: 'response.status', type: 'long' }, '500')).toBe('response.status:500');
    expect(fieldClause({ name: 'response.status', type: 'long' }, '5xx')).toBe('response.status:"5xx"');
    expect(fieldClause({ name: 'metadata.trial', type: 'boolean' }, 'true')).toBe('metadata.trial:true');
    expect(fieldClause({ name: 'virtual_event_types', type: 'virtual' }, 'Signed "Up"')).toBe('virtual_event_types:"Signed \\"Up\\""');
  });

  it('ANDs a clause to a filter, and a blank filter becomes the clause alone', () => {
    expect(withClause(undefined, 'a:1')).toBe('a:1');
    expect(withClause('  ', 'a:1')).toBe('a:1');
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (filter, clause) => {
        const combined = withClause(filter, clause);
        expect(combined.endsWith(clause)).toBe(true);
        if (filter.trim() !== '') expect(combined).toBe(`${filter.trim()} AND ${clause}`);
      }),
    );
  });
});
