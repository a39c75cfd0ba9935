import * as z from 'zod';
import { CustomerUsage } from '../../../schemas/billing/customer-usage';
import {
  CustomerStatement,
  CustomerStatementQuery,
  MAX_STATEMENT_EVENTS,
  STATEMENT_EVENTS_PAGE,
  StatementEventsPage,
  StatementEventsQuery,
  StatementKey,
  StatementVerification,
  StatementVerificationInput,
} from '../../../schemas/billing/customer-statement';
import {
  CustomerDataQuery,
  CustomerRevocation,
  CustomerToken,
  CustomerTokenCreate,
  CustomerUsageQuery,
  CustomerView,
  MAX_CUSTOMER_TOKEN_SECONDS,
} from '../../../schemas/resources/customer-access';
import { SpendCapInput, SpendCapStanding } from '../../../schemas/resources/spend-cap';
import { ListQuery, NEXT_PAGE, named, type RouteSchema } from './route-schema';
import { SharedDataSchema } from './shared-view-route-schemas';

/** Customer access: customer tokens, and what one opens (templates, usage and bill, spend cap). */

const CustomerTokenSchema = named('CustomerToken', CustomerToken);
const CustomerRevocationSchema = named('CustomerRevocation', CustomerRevocation);
const SpendCapSchema = named('SpendCapStanding', SpendCapStanding);
const token = { token: 'The customer token (`ct1.…`), as minted.' };

