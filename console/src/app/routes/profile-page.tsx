import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { BalancesTable } from '../../features/billing/components/balances-table';
import { TransactionForm } from '../../features/billing/components/transaction-form';
import { ChartPanel } from '../../features/charts/components/chart-panel';
import { DEFAULT_SPEC } from '../../features/charts/utils/chart-spec';
import { ProfileCohorts } from '../../features/cohorts/components/profile-cohorts';
import { CompanyUsers } from '../../features/customers/components/company-users';
import { ProfileCard } from '../../features/customers/components/profile-card';
import { SubscriptionsTable } from '../../features/customers/components/subscriptions-table';
import type { ProfileKind } from '../../features/customers/utils/profile-query';
import { EventStream } from '../../features/events/components/event-stream';
import { exactPhrase } from '../../lib/query-text';

/** A user's or company's page: the profile, subscriptions (companies), daily usage and recent events. */
export function ProfilePage({ kind }: { kind: ProfileKind }) {
  const { id = '' } = useParams();
  const idField = kind === 'users' ? 'user_id' : 'company_id';
  return (
    <>
      <PageHeader title={`${kind === 'users' ? 'User' : 'Company'} ${id}`}>
        <Link to={`/events?${idField}=${encodeURIComponent(id)}&from=-30d`}>All their events</Link>
      </PageHeader>
      <ProfileCard kind={kind} id={id} />
      <section aria-label="Cohorts">
        <h2>Cohorts</h2>
        <ProfileCohorts type={kind === 'users' ? 'user' : 'company'} profileId={id} />
      </section>
      {kind === 'companies' && (
        <section aria-label="Users">
          <h2>Users</h2>
          <CompanyUsers companyId={id} />
        </section>
      )}
      {kind === 'companies' && (
        <section aria-label="Subscriptions">
          <h2>Subscriptions</h2>
          <SubscriptionsTable companyId={id} />
          <h2>Credit balances</h2>
          <BalancesTable companyId={id} />
          <h3>Record a credit, debit or adjustment</h3>
          <TransactionForm companyId={id} />
        </section>
      )}
      <section aria-label="Usage">
        <h2>Usage, last 30 days</h2>
        <ChartPanel spec={{ ...DEFAULT_SPEC, from: '-30d', interval: '1d', filter: `${idField}.raw:${exactPhrase(id)}` }} />
      </section>
      <section aria-label="Recent events">
        <h2>Recent events</h2>
        <EventStream filters={{ from: '-30d', to: 'now', ...(kind === 'users' ? { userId: id } : { companyId: id }) }} />
      </section>
    </>
  );
}
