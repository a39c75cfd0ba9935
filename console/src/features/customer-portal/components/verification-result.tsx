import type { StatementVerification } from '../api/customer-portal';

/** What the service said of a statement: verified, authentic but superseded, or not, and why. */
export function VerificationResult({ result, files }: { result: StatementVerification; files?: readonly string[] }) {
  const matched = result.events.filter((event) => event.matches).length;
  return (
    <div role="status" aria-label="Check result">
      <p>
        <strong>{result.valid && !result.superseded ? 'Verified' : result.valid ? 'Authentic, but superseded' : 'Not verified'}</strong>: signature{' '}
        {result.signature}
        {result.events.length > 0 && `; ${matched} of ${result.events.length} event lists match`}
        {result.latest_version !== null && `; newest version ${result.latest_version}`}.
      </p>
      {(result.problems.length > 0 || (files?.length ?? 0) > 0) && (
        <ul>
          {files?.map((line) => (
            <li key={line}>{line}</li>
          ))}
          {result.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
