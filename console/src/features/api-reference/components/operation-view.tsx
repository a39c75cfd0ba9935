import type { OperationOutline } from '../utils/openapi-outline';
import { SchemaView } from './schema-view';

/** One operation, folded to its method, path and summary; opened, its parameters, body and answers. */
export function OperationView({ operation }: { operation: OperationOutline }) {
  return (
    <details className="operation" id={operation.id}>
      <summary>
        <span className={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span> <code>{operation.path}</code> {operation.summary}
      </summary>
      {operation.description && <p>{operation.description}</p>}
      <p>
        {operation.scopes.length > 0 ? (
          <>
            Scope:{' '}
            {operation.scopes.map((scope) => (
              <code key={scope}>{scope}</code>
            ))}
          </>
        ) : (
          'No credentials needed.'
        )}
      </p>
      {operation.parameters.length > 0 && (
        <table aria-label={`Parameters of ${operation.method} ${operation.path}`}>
          <thead>
            <tr>
              <th scope="col">Parameter</th>
              <th scope="col">In</th>
              <th scope="col">Type</th>
              <th scope="col">What it is</th>
            </tr>
          </thead>
          <tbody>
            {operation.parameters.map((parameter) => (
              <tr key={`${parameter.in}:${parameter.name}`}>
                <td>
                  <code>{parameter.name}</code> {parameter.required && <strong>required</strong>}
                </td>
                <td>{parameter.in}</td>
                <td>{parameter.schema?.type ?? ''}</td>
                <td>{parameter.description ?? parameter.schema?.description ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {operation.body && (
        <section aria-label={`Body of ${operation.method} ${operation.path}`}>
          <h4>
            Body ({operation.body.mediaTypes.join(', ')}){operation.body.required ? '' : ', optional'}
          </h4>
          {operation.body.schema && <SchemaView schema={operation.body.schema} />}
        </section>
      )}
      <section aria-label={`Answers of ${operation.method} ${operation.path}`}>
        <h4>Answers</h4>
        <ul className="responses">
          {operation.responses.map((response) => (
            <li key={response.status}>
              <strong>{response.status}</strong> {response.description}
              {response.schema && /^2/.test(response.status) && <SchemaView schema={response.schema} />}
            </li>
          ))}
        </ul>
      </section>
    </details>
  );
}
