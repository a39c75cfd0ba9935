import { Link } from 'react-router';
import { JsonView } from '../../../components/json-view';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useProfile } from '../api/profiles';
import type { ProfileKind } from '../utils/profile-query';
import { QueryState } from '../../../components/query-state';

/** A user's or company's merged profile: ids, dates, campaign and metadata. */
export function ProfileCard({ kind, id }: { kind: ProfileKind; id: string }) {
  const format = useFormatTime();
  const profile = useProfile(kind, id);
  if (!profile.isSuccess) return <QueryState query={profile} loading="Loading the profile…" />;
  const source = profile.data._source;
  return (
    <article className="profile" aria-label="Profile">
      <dl className="facts">
        <dt>{kind === 'users' ? 'User id' : 'Company id'}</dt>
        <dd>
          <code>{id}</code>
        </dd>
        {kind === 'users' && source.company_id && (
          <>
            <dt>Company</dt>
            <dd>
              <Link to={`/companies/${encodeURIComponent(source.company_id)}`}>{source.company_id}</Link>
            </dd>
          </>
        )}
        {source.created_at && (
          <>
            <dt>First seen</dt>
            <dd>{format(source.created_at)}</dd>
          </>
        )}
        {source.updated_at && (
          <>
            <dt>Last updated</dt>
            <dd>{format(source.updated_at)}</dd>
          </>
        )}
      </dl>
      {source.campaign && (
        <section aria-label="Campaign">
          <h2>Campaign</h2>
          <JsonView value={source.campaign} label="Campaign" />
        </section>
      )}
      <section aria-label="Metadata">
        <h2>Metadata</h2>
        <JsonView value={source.metadata ?? {}} label="Profile metadata" />
      </section>
    </article>
  );
}
