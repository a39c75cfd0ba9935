import type { SchemaOutline } from '../utils/openapi-outline';

/** A schema as nested lists: each member with its type, whether it is required, and what it means. */
export function SchemaView({ schema }: { schema: SchemaOutline }) {
  return (
    <div className="schema">
      <TypeLine schema={schema} />
      <SchemaChildren schema={schema} />
    </div>
  );
}

function TypeLine({ schema }: { schema: SchemaOutline }) {
  return (
    <p className="schema-type">
      <code>{schema.name ? `${schema.name} (${schema.type})` : schema.type}</code>
      {schema.values && <> {schema.values.join(', ')}</>}
      {schema.description && <span className="schema-description"> — {schema.description}</span>}
    </p>
  );
}

function SchemaChildren({ schema }: { schema: SchemaOutline }) {
  if (schema.properties) {
    return (
      <ul className="schema-members">
        {schema.properties.map((property) => (
          <li key={property.name}>
            <code>{property.name}</code> {property.required ? <strong>required</strong> : <span className="optional">optional</span>}{' '}
            <MemberSchema schema={property.schema} />
          </li>
        ))}
      </ul>
    );
  }
  if (schema.items && (schema.items.properties || schema.items.variants)) return <SchemaChildren schema={schema.items} />;
  if (schema.variants) {
    return (
      <ol className="schema-variants">
        {schema.variants.map((variant, i) => (
          <li key={i}>
            <MemberSchema schema={variant} />
          </li>
        ))}
      </ol>
    );
  }
  return null;
}

/** A member's type on its line; its own members fold away until opened. */
function MemberSchema({ schema }: { schema: SchemaOutline }) {
  const nested = schema.properties ?? schema.items?.properties ?? schema.variants;
  if (!nested) return <TypeLine schema={schema} />;
  return (
    <details>
      <summary>
        <TypeLine schema={schema} />
      </summary>
      <SchemaChildren schema={schema} />
    </details>
  );
}