export const customerSchemas: Record<string, RouteSchema> = {
  'customerTokens.create': {
    description: `Mints, server to server, a signed token for one customer (a company): it binds \`company_id\` (and \`subscription_id\`, and \`values\`) to the dynamic fields of the app's template workspaces, opens the customer's usage, bill and spend cap, and nothing else. Nothing is stored: minting is a signature. The token lives \`expires_in\` seconds (default an hour, at most ${MAX_CUSTOMER_TOKEN_SECONDS}); revoking the customer ends every token issued before. \`usage_url\` is the embeddable usage page.`,
    body: named('CustomerTokenCreate', CustomerTokenCreate),
    responseStatus: 201,
    response: CustomerTokenSchema,
  },
  'customerTokens.revocations.list': {
    description: 'Customers whose tokens were revoked, and when (tokens issued before then answer 401).',
    query: ListQuery,
    responseStatus: 200,
    response: z.array(CustomerRevocationSchema),
    responseHeaders: NEXT_PAGE,
  },
  'customerTokens.revocations.put': {
    description:
      'Revokes every token of the customer issued until now: each answers 401 from then on. Tokens minted afterwards work (stop minting for a customer to keep it out).',
    params: { companyId: 'The customer (company id).' },
    responseStatus: 200,
    response: CustomerRevocationSchema,
    errors: [503],
  },
  'customerTokens.revocations.delete': {
    description: "Lifts the customer's revocation: its unexpired tokens work again.",
    params: { companyId: 'The customer (company id).' },
    responseStatus: 204,
    errors: [404],
  },
  customerView: {
    description:
      'What the token opens: the customer, every value it binds, and the template workspaces whose dynamic fields it binds (their charts, never their policy, owner or comments), each with the time ranges the customer may pick. 401 when the token is forged, expired or revoked.',
    params: token,
    responseStatus: 200,
    response: named('CustomerView', CustomerView),
  },
  customerTemplateData: {
    runsQuery: true,
    description:
      "Runs a template workspace's stored query with each of its dynamic fields required to equal the token's value (every funnel step and both retention events too), over one of the template's time ranges. A workspace the token does not open, a template with a dynamic field the token binds no value to, or a range the template does not allow, is a 401.",
    params: { ...token, workspaceId: 'A template workspace the token opens.' },
    query: CustomerDataQuery,
    responseStatus: 200,
    response: SharedDataSchema,
  },
  customerUsage: {
    runsQuery: true,
    description:
      "The customer's usage this billing period per billing meter and subscription, as the billing run will bill it (per reporting window, the meter's multiplier and rounding, the catalog price's tiers, rounded to the currency): the amount so far, the estimated bill for the period (the usage so far projected over the period; once the period has ended, the bill itself, equal to what the run reports), daily usage, and prepaid balances. Meters priced by the provider (Stripe, Chargebee …) show usage without amounts.",
    params: token,
    query: CustomerUsageQuery,
    responseStatus: 200,
    response: named('CustomerUsage', CustomerUsage),
    errors: [404],
  },
  customerStatement: {
    runsQuery: true,
    description: `A closed billing period's statement for one of the customer's subscriptions: per meter the billed usage (each reporting window multiplied and rounded as the run does), the amount at the catalog price, what the billing run reported, and the count and SHA-256 digest of the events behind it (lists of up to ${MAX_STATEMENT_EVENTS} events; a longer one carries its count and no digest). Signed with the app's Ed25519 key (\`/public/statement-keys/{orgId}/{appId}\`) over the statement without \`signature\` as canonical JSON. Issued as version 1 when first asked for; when what it says changes (a void, a replacement, a late event, the period turning final) the next ask issues the next version, listing the changes. \`version\` answers an earlier one as issued. An open period is a 400 naming \`period_start\`.`,
    params: token,
    query: CustomerStatementQuery,
    responseStatus: 200,
    response: named('CustomerStatement', CustomerStatement),
    errors: [404],
  },
  customerStatementEvents: {
    runsQuery: true,
    description: `The events behind one meter of a statement, in time order (ties by id), as CSV lines (\`transaction_id,time,window_start,name,quantity\`; the header on the first page), ${STATEMENT_EVENTS_PAGE} at a time: pass \`next\` as \`after\` until a page has none. The pages' \`lines\` joined in order are the file whose SHA-256 the statement signs.`,
    params: token,
    query: StatementEventsQuery,
    responseStatus: 200,
    response: named('StatementEventsPage', StatementEventsPage),
    errors: [404],
  },
  statementKey: {
    description:
      "The app's statement signing key: an Ed25519 public key (raw, base64url, and PEM) and its id, the `signature.key_id` of the app's statements. Derived from the service's signing key: the same for as long as that key is.",
    params: { orgId: 'The org.', appId: 'The app.' },
    responseStatus: 200,
    response: named('StatementKey', StatementKey),
    errors: [404],
  },
  verifyStatement: {
    description:
      "Checks a downloaded statement: its signature under its app's key (any change to what it says breaks it), whether the period's statement has changed since (`superseded`: it is compared with the period as it stands now, and a new version issued if so), and, per meter given in `event_digests`, that the SHA-256 of the downloaded event list is the one the statement signed. `valid` is true when the signature holds and every digest given matches; `problems` says what does not. Checks of validly signed statements are counted per org, 60 a minute: past that, a 429 with Retry-After (a statement whose signature does not hold is answered without being counted).",
    body: named('StatementVerificationInput', StatementVerificationInput),
    responseStatus: 200,
    response: named('StatementVerification', StatementVerification),
    errors: [429],
  },
  customerSpendCapGet: {
    runsQuery: true,
    description: "The customer's spend cap and where its bill so far stands against it.",
    params: token,
    responseStatus: 200,
    response: SpendCapSchema,
    errors: [404],
  },
  customerSpendCapPut: {
    runsQuery: true,
    description:
      "Sets the customer's spend cap: a budget per billing period in one currency, a warning threshold (sent by the app's alert rules on spend_cap_used_percent), and whether reaching the budget blocks the customer's API calls (through the app's spend_cap governance rule).",
    params: token,
    body: SpendCapInput,
    responseStatus: 200,
    response: SpendCapSchema,
    errors: [503],
  },
  customerSpendCapDelete: {
    description: "Removes the customer's spend cap (a block it caused lifts at the next governance refresh).",
    params: token,
    responseStatus: 204,
    errors: [404],
  },
};
