// Generated from openapi/management.json by `npm run console:api` (openapi-typescript). Do not edit.

export interface paths {
    "/~/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the org's apps (newest first; take, before_id)
         * @description The app's apps (of the organisation), newest first, a page at a time.
         */
        get: operations["appsList"];
        put?: never;
        /**
         * Create an app and its collector application id
         * @description Creates a app. Nothing is written unless the whole body is valid.
         */
        post: operations["appsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One app
         * @description One app.
         */
        get: operations["appsGet"];
        /**
         * Update an app (alias of POST)
         * @description Updates a app with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["appsUpdate2"];
        /**
         * Update an app (name, time zone, week start, sampling, backfill)
         * @description Updates a app with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["appsUpdate"];
        /**
         * Delete an app; its collector application id stops working
         * @description Deletes a app; afterwards its id answers 410.
         */
        delete: operations["appsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/catalog/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List catalog plans (`provider`, `includes=prices`)
         * @description The app's catalog plans, newest first, a page at a time.
         */
        get: operations["catalogPlansList"];
        put?: never;
        /**
         * Create a catalog plan
         * @description Creates a catalog plan. Nothing is written unless the whole body is valid.
         */
        post: operations["catalogPlansCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/catalog/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One catalog plan with its prices
         * @description One catalog plan with its prices.
         */
        get: operations["catalogPlansGet"];
        /**
         * Update a catalog plan
         * @description Updates a catalog plan with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. provider must be unchanged.
         */
        put: operations["catalogPlansUpdate"];
        /**
         * Update a catalog plan (POST alias)
         * @description Updates a catalog plan with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. provider must be unchanged.
         */
        post: operations["catalogPlansUpdate2"];
        /**
         * Delete a catalog plan without prices
         * @description Deletes a catalog plan that has no prices (a 400 names the plan otherwise); afterwards its id answers 410.
         */
        delete: operations["catalogPlansDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/catalog/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List catalog prices (`provider`, `plan_id`)
         * @description The app's catalog prices, newest first, a page at a time.
         */
        get: operations["catalogPricesList"];
        put?: never;
        /**
         * Create a catalog price for a plan
         * @description Creates a catalog price. Nothing is written unless the whole body is valid.
         */
        post: operations["catalogPricesCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/catalog/prices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One catalog price
         * @description One catalog price.
         */
        get: operations["catalogPricesGet"];
        /**
         * Update a catalog price
         * @description Updates a catalog price with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. plan_id and provider must be unchanged; the merged price is validated as a whole.
         */
        put: operations["catalogPricesUpdate"];
        /**
         * Update a catalog price (POST alias)
         * @description Updates a catalog price with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. plan_id and provider must be unchanged; the merged price is validated as a whole.
         */
        post: operations["catalogPricesUpdate2"];
        /**
         * Delete a catalog price
         * @description Deletes a catalog price; afterwards its id answers 410.
         */
        delete: operations["catalogPricesDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook channels (newest first; status, take, before_id); secrets are never shown
         * @description The app's webhook channels, newest first, a page at a time.
         */
        get: operations["billingChannelsList"];
        put?: never;
        /**
         * Create a webhook channel; the answer shows its signing secret once
         * @description Creates a webhook channel. Nothing is written unless the whole body is valid.
         */
        post: operations["billingChannelsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/channels/{channelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook channel
         * @description One webhook channel.
         */
        get: operations["billingChannelsGet"];
        /**
         * Update a webhook channel (alias of POST)
         * @description Updates a webhook channel with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. A new secret (or rotate_secret: true) keeps the previous one signing for 24 h.
         */
        put: operations["billingChannelsUpdate2"];
        /**
         * Update a webhook channel (secret / rotate_secret: the previous secret signs for 24 h more)
         * @description Updates a webhook channel with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. A new secret (or rotate_secret: true) keeps the previous one signing for 24 h.
         */
        post: operations["billingChannelsUpdate"];
        /**
         * Delete a webhook channel
         * @description Deletes a webhook channel; afterwards its id answers 410.
         */
        delete: operations["billingChannelsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/meters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List billing meters (newest first; take, before_id)
         * @description The app's billing meters, newest first, a page at a time.
         */
        get: operations["billingMetersList"];
        put?: never;
        /**
         * Create a billing meter
         * @description Creates a billing meter. Nothing is written unless the whole body is valid.
         */
        post: operations["billingMetersCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/meters/{meterId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One billing meter
         * @description One billing meter.
         */
        get: operations["billingMetersGet"];
        /**
         * Update a billing meter (alias of POST)
         * @description Updates a billing meter with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["billingMetersUpdate2"];
        /**
         * Update a billing meter
         * @description Updates a billing meter with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["billingMetersUpdate"];
        /**
         * Delete a billing meter
         * @description Deletes a billing meter; afterwards its id answers 410.
         */
        delete: operations["billingMetersDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/meters/{meterId}/webhooks/channels/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test event to the meter's webhook channels (or body channel_id); answers each channel's request record
         * @description Sends a signed billing.test event to each channel of the meter's webhook_params.channel_ids (or the body's channel_id), as usage deliveries are sent, and answers each channel's request record.
         */
        post: operations["billingChannelsTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List billing reports, newest window first (from, to, time_zone, billing_meter_id, company_id, subscription_id, provider, success, status, type, take, before_id)
         * @description Billing reports whose window overlaps [from, to) (relative and zoned dates as in search; default: everything up to now), newest window first, filtered by the other parameters (status: comma-separated).
         */
        get: operations["billingReportsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/reports/{reportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One billing report
         * @description One billing report.
         */
        get: operations["billingReportsGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/reports/{reportId}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Re-run a report's usage query: recomputed usage, the query, sample event ids
         * @description Re-runs a report's usage query for its window and subscription through the search index: the recomputed usage, whether it matches, the exact query, and sample events.
         */
        get: operations["billingReportsExplain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/reports/balance_transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A subscription's balance ledger, newest first (subscription_id, take, before_id)
         * @description A subscription's balance ledger, newest first.
         */
        get: operations["listBalanceTransactions"];
        put?: never;
        /**
         * Record a credit, debit, promotion or adjustment on a subscription's balance (idempotent per transaction_id)
         * @description Records a credit, debit, promotion or adjustment on a subscription's balance. Idempotent per transaction_id: repeating an identical one answers 204 again.
         */
        post: operations["createBalanceTransaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/reports/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit balances by subscription_id or company_id
         * @description Credit balances of one subscription or of every subscription of a company (give subscription_id or company_id).
         */
        get: operations["listBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/billing/reports/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Billing metrics: buckets of usage, amounts and ending balances (from, to, aggregator, interval, group_by, time_zone, filters)
         * @description Buckets of the reports in [from, to) (default the last month): the aggregator over meter_usage, amounts per currency and the ending credit balance; with group_by, one series per value.
         */
        get: operations["billingReportsMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/cohorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List cohorts (newest first; cohort_type, take, before_id)
         * @description The app's cohorts, newest first, a page at a time.
         */
        get: operations["cohortsList"];
        put?: never;
        /**
         * Create a cohort
         * @description Creates a cohort. Nothing is written unless the whole body is valid.
         */
        post: operations["cohortsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/cohorts/{cohortId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One cohort
         * @description One cohort.
         */
        get: operations["cohortsGet"];
        /**
         * Update a cohort (alias of POST)
         * @description Updates a cohort with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. cohort_type is required and must be unchanged.
         */
        put: operations["cohortsUpdate2"];
        /**
         * Update a cohort (cohort_type required, unchanged)
         * @description Updates a cohort with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. cohort_type is required and must be unchanged.
         */
        post: operations["cohortsUpdate"];
        /**
         * Delete a cohort
         * @description Deletes a cohort; afterwards its id answers 410.
         */
        delete: operations["cohortsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/cohorts/{cohortId}/sample_rate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a cohort's sample rate
         * @description Removes a cohort's sample rate.
         */
        delete: operations["cohortsDeleteSampleRate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/dashboard/{dashId}/copy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Copy a dashboard (the original's path)
         * @description Copies a dashboard with its child dashboards and workspaces; answers the new root dashboard.
         */
        post: operations["dashboardsCopy2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dashboards (newest first; take, before_id)
         * @description The app's dashboards, newest first, a page at a time.
         */
        get: operations["dashboardsList"];
        put?: never;
        /**
         * Create a dashboard
         * @description Creates a dashboard. Nothing is written unless the whole body is valid.
         */
        post: operations["dashboardsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/dashboards/{dashId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One dashboard
         * @description One dashboard.
         */
        get: operations["dashboardsGet"];
        /**
         * Update a dashboard (PUT alias)
         * @description Updates a dashboard with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["dashboardsUpdate2"];
        /**
         * Update a dashboard
         * @description Updates a dashboard with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["dashboardsUpdate"];
        /**
         * Delete a dashboard
         * @description Deletes a dashboard; afterwards its id answers 410.
         */
        delete: operations["dashboardsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/dashboards/{dashId}/cascade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a dashboard with its child dashboards and their workspaces
         * @description Deletes a dashboard with its child dashboards and their workspaces.
         */
        delete: operations["dashboardsCascadeDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/dashboards/{dashId}/copy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Copy a dashboard with its child dashboards and workspaces
         * @description Copies a dashboard with its child dashboards and workspaces; answers the new root dashboard.
         */
        post: operations["dashboardsCopy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/dashboards/{dashId}/policy/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a permission on a dashboard
         * @description Grants a permission on a dashboard (adds or replaces the grantee's ACL entry).
         */
        post: operations["dashboardsAclAdd"];
        /**
         * Remove a grantee from a dashboard's ACL
         * @description Removes a grantee from a dashboard's ACL (the grantee comes in the body or as the grantee query parameter).
         */
        delete: operations["dashboardsAclRemove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/emails/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List email templates (cohort_id filter)
         * @description The app's email templates, newest first, a page at a time.
         */
        get: operations["emailTemplatesList"];
        put?: never;
        /**
         * Create an email template
         * @description Creates a email template. Nothing is written unless the whole body is valid.
         */
        post: operations["emailTemplatesCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/emails/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One email template
         * @description One email template.
         */
        get: operations["emailTemplatesGet"];
        /**
         * Update an email template (PUT alias)
         * @description Updates a email template with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["emailTemplatesUpdate2"];
        /**
         * Update an email template
         * @description Updates a email template with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["emailTemplatesUpdate"];
        /**
         * Delete an email template
         * @description Deletes a email template; afterwards its id answers 410.
         */
        delete: operations["emailTemplatesDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/governance/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List governance rules (newest first; take, before_id)
         * @description The app's governance rules, newest first, a page at a time.
         */
        get: operations["governanceRulesList"];
        put?: never;
        /**
         * Create a governance rule
         * @description Creates a governance rule. Nothing is written unless the whole body is valid.
         */
        post: operations["governanceRulesCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/governance/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One governance rule
         * @description One governance rule.
         */
        get: operations["governanceRulesGet"];
        /**
         * Update a governance rule (alias of POST)
         * @description Updates a governance rule with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["governanceRulesUpdate2"];
        /**
         * Update a governance rule
         * @description Updates a governance rule with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["governanceRulesUpdate"];
        /**
         * Delete a governance rule
         * @description Deletes a governance rule; afterwards its id answers 410.
         */
        delete: operations["governanceRulesDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/keystore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List encrypted keys, without key material (from, to, type)
         * @description Encrypted keys whose month lies in [from, to] (months YYYY-MM or date-times), of one type; without their key material.
         */
        get: operations["keystoreList"];
        put?: never;
        /**
         * Store one or more wrapped keys
         * @description Stores one wrapped key (an object) or up to 100 (an array); answers the stored key, or an array of them.
         */
        post: operations["keystoreCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/keystore/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One encrypted key, with its wrapped material
         * @description One encrypted key.
         */
        get: operations["keystoreGet"];
        /**
         * Re-wrap an encrypted key (PUT alias)
         * @description Updates a encrypted key with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["keystoreUpdate2"];
        /**
         * Re-wrap an encrypted key
         * @description Updates a encrypted key with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["keystoreUpdate"];
        /**
         * Delete an encrypted key
         * @description Deletes a encrypted key; afterwards its id answers 410.
         */
        delete: operations["keystoreDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/oauth/access_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Mint a management token (scopes ⊆ the caller's) or get the app's collector application id
         * @description target=management (default): a new management token with the given scopes (a subset of the caller's) and expiration. target=collector: the app's collector application id.
         */
        get: operations["mintAccessToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/oauth/access_tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a management token of the organisation
         * @description Revokes a management token of the caller's organisation by its id (the `_id` minting returned, the token's jti).
         */
        delete: operations["revokeAccessToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/organizations/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organisation's users
         * @description The users of the caller's organisation (never their password hashes).
         */
        get: operations["listOrgUsers"];
        put?: never;
        /**
         * Create an org user (password flow login)
         * @description Creates a user of the caller's organisation who can sign in at the token URL; scopes bound what their tokens may hold (`admin` = every scope).
         */
        post: operations["createOrgUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/organizations/users/{username}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an org user
         * @description Deletes a user of the caller's organisation and revokes every token issued to them (refused from the next request on).
         */
        delete: operations["deleteOrgUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workspaces (newest first; take, before_id, type)
         * @description The app's workspaces, newest first, a page at a time.
         */
        get: operations["workspacesList"];
        put?: never;
        /**
         * Create a workspace
         * @description Creates a workspace. Nothing is written unless the whole body is valid.
         */
        post: operations["workspacesCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One workspace
         * @description One workspace.
         */
        get: operations["workspacesGet"];
        /**
         * Update a workspace (PUT alias)
         * @description Updates a workspace with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["workspacesUpdate2"];
        /**
         * Update a workspace
         * @description Updates a workspace with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["workspacesUpdate"];
        /**
         * Delete a workspace and its comments
         * @description Deletes a workspace; afterwards its id answers 410.
         */
        delete: operations["workspacesDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/workspaces/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workspace's comments (newest first)
         * @description A workspace's comments, newest first.
         */
        get: operations["workspacesCommentsList"];
        put?: never;
        /**
         * Comment on a workspace
         * @description Comments on a workspace as the caller.
         */
        post: operations["workspacesCommentsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/workspaces/{id}/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit one's own comment
         * @description Edits one of the caller's own comments.
         */
        post: operations["workspacesCommentsUpdate"];
        /**
         * Delete one's own comment
         * @description Deletes one of the caller's own comments.
         */
        delete: operations["workspacesCommentsDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/workspaces/{id}/policy/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a permission on a workspace
         * @description Grants a permission on a workspace (adds or replaces the grantee's ACL entry).
         */
        post: operations["workspacesAclAdd"];
        /**
         * Remove a grantee from a workspace's ACL
         * @description Removes a grantee from a workspace's ACL (the grantee comes in the body or as the grantee query parameter).
         */
        delete: operations["workspacesAclRemove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/~/workspaces/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List template workspaces
         * @description The template workspaces of the app.
         */
        get: operations["workspacesTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This API as an OpenAPI 3.1 document
         * @description This API described as an OpenAPI 3.1 document (generated from the route table and the zod schemas).
         */
        get: operations["openApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge one company profile (as the collector does)
         * @description One company profile (created, or merged into the stored one), as POST /v1/companies takes it. Content-Encoding gzip, deflate or br.
         */
        post: operations["writeCompany"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/companies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One company profile by id
         * @description One company profile by id.
         */
        get: operations["getCompany"];
        put?: never;
        post?: never;
        /**
         * Delete a company (and, with delete_events=true, its events)
         * @description Deletes a company's profile; with delete_events=true also the events that name it.
         */
        delete: operations["deleteCompany"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/companies/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The subscriptions of a company
         * @description The subscriptions of a company (up to 1000), as search hits.
         */
        get: operations["companySubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/companies/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge company profiles (as the collector does)
         * @description A JSON array of company profiles, as POST /v1/companies/batch takes them. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.
         */
        post: operations["writeCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/count/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count company profiles matching a query
         * @description Counts company profiles matching the body's query (narrowed by its post_filter).
         */
        post: operations["countCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/count/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count events matching a query
         * @description Counts events in the from/to window matching the body's query (narrowed by its post_filter).
         */
        post: operations["countEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/count/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count user profiles matching a query
         * @description Counts user profiles matching the body's query (narrowed by its post_filter).
         */
        post: operations["countUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/deletions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress of a user's or company's events being deleted in the background
         * @description Where a deletion of a user's or company's events stands (the deletion_id comes from DELETE …?delete_events=true). Only the app that started it can read it.
         */
        get: operations["deletionStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event by id
         * @description One event by id.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/mappings/companies/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fields a company query can use
         * @description The fields a company query can use, read from the app's own newest documents.
         */
        get: operations["companyProperties"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/mappings/events/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fields an event query can use
         * @description The fields a event query can use, read from the app's own newest documents.
         */
        get: operations["eventProperties"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/mappings/users/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fields a user query can use
         * @description The fields a user query can use, read from the app's own newest documents.
         */
        get: operations["userProperties"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/search/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search company profiles
         * @description Searches company profiles of the token's app with the search DSL. An empty body matches everything.
         */
        post: operations["searchCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/search/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count events matching a query (the spec's other form)
         * @description Counts events in the from/to window matching the body's query (narrowed by its post_filter).
         */
        post: operations["countEvents2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/search/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search events (API calls and actions) with the search DSL
         * @description Searches events (API calls and actions) in the from/to window of the token's app with the search DSL. An empty body matches everything.
         */
        post: operations["searchEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/search/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search user profiles
         * @description Searches user profiles of the token's app with the search DSL. An empty body matches everything.
         */
        post: operations["searchUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge one subscription of a company (as the collector does)
         * @description One subscription (created, or merged into the stored one), as POST /v1/subscriptions takes it. Content-Encoding gzip, deflate or br.
         */
        post: operations["writeSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/subscriptions/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge subscriptions (as the collector does)
         * @description A JSON array of subscriptions, as POST /v1/subscriptions/batch takes them. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.
         */
        post: operations["writeSubscriptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge one user profile (as the collector does)
         * @description One user profile (created, or merged into the stored one), through the same stream and merge as POST /v1/users. Content-Encoding gzip, deflate or br.
         */
        post: operations["writeUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user profile by id
         * @description One user profile by id.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user (and, with delete_events=true, its events)
         * @description Deletes a user's profile; with delete_events=true also the events that name it.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search/~/users/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge user profiles (as the collector does)
         * @description A JSON array of user profiles, as POST /v1/users/batch takes them. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.
         */
        post: operations["writeUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/{orgId}/oauth/access_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OAuth 2.0 password grant: an org user's username and password for a short-lived management token
         * @description RFC 6749 password grant: an org user's username and password for a management token valid one hour. Form-encoded (RFC 6749) or JSON. Errors use the RFC 6749 shape, not the service's. Rate-limited per org.
         */
        post: operations["issueAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the org's apps (newest first; take, before_id)
         * @description The app's apps (of the organisation), newest first, a page at a time.
         */
        get: operations["appsList_v1"];
        put?: never;
        /**
         * Create an app and its collector application id
         * @description Creates a app. Nothing is written unless the whole body is valid.
         */
        post: operations["appsCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One app
         * @description One app.
         */
        get: operations["appsGet_v1"];
        /**
         * Update an app (alias of POST)
         * @description Updates a app with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["appsUpdate2_v1"];
        /**
         * Update an app (name, time zone, week start, sampling, backfill)
         * @description Updates a app with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["appsUpdate_v1"];
        /**
         * Delete an app; its collector application id stops working
         * @description Deletes a app; afterwards its id answers 410.
         */
        delete: operations["appsDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/catalog/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List catalog plans (`provider`, `includes=prices`)
         * @description The app's catalog plans, newest first, a page at a time.
         */
        get: operations["catalogPlansList_v1"];
        put?: never;
        /**
         * Create a catalog plan
         * @description Creates a catalog plan. Nothing is written unless the whole body is valid.
         */
        post: operations["catalogPlansCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/catalog/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One catalog plan with its prices
         * @description One catalog plan with its prices.
         */
        get: operations["catalogPlansGet_v1"];
        /**
         * Update a catalog plan
         * @description Updates a catalog plan with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. provider must be unchanged.
         */
        put: operations["catalogPlansUpdate_v1"];
        /**
         * Update a catalog plan (POST alias)
         * @description Updates a catalog plan with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. provider must be unchanged.
         */
        post: operations["catalogPlansUpdate2_v1"];
        /**
         * Delete a catalog plan without prices
         * @description Deletes a catalog plan that has no prices (a 400 names the plan otherwise); afterwards its id answers 410.
         */
        delete: operations["catalogPlansDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/catalog/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List catalog prices (`provider`, `plan_id`)
         * @description The app's catalog prices, newest first, a page at a time.
         */
        get: operations["catalogPricesList_v1"];
        put?: never;
        /**
         * Create a catalog price for a plan
         * @description Creates a catalog price. Nothing is written unless the whole body is valid.
         */
        post: operations["catalogPricesCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/catalog/prices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One catalog price
         * @description One catalog price.
         */
        get: operations["catalogPricesGet_v1"];
        /**
         * Update a catalog price
         * @description Updates a catalog price with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. plan_id and provider must be unchanged; the merged price is validated as a whole.
         */
        put: operations["catalogPricesUpdate_v1"];
        /**
         * Update a catalog price (POST alias)
         * @description Updates a catalog price with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. plan_id and provider must be unchanged; the merged price is validated as a whole.
         */
        post: operations["catalogPricesUpdate2_v1"];
        /**
         * Delete a catalog price
         * @description Deletes a catalog price; afterwards its id answers 410.
         */
        delete: operations["catalogPricesDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook channels (newest first; status, take, before_id); secrets are never shown
         * @description The app's webhook channels, newest first, a page at a time.
         */
        get: operations["billingChannelsList_v1"];
        put?: never;
        /**
         * Create a webhook channel; the answer shows its signing secret once
         * @description Creates a webhook channel. Nothing is written unless the whole body is valid.
         */
        post: operations["billingChannelsCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/channels/{channelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook channel
         * @description One webhook channel.
         */
        get: operations["billingChannelsGet_v1"];
        /**
         * Update a webhook channel (alias of POST)
         * @description Updates a webhook channel with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. A new secret (or rotate_secret: true) keeps the previous one signing for 24 h.
         */
        put: operations["billingChannelsUpdate2_v1"];
        /**
         * Update a webhook channel (secret / rotate_secret: the previous secret signs for 24 h more)
         * @description Updates a webhook channel with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. A new secret (or rotate_secret: true) keeps the previous one signing for 24 h.
         */
        post: operations["billingChannelsUpdate_v1"];
        /**
         * Delete a webhook channel
         * @description Deletes a webhook channel; afterwards its id answers 410.
         */
        delete: operations["billingChannelsDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/meters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List billing meters (newest first; take, before_id)
         * @description The app's billing meters, newest first, a page at a time.
         */
        get: operations["billingMetersList_v1"];
        put?: never;
        /**
         * Create a billing meter
         * @description Creates a billing meter. Nothing is written unless the whole body is valid.
         */
        post: operations["billingMetersCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/meters/{meterId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One billing meter
         * @description One billing meter.
         */
        get: operations["billingMetersGet_v1"];
        /**
         * Update a billing meter (alias of POST)
         * @description Updates a billing meter with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["billingMetersUpdate2_v1"];
        /**
         * Update a billing meter
         * @description Updates a billing meter with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["billingMetersUpdate_v1"];
        /**
         * Delete a billing meter
         * @description Deletes a billing meter; afterwards its id answers 410.
         */
        delete: operations["billingMetersDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/meters/{meterId}/webhooks/channels/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test event to the meter's webhook channels (or body channel_id); answers each channel's request record
         * @description Sends a signed billing.test event to each channel of the meter's webhook_params.channel_ids (or the body's channel_id), as usage deliveries are sent, and answers each channel's request record.
         */
        post: operations["billingChannelsTest_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List billing reports, newest window first (from, to, time_zone, billing_meter_id, company_id, subscription_id, provider, success, status, type, take, before_id)
         * @description Billing reports whose window overlaps [from, to) (relative and zoned dates as in search; default: everything up to now), newest window first, filtered by the other parameters (status: comma-separated).
         */
        get: operations["billingReportsList_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/reports/{reportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One billing report
         * @description One billing report.
         */
        get: operations["billingReportsGet_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/reports/{reportId}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Re-run a report's usage query: recomputed usage, the query, sample event ids
         * @description Re-runs a report's usage query for its window and subscription through the search index: the recomputed usage, whether it matches, the exact query, and sample events.
         */
        get: operations["billingReportsExplain_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/reports/balance_transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A subscription's balance ledger, newest first (subscription_id, take, before_id)
         * @description A subscription's balance ledger, newest first.
         */
        get: operations["listBalanceTransactions_v1"];
        put?: never;
        /**
         * Record a credit, debit, promotion or adjustment on a subscription's balance (idempotent per transaction_id)
         * @description Records a credit, debit, promotion or adjustment on a subscription's balance. Idempotent per transaction_id: repeating an identical one answers 204 again.
         */
        post: operations["createBalanceTransaction_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/reports/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit balances by subscription_id or company_id
         * @description Credit balances of one subscription or of every subscription of a company (give subscription_id or company_id).
         */
        get: operations["listBalances_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/billing/reports/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Billing metrics: buckets of usage, amounts and ending balances (from, to, aggregator, interval, group_by, time_zone, filters)
         * @description Buckets of the reports in [from, to) (default the last month): the aggregator over meter_usage, amounts per currency and the ending credit balance; with group_by, one series per value.
         */
        get: operations["billingReportsMetrics_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/cohorts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List cohorts (newest first; cohort_type, take, before_id)
         * @description The app's cohorts, newest first, a page at a time.
         */
        get: operations["cohortsList_v1"];
        put?: never;
        /**
         * Create a cohort
         * @description Creates a cohort. Nothing is written unless the whole body is valid.
         */
        post: operations["cohortsCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/cohorts/{cohortId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One cohort
         * @description One cohort.
         */
        get: operations["cohortsGet_v1"];
        /**
         * Update a cohort (alias of POST)
         * @description Updates a cohort with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. cohort_type is required and must be unchanged.
         */
        put: operations["cohortsUpdate2_v1"];
        /**
         * Update a cohort (cohort_type required, unchanged)
         * @description Updates a cohort with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it. cohort_type is required and must be unchanged.
         */
        post: operations["cohortsUpdate_v1"];
        /**
         * Delete a cohort
         * @description Deletes a cohort; afterwards its id answers 410.
         */
        delete: operations["cohortsDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/cohorts/{cohortId}/sample_rate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a cohort's sample rate
         * @description Removes a cohort's sample rate.
         */
        delete: operations["cohortsDeleteSampleRate_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/dashboard/{dashId}/copy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Copy a dashboard (the original's path)
         * @description Copies a dashboard with its child dashboards and workspaces; answers the new root dashboard.
         */
        post: operations["dashboardsCopy2_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dashboards (newest first; take, before_id)
         * @description The app's dashboards, newest first, a page at a time.
         */
        get: operations["dashboardsList_v1"];
        put?: never;
        /**
         * Create a dashboard
         * @description Creates a dashboard. Nothing is written unless the whole body is valid.
         */
        post: operations["dashboardsCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/dashboards/{dashId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One dashboard
         * @description One dashboard.
         */
        get: operations["dashboardsGet_v1"];
        /**
         * Update a dashboard (PUT alias)
         * @description Updates a dashboard with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["dashboardsUpdate2_v1"];
        /**
         * Update a dashboard
         * @description Updates a dashboard with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["dashboardsUpdate_v1"];
        /**
         * Delete a dashboard
         * @description Deletes a dashboard; afterwards its id answers 410.
         */
        delete: operations["dashboardsDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/dashboards/{dashId}/cascade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a dashboard with its child dashboards and their workspaces
         * @description Deletes a dashboard with its child dashboards and their workspaces.
         */
        delete: operations["dashboardsCascadeDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/dashboards/{dashId}/copy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Copy a dashboard with its child dashboards and workspaces
         * @description Copies a dashboard with its child dashboards and workspaces; answers the new root dashboard.
         */
        post: operations["dashboardsCopy_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/dashboards/{dashId}/policy/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a permission on a dashboard
         * @description Grants a permission on a dashboard (adds or replaces the grantee's ACL entry).
         */
        post: operations["dashboardsAclAdd_v1"];
        /**
         * Remove a grantee from a dashboard's ACL
         * @description Removes a grantee from a dashboard's ACL (the grantee comes in the body or as the grantee query parameter).
         */
        delete: operations["dashboardsAclRemove_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/emails/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List email templates (cohort_id filter)
         * @description The app's email templates, newest first, a page at a time.
         */
        get: operations["emailTemplatesList_v1"];
        put?: never;
        /**
         * Create an email template
         * @description Creates a email template. Nothing is written unless the whole body is valid.
         */
        post: operations["emailTemplatesCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/emails/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One email template
         * @description One email template.
         */
        get: operations["emailTemplatesGet_v1"];
        /**
         * Update an email template (PUT alias)
         * @description Updates a email template with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["emailTemplatesUpdate2_v1"];
        /**
         * Update an email template
         * @description Updates a email template with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["emailTemplatesUpdate_v1"];
        /**
         * Delete an email template
         * @description Deletes a email template; afterwards its id answers 410.
         */
        delete: operations["emailTemplatesDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/governance/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List governance rules (newest first; take, before_id)
         * @description The app's governance rules, newest first, a page at a time.
         */
        get: operations["governanceRulesList_v1"];
        put?: never;
        /**
         * Create a governance rule
         * @description Creates a governance rule. Nothing is written unless the whole body is valid.
         */
        post: operations["governanceRulesCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/governance/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One governance rule
         * @description One governance rule.
         */
        get: operations["governanceRulesGet_v1"];
        /**
         * Update a governance rule (alias of POST)
         * @description Updates a governance rule with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["governanceRulesUpdate2_v1"];
        /**
         * Update a governance rule
         * @description Updates a governance rule with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["governanceRulesUpdate_v1"];
        /**
         * Delete a governance rule
         * @description Deletes a governance rule; afterwards its id answers 410.
         */
        delete: operations["governanceRulesDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/keystore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List encrypted keys, without key material (from, to, type)
         * @description Encrypted keys whose month lies in [from, to] (months YYYY-MM or date-times), of one type; without their key material.
         */
        get: operations["keystoreList_v1"];
        put?: never;
        /**
         * Store one or more wrapped keys
         * @description Stores one wrapped key (an object) or up to 100 (an array); answers the stored key, or an array of them.
         */
        post: operations["keystoreCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/keystore/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One encrypted key, with its wrapped material
         * @description One encrypted key.
         */
        get: operations["keystoreGet_v1"];
        /**
         * Re-wrap an encrypted key (PUT alias)
         * @description Updates a encrypted key with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["keystoreUpdate2_v1"];
        /**
         * Re-wrap an encrypted key
         * @description Updates a encrypted key with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["keystoreUpdate_v1"];
        /**
         * Delete an encrypted key
         * @description Deletes a encrypted key; afterwards its id answers 410.
         */
        delete: operations["keystoreDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/oauth/access_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Mint a management token (scopes ⊆ the caller's) or get the app's collector application id
         * @description target=management (default): a new management token with the given scopes (a subset of the caller's) and expiration. target=collector: the app's collector application id.
         */
        get: operations["mintAccessToken_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/oauth/access_tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a management token of the organisation
         * @description Revokes a management token of the caller's organisation by its id (the `_id` minting returned, the token's jti).
         */
        delete: operations["revokeAccessToken_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/organizations/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organisation's users
         * @description The users of the caller's organisation (never their password hashes).
         */
        get: operations["listOrgUsers_v1"];
        put?: never;
        /**
         * Create an org user (password flow login)
         * @description Creates a user of the caller's organisation who can sign in at the token URL; scopes bound what their tokens may hold (`admin` = every scope).
         */
        post: operations["createOrgUser_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/organizations/users/{username}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an org user
         * @description Deletes a user of the caller's organisation and revokes every token issued to them (refused from the next request on).
         */
        delete: operations["deleteOrgUser_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workspaces (newest first; take, before_id, type)
         * @description The app's workspaces, newest first, a page at a time.
         */
        get: operations["workspacesList_v1"];
        put?: never;
        /**
         * Create a workspace
         * @description Creates a workspace. Nothing is written unless the whole body is valid.
         */
        post: operations["workspacesCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One workspace
         * @description One workspace.
         */
        get: operations["workspacesGet_v1"];
        /**
         * Update a workspace (PUT alias)
         * @description Updates a workspace with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        put: operations["workspacesUpdate2_v1"];
        /**
         * Update a workspace
         * @description Updates a workspace with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.
         */
        post: operations["workspacesUpdate_v1"];
        /**
         * Delete a workspace and its comments
         * @description Deletes a workspace; afterwards its id answers 410.
         */
        delete: operations["workspacesDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/workspaces/{id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workspace's comments (newest first)
         * @description A workspace's comments, newest first.
         */
        get: operations["workspacesCommentsList_v1"];
        put?: never;
        /**
         * Comment on a workspace
         * @description Comments on a workspace as the caller.
         */
        post: operations["workspacesCommentsCreate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/workspaces/{id}/comments/{commentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit one's own comment
         * @description Edits one of the caller's own comments.
         */
        post: operations["workspacesCommentsUpdate_v1"];
        /**
         * Delete one's own comment
         * @description Deletes one of the caller's own comments.
         */
        delete: operations["workspacesCommentsDelete_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/workspaces/{id}/policy/acl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a permission on a workspace
         * @description Grants a permission on a workspace (adds or replaces the grantee's ACL entry).
         */
        post: operations["workspacesAclAdd_v1"];
        /**
         * Remove a grantee from a workspace's ACL
         * @description Removes a grantee from a workspace's ACL (the grantee comes in the body or as the grantee query parameter).
         */
        delete: operations["workspacesAclRemove_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/~/workspaces/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List template workspaces
         * @description The template workspaces of the app.
         */
        get: operations["workspacesTemplates_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This API as an OpenAPI 3.1 document
         * @description This API described as an OpenAPI 3.1 document (generated from the route table and the zod schemas).
         */
        get: operations["openApi_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge one company profile (as the collector does)
         * @description One company profile (created, or merged into the stored one), as POST /v1/companies takes it. Content-Encoding gzip, deflate or br.
         */
        post: operations["writeCompany_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/companies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One company profile by id
         * @description One company profile by id.
         */
        get: operations["getCompany_v1"];
        put?: never;
        post?: never;
        /**
         * Delete a company (and, with delete_events=true, its events)
         * @description Deletes a company's profile; with delete_events=true also the events that name it.
         */
        delete: operations["deleteCompany_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/companies/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The subscriptions of a company
         * @description The subscriptions of a company (up to 1000), as search hits.
         */
        get: operations["companySubscriptions_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/companies/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge company profiles (as the collector does)
         * @description A JSON array of company profiles, as POST /v1/companies/batch takes them. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.
         */
        post: operations["writeCompanies_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/count/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count company profiles matching a query
         * @description Counts company profiles matching the body's query (narrowed by its post_filter).
         */
        post: operations["countCompanies_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/count/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count events matching a query
         * @description Counts events in the from/to window matching the body's query (narrowed by its post_filter).
         */
        post: operations["countEvents_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/count/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count user profiles matching a query
         * @description Counts user profiles matching the body's query (narrowed by its post_filter).
         */
        post: operations["countUsers_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/deletions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress of a user's or company's events being deleted in the background
         * @description Where a deletion of a user's or company's events stands (the deletion_id comes from DELETE …?delete_events=true). Only the app that started it can read it.
         */
        get: operations["deletionStatus_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event by id
         * @description One event by id.
         */
        get: operations["getEvent_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/mappings/companies/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fields a company query can use
         * @description The fields a company query can use, read from the app's own newest documents.
         */
        get: operations["companyProperties_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/mappings/events/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fields an event query can use
         * @description The fields a event query can use, read from the app's own newest documents.
         */
        get: operations["eventProperties_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/mappings/users/properties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fields a user query can use
         * @description The fields a user query can use, read from the app's own newest documents.
         */
        get: operations["userProperties_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/search/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search company profiles
         * @description Searches company profiles of the token's app with the search DSL. An empty body matches everything.
         */
        post: operations["searchCompanies_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/search/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count events matching a query (the spec's other form)
         * @description Counts events in the from/to window matching the body's query (narrowed by its post_filter).
         */
        post: operations["countEvents2_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/search/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search events (API calls and actions) with the search DSL
         * @description Searches events (API calls and actions) in the from/to window of the token's app with the search DSL. An empty body matches everything.
         */
        post: operations["searchEvents_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/search/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search user profiles
         * @description Searches user profiles of the token's app with the search DSL. An empty body matches everything.
         */
        post: operations["searchUsers_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge one subscription of a company (as the collector does)
         * @description One subscription (created, or merged into the stored one), as POST /v1/subscriptions takes it. Content-Encoding gzip, deflate or br.
         */
        post: operations["writeSubscription_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/subscriptions/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge subscriptions (as the collector does)
         * @description A JSON array of subscriptions, as POST /v1/subscriptions/batch takes them. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.
         */
        post: operations["writeSubscriptions_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge one user profile (as the collector does)
         * @description One user profile (created, or merged into the stored one), through the same stream and merge as POST /v1/users. Content-Encoding gzip, deflate or br.
         */
        post: operations["writeUser_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user profile by id
         * @description One user profile by id.
         */
        get: operations["getUser_v1"];
        put?: never;
        post?: never;
        /**
         * Delete a user (and, with delete_events=true, its events)
         * @description Deletes a user's profile; with delete_events=true also the events that name it.
         */
        delete: operations["deleteUser_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search/~/users/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or merge user profiles (as the collector does)
         * @description A JSON array of user profiles, as POST /v1/users/batch takes them. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.
         */
        post: operations["writeUsers_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Accepted: {
            /** @description How many items the stream accepted (all of them: batches are all-or-nothing). */
            accepted: number;
        };
        App: {
            /** @default false */
            backfill_enabled: boolean;
            /** @description Shown on create, and to callers holding create:access_tokens. */
            collector_application_id?: string;
            /** @default {} */
            company_sample_rate: {
                [key: string]: number;
            };
            created_at: string;
            custom_app_id?: string;
            id: string;
            modified_at: string;
            name: string;
            portal_api_base_url: string;
            /** @default [] */
            regex_config: {
                conditions: {
                    path: string;
                    value: string;
                }[];
                sample_rate: number;
            }[];
            /** @default 100 */
            sample_rate: number;
            search_api_base_url: string;
            secure_proxy: boolean;
            time_zone: string;
            /** @default {} */
            user_sample_rate: {
                [key: string]: number;
            };
            week_starts_on: number;
        };
        AppCreate: {
            backfill_enabled?: boolean;
            company_sample_rate?: {
                [key: string]: number;
            };
            custom_app_id?: string;
            name: string;
            regex_config?: {
                conditions: {
                    path: string;
                    value: string;
                }[];
                sample_rate: number;
            }[];
            sample_rate?: number;
            time_zone?: string;
            user_sample_rate?: {
                [key: string]: number;
            };
            week_starts_on?: number;
        };
        AppUpdate: {
            backfill_enabled?: boolean;
            company_sample_rate?: {
                [key: string]: number;
            };
            custom_app_id?: string;
            name?: string;
            regex_config?: {
                conditions: {
                    path: string;
                    value: string;
                }[];
                sample_rate: number;
            }[];
            sample_rate?: number;
            time_zone?: string;
            user_sample_rate?: {
                [key: string]: number;
            };
            week_starts_on?: number;
        };
        BalanceEntry: {
            active_at?: string;
            amount: number;
            available_balance: number;
            company_id: string;
            current_balance: number;
            description?: string;
            effective_at: string;
            /** @enum {string} */
            entry_type: "transaction" | "activation" | "expiry" | "usage";
            expire_at?: string;
            pending_activity: number;
            report_key?: string;
            report_version?: number;
            sequence_id: number;
            subscription_id: string;
            transaction_id?: string;
            /** @enum {string} */
            type?: "credit" | "debit" | "promotion" | "adjustment";
        };
        BalanceTransactionCreate: {
            active_at?: string | null;
            amount: number | string;
            company_id: string;
            description?: string | null;
            expire_at?: string | null;
            subscription_id: string;
            transaction_id: string;
            /** @enum {string} */
            type: "credit" | "debit" | "promotion" | "adjustment";
        };
        BillingMeter: {
            _id: string;
            app_id: string;
            billing_plan: {
                friendly_name?: string;
                params?: {
                    chargebee_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    recurly_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    stripe_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    usage_multiplier?: number;
                    /** @enum {string} */
                    usage_rounding_mode?: "up" | "down" | "nearest";
                    webhook_params?: {
                        channel_ids: string[];
                        custom_plan: {
                            plan_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                        reporting?: {
                            report_when: string[];
                            reporting_period?: string;
                        };
                    };
                    zuora_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
                /** @enum {string} */
                provider_slug: "webhook" | "stripe" | "chargebee" | "recurly" | "zuora";
            };
            created_at: string;
            /** @description The events search body, as JSON text. */
            es_query: string;
            modified_at: string;
            name: string;
            org_id: string;
            slug: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive";
            /** @default  */
            url_query: string;
        } & {
            [key: string]: unknown;
        };
        BillingMeterCreate: {
            billing_plan: {
                friendly_name?: string;
                params?: {
                    chargebee_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    recurly_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    stripe_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    usage_multiplier?: number;
                    /** @enum {string} */
                    usage_rounding_mode?: "up" | "down" | "nearest";
                    webhook_params?: {
                        channel_ids: string[];
                        custom_plan: {
                            plan_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                        reporting?: {
                            report_when: string[];
                            reporting_period?: string;
                        };
                    };
                    zuora_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
                /** @enum {string} */
                provider_slug: "webhook" | "stripe" | "chargebee" | "recurly" | "zuora";
            };
            es_query: {
                [key: string]: unknown;
            } | string;
            name: string;
            slug: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive";
            /** @default  */
            url_query: string;
        };
        BillingMeterUpdate: {
            billing_plan?: {
                friendly_name?: string;
                params?: {
                    chargebee_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    recurly_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    stripe_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    usage_multiplier?: number;
                    /** @enum {string} */
                    usage_rounding_mode?: "up" | "down" | "nearest";
                    webhook_params?: {
                        channel_ids: string[];
                        custom_plan: {
                            plan_id: string;
                        } & {
                            [key: string]: unknown;
                        };
                        reporting?: {
                            report_when: string[];
                            reporting_period?: string;
                        };
                    };
                    zuora_params?: {
                        reporting?: {
                            reporting_period?: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
                /** @enum {string} */
                provider_slug: "webhook" | "stripe" | "chargebee" | "recurly" | "zuora";
            };
            es_query?: {
                [key: string]: unknown;
            } | string;
            name?: string;
            slug?: string;
            /** @enum {string} */
            status?: "active" | "inactive";
            url_query?: string;
        };
        BillingMetrics: {
            aggregator: string;
            buckets: {
                /** @description Billed amount per currency. */
                amounts: {
                    [key: string]: number;
                };
                ending_balance: {
                    available_balance: number;
                    current_balance: number;
                    pending_activity: number;
                };
                /** @description The aggregator over meter_usage of the reports in the bucket; null when none. */
                metric: number | null;
                /** @description Bucket start, ISO 8601 in the requested time zone. */
                start: string;
            }[];
            group_by?: string;
            interval: string;
            /** @description Series left out beyond the first 100. */
            other_series_count?: number;
            /** @description One series per group_by value. */
            series?: {
                buckets: {
                    /** @description Billed amount per currency. */
                    amounts: {
                        [key: string]: number;
                    };
                    ending_balance: {
                        available_balance: number;
                        current_balance: number;
                        pending_activity: number;
                    };
                    /** @description The aggregator over meter_usage of the reports in the bucket; null when none. */
                    metric: number | null;
                    /** @description Bucket start, ISO 8601 in the requested time zone. */
                    start: string;
                }[];
                key: string | null;
            }[];
            time_zone: string;
        };
        BillingReport: {
            _id: string;
            amount?: number;
            amount_exact?: string;
            app_id: string;
            /** @enum {string} */
            attribution?: "subscription_id" | "company" | "both";
            balance_changes?: {
                amount: number;
            }[];
            beginning_balance?: {
                available_balance: number;
                current_balance: number;
                pending_activity: number;
                sequence_id: number;
            };
            billing_meter_id: string;
            channel_requests?: {
                channel_id: string;
                channel_name?: string;
                provider_requests: {
                    error_code: string | null;
                    error_message: string | null;
                    job_id: string;
                    request_time: string;
                    status_code: number;
                    success: boolean;
                }[];
            }[];
            company_id: string | null;
            created_at: string;
            currency?: string;
            delivery_runs: number;
            ending_balance?: {
                available_balance: number;
                current_balance: number;
                pending_activity: number;
                sequence_id: number;
            };
            error_code?: string;
            error_message?: string;
            idempotency_key: string;
            last_success_time: string | null;
            meter_metric: number;
            meter_metric_exact: string;
            meter_usage: number;
            org_id: string;
            price_id?: string;
            provider: string;
            provider_requests: {
                error_code: string | null;
                error_message: string | null;
                job_id: string;
                request_time: string;
                status_code: number;
                success: boolean;
            }[];
            report_total_usage: number;
            report_version: number;
            /** @enum {string} */
            status: "pending" | "success" | "retrying" | "failed" | "unattributed";
            subscription_id: string | null;
            subscription_period_end: string | null;
            subscription_period_start: string | null;
            success: boolean;
            /** @constant */
            type: "usage";
            updated_at: string;
            usage: {
                aggregator: string;
                invoice?: {
                    id: string;
                    period_end: string | null;
                    period_start: string | null;
                };
            };
            usage_end_time: string;
            usage_start_time: string;
            versions: {
                amount_exact?: string;
                created_at: string;
                delta: number;
                meter_metric: string;
                meter_usage: number;
                report_version: number;
            }[];
        };
        /** @description A catalog plan or price: the fields of its create body plus id, created_at and updated_at. */
        CatalogItem: {
            created_at: string;
            id: string;
            updated_at: string;
        } & {
            [key: string]: unknown;
        };
        Channel: {
            _id: string;
            app_id: string;
            created_at: string;
            headers?: {
                [key: string]: string;
            };
            modified_at: string;
            name: string;
            org_id: string;
            previous_secret_expires_at?: string;
            /** @description Only in the answer that created the channel or set / rotated its secret. */
            secret?: string;
            /** @description The secret's last four characters. */
            secret_hint: string;
            /** @enum {string} */
            status: "active" | "inactive";
            url: string;
        };
        ChannelCreate: {
            headers?: {
                [key: string]: string;
            };
            name: string;
            secret?: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive";
            /** Format: uri */
            url: string;
        };
        ChannelUpdate: {
            headers?: {
                [key: string]: string;
            };
            name?: string;
            rotate_secret?: boolean;
            secret?: string;
            /** @enum {string} */
            status?: "active" | "inactive";
            /** Format: uri */
            url?: string;
        };
        Cohort: {
            _id: string;
            app_id: string;
            channels?: string[];
            cohort_name: string;
            /** @enum {string} */
            cohort_type: "user" | "company";
            created_at: string;
            /** @description The criteria query, as a JSON string. */
            criteria: string;
            from?: string;
            locked_by?: string;
            modified_at: string;
            notification_rule?: {
                fields?: string[];
                period?: string;
                send_on_addition: boolean;
                send_on_removal: boolean;
            };
            org_id: string;
            priority?: number;
            sample_rate?: number;
            time_zone?: string;
            to?: string;
            url_query?: string;
            week_starts_on?: number;
        } & {
            [key: string]: unknown;
        };
        CohortCreate: {
            channels?: string[];
            cohort_name: string;
            /** @enum {string} */
            cohort_type: "user" | "company";
            criteria: {
                [key: string]: unknown;
            };
            from?: string;
            locked_by?: string;
            notification_rule?: {
                fields?: string[];
                period?: string;
                send_on_addition: boolean;
                send_on_removal: boolean;
            };
            priority?: number;
            time_zone?: string;
            to?: string;
            url_query?: string;
            week_starts_on?: number;
        };
        CohortUpdate: {
            channels?: string[];
            cohort_name?: string;
            /** @enum {string} */
            cohort_type: "user" | "company";
            criteria?: {
                [key: string]: unknown;
            };
            from?: string;
            locked_by?: string;
            notification_rule?: {
                fields?: string[];
                period?: string;
                send_on_addition: boolean;
                send_on_removal: boolean;
            };
            priority?: number;
            sample_rate?: number;
            time_zone?: string;
            to?: string;
            url_query?: string;
            week_starts_on?: number;
        };
        Comment: {
            auth_user_id: string;
            comment_id: string;
            created_at: string;
            mentions: string[];
            message: string;
            partner_user_id?: string;
            updated_at: string;
            workspace_id: string;
        };
        CompanyProfile: {
            campaign?: ({
                utm_campaign?: string | null;
                utm_content?: string | null;
                utm_medium?: string | null;
                utm_source?: string | null;
                utm_term?: string | null;
            } & {
                [key: string]: unknown;
            }) | null;
            company_domain?: string | null;
            company_id: string;
            ip_address?: string | null;
            metadata?: unknown | null;
            modified_time?: string | null;
            session_token?: string | null;
        } & {
            [key: string]: unknown;
        };
        Count: {
            count: number;
        };
        Dashboard: {
            _id: string;
            app_id: string;
            auth_user_id: string;
            created: string;
            dashboard_ids: string[];
            migration?: {
                [key: string]: unknown;
            };
            name: string;
            org_id: string;
            parent?: string;
            policy?: {
                acl: {
                    grantee: string;
                    permission: string;
                }[];
                api_scopes?: string[];
                original_encoded_resource?: string;
                resource: {
                    [key: string]: unknown;
                };
            };
            profile_view_promotion?: string;
            sort_order?: number;
            workspace_ids: string[][];
        };
        DashboardCreate: {
            /** @default [] */
            dashboard_ids: string[];
            name: string;
            parent?: string;
            policy?: {
                acl: {
                    grantee: string;
                    permission: string;
                }[];
                api_scopes?: string[];
                original_encoded_resource?: string;
                resource: {
                    [key: string]: unknown;
                };
            };
            profile_view_promotion?: string;
            sort_order?: number;
            /** @default [] */
            workspace_ids: string[][];
        };
        DashboardUpdate: {
            dashboard_id?: string;
            dashboard_ids?: string[];
            name?: string;
            parent?: string;
            policy?: {
                acl: {
                    grantee: string;
                    permission: string;
                }[];
                api_scopes?: string[];
                original_encoded_resource?: string;
                resource: {
                    [key: string]: unknown;
                };
            };
            sort_order?: number;
            workspace_ids?: string[][];
        };
        Document: {
            _id: string;
            _source: {
                [key: string]: unknown;
            };
        };
        EmailTemplate: {
            _id: string;
            addresses: {
                bcc: string[];
                cc: string[];
                /** Format: email */
                from: string;
            };
            app_id: string;
            auth_user_id: string;
            cohorts: {
                config?: {
                    cohort_name: string;
                    cohort_type: string;
                    criteria: string;
                    from: string;
                    time_zone: string;
                    to: string;
                    url_query: string;
                };
                id: string;
                /** @enum {string} */
                type: "user" | "company";
            }[];
            content: {
                chunks: {
                    [key: string]: unknown;
                };
                html: string;
            };
            created_at: string;
            dynamic_fields?: {
                /** @enum {string} */
                aggregator: "avg" | "min" | "max" | "terms" | "sum";
                field: string;
                token: string;
            }[];
            modified_at: string;
            name: string;
            org_id: string;
            period?: string;
            state: 0 | 1 | 2;
            template: {
                design: {
                    [key: string]: unknown;
                };
                editor: string;
                subject: string;
                /** Format: uri */
                thumbnail_url?: string;
            };
        };
        EmailTemplateCreate: {
            addresses: {
                bcc: string[];
                cc: string[];
                /** Format: email */
                from: string;
            };
            cohorts: {
                config?: {
                    cohort_name: string;
                    cohort_type: string;
                    criteria: string;
                    from: string;
                    time_zone: string;
                    to: string;
                    url_query: string;
                };
                id: string;
                /** @enum {string} */
                type: "user" | "company";
            }[];
            content: {
                chunks: {
                    [key: string]: unknown;
                };
                html: string;
            };
            dynamic_fields?: {
                /** @enum {string} */
                aggregator: "avg" | "min" | "max" | "terms" | "sum";
                field: string;
                token: string;
            }[];
            name: string;
            period?: string;
            state: 0 | 1 | 2;
            template: {
                design: {
                    [key: string]: unknown;
                };
                editor: string;
                subject: string;
                /** Format: uri */
                thumbnail_url?: string;
            };
        };
        EmailTemplateUpdate: {
            addresses?: {
                bcc: string[];
                cc: string[];
                /** Format: email */
                from: string;
            };
            cohorts?: {
                config?: {
                    cohort_name: string;
                    cohort_type: string;
                    criteria: string;
                    from: string;
                    time_zone: string;
                    to: string;
                    url_query: string;
                };
                id: string;
                /** @enum {string} */
                type: "user" | "company";
            }[];
            content?: {
                chunks: {
                    [key: string]: unknown;
                };
                html: string;
            };
            dynamic_fields?: {
                /** @enum {string} */
                aggregator: "avg" | "min" | "max" | "terms" | "sum";
                field: string;
                token: string;
            }[];
            name?: string;
            period?: string;
            state?: 0 | 1 | 2;
            template?: {
                design: {
                    [key: string]: unknown;
                };
                editor: string;
                subject: string;
                /** Format: uri */
                thumbnail_url?: string;
            };
        };
        EncryptedKey: {
            _id: string;
            app_id: string;
            auth_user_id: string;
            created_at: string;
            encrypted_key: string;
            fingerprint: string;
            master_key_id?: string;
            modified_at: string;
            month: string;
            org_id: string;
            type: string;
        };
        EncryptedKeySummary: {
            _id: string;
            app_id: string;
            auth_user_id: string;
            created_at: string;
            fingerprint: string;
            master_key_id?: string;
            modified_at: string;
            month: string;
            org_id: string;
            type: string;
        };
        EncryptedKeyUpdate: {
            encrypted_key?: string;
            master_key_id?: string;
            month?: string;
            type?: string;
        };
        /** @description The one error shape of both APIs. */
        Error: {
            error: {
                /** @description Stable machine-readable code, e.g. invalid_request, unauthorized, not_found. */
                code: string;
                /** @description One entry per field at fault; empty when nothing is per field. */
                details: {
                    field: string;
                    /** @description The item's position in a batch body. */
                    index?: number;
                    reason: string;
                }[];
                message: string;
                /** @description The HTTP status, repeated. */
                status: number;
            };
        };
        FieldList: {
            properties: {
                [key: string]: {
                    fields?: {
                        raw: {
                            /** @constant */
                            type: "keyword";
                        };
                    };
                    /** @enum {string} */
                    type: "keyword" | "text" | "date" | "long" | "double" | "boolean" | "object";
                };
            };
        };
        GovernanceRule: {
            _id: string;
            app_id: string;
            /** @enum {string} */
            applied_to?: "matching" | "not_matching";
            applied_to_unidentified?: boolean;
            block: boolean;
            cohorts?: ({
                id: string;
            } & {
                [key: string]: unknown;
            })[];
            created_at: string;
            model?: string;
            modified_at: string;
            name: string;
            org_id: string;
            plans?: {
                plan_id: string;
                price_ids: string[];
                provider: string;
            }[];
            priority?: number;
            regex_config?: {
                conditions: {
                    path: string;
                    value: string;
                }[];
                sample_rate?: number;
            }[];
            response?: {
                body?: unknown;
                headers?: {
                    [key: string]: string;
                };
                original_encoded_body?: string;
                status?: number;
            };
            state: 0 | 1;
            /** @enum {string} */
            type: "user" | "company" | "regex";
            variables?: {
                name: string;
                path: string;
            }[];
        } & {
            [key: string]: unknown;
        };
        GovernanceRuleCreate: {
            /** @enum {string} */
            applied_to?: "matching" | "not_matching";
            applied_to_unidentified?: boolean;
            block: boolean;
            cohorts?: ({
                id: string;
            } & {
                [key: string]: unknown;
            })[];
            model?: string;
            name: string;
            plans?: {
                plan_id: string;
                price_ids: string[];
                provider: string;
            }[];
            priority?: number;
            regex_config?: {
                conditions: {
                    path: string;
                    value: string;
                }[];
                sample_rate?: number;
            }[];
            response?: {
                body?: unknown;
                headers?: {
                    [key: string]: string;
                };
                original_encoded_body?: string;
                status?: number;
            };
            state: 0 | 1;
            /** @enum {string} */
            type: "user" | "company" | "regex";
            variables?: {
                name: string;
                path: string;
            }[];
        };
        GovernanceRuleUpdate: {
            /** @enum {string} */
            applied_to?: "matching" | "not_matching";
            applied_to_unidentified?: boolean;
            block?: boolean;
            cohorts?: ({
                id: string;
            } & {
                [key: string]: unknown;
            })[];
            model?: string;
            name?: string;
            plans?: {
                plan_id: string;
                price_ids: string[];
                provider: string;
            }[];
            priority?: number;
            regex_config?: {
                conditions: {
                    path: string;
                    value: string;
                }[];
                sample_rate?: number;
            }[];
            response?: {
                body?: unknown;
                headers?: {
                    [key: string]: string;
                };
                original_encoded_body?: string;
                status?: number;
            };
            state?: 0 | 1;
            /** @enum {string} */
            type?: "user" | "company" | "regex";
            variables?: {
                name: string;
                path: string;
            }[];
        };
        OAuthError: {
            /** @enum {string} */
            error: "invalid_request" | "invalid_grant" | "unsupported_grant_type" | "invalid_scope" | "too_many_requests" | "server_error";
            error_description: string;
        };
        OAuthToken: {
            access_token: string;
            /** @description Seconds the token is valid. */
            expires_in: number;
            /** @description The scopes granted, space-separated. */
            scope: string;
            /** @constant */
            token_type: "Bearer";
        };
        OrgUser: {
            created_at: string;
            org_id: string;
            scopes: (("create:apps" | "read:apps" | "update:apps" | "delete:apps" | "update:organizations" | "create:access_tokens" | "create:events" | "read:events" | "create:users" | "read:users" | "update:users" | "delete:users" | "create:companies" | "read:companies" | "update:companies" | "delete:companies" | "create:dashboards" | "read:dashboards" | "update:dashboards" | "delete:dashboards" | "create:workspaces" | "read:workspaces" | "update:workspaces" | "delete:workspaces" | "read:public_workspaces" | "create:cohorts" | "read:cohorts" | "update:cohorts" | "delete:cohorts" | "create:virtual_eventtypes" | "read:virtual_eventtypes" | "update:virtual_eventtypes" | "delete:virtual_eventtypes" | "create:reports" | "read:reports" | "delete:reports" | "create:encrypted_keys" | "read:encrypted_keys" | "update:encrypted_keys" | "delete:encrypted_keys" | "create:eth_abi") | "admin")[];
            username: string;
        };
        /** @description grant_type=password, username and password are required; scope (space- or comma-separated) narrows the token; app_id picks the app `~` means (default: the org's first app). */
        PasswordGrant: {
            app_id?: string;
            grant_type?: string;
            password?: string;
            scope?: string;
            username?: string;
        };
        PlanInput: {
            description?: string;
            metadata?: {
                [key: string]: string;
            };
            name: string;
            product_id?: string;
            /** @default custom */
            provider: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive" | "archived";
            unit?: string;
        };
        PlanUpdate: {
            description?: string;
            metadata?: {
                [key: string]: string;
            };
            name?: string;
            product_id?: string;
            provider?: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive" | "archived";
            unit?: string;
        };
        PriceInput: {
            currency: string;
            metadata?: {
                [key: string]: string;
            };
            name: string;
            period?: number;
            /** @enum {string} */
            period_units?: "d" | "w" | "M" | "y";
            plan_id: string;
            price_in_decimal?: string;
            /** @enum {string} */
            pricing_model: "per_unit" | "standard" | "package" | "volume" | "tiered_volume" | "graduated" | "tiered" | "tiered_graduated";
            /** @default custom */
            provider: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive" | "archived";
            /** @enum {string} */
            tax_behavior?: "inclusive" | "exclusive" | "unspecified";
            tiers?: {
                flat_price_in_decimal?: string;
                unit_price_in_decimal?: string;
                up_to: number | "inf";
            }[];
            transform_quantity?: {
                divide_by: number;
                /** @enum {string} */
                round: "up" | "down";
            };
            unit?: string;
            /** @enum {string} */
            usage_aggregator?: "sum" | "last" | "max";
        };
        PriceUpdate: {
            currency?: string;
            metadata?: {
                [key: string]: string;
            };
            name?: string;
            period?: number;
            /** @enum {string} */
            period_units?: "d" | "w" | "M" | "y";
            plan_id?: string;
            price_in_decimal?: string;
            /** @enum {string} */
            pricing_model?: "per_unit" | "standard" | "package" | "volume" | "tiered_volume" | "graduated" | "tiered" | "tiered_graduated";
            /** @default custom */
            provider: string;
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "inactive" | "archived";
            /** @enum {string} */
            tax_behavior?: "inclusive" | "exclusive" | "unspecified";
            tiers?: {
                flat_price_in_decimal?: string;
                unit_price_in_decimal?: string;
                up_to: number | "inf";
            }[];
            transform_quantity?: {
                divide_by: number;
                /** @enum {string} */
                round: "up" | "down";
            };
            unit?: string;
            /** @enum {string} */
            usage_aggregator?: "sum" | "last" | "max";
        };
        ReportExplanation: {
            company_usage_included: boolean;
            event_count: number;
            /** @description Both equal the report's meter_metric_exact and meter_usage (false after late events not yet re-billed). */
            matches: boolean;
            /** @description The exact search body sent to the events index. */
            query: {
                [key: string]: unknown;
            };
            range: {
                from: string;
                /** @constant */
                time_zone: "UTC";
                to: string;
            };
            /** @description The raw metric of the window now, as decimal text. */
            recomputed_metric: string;
            /** @description The whole quantity after usage_multiplier and rounding. */
            recomputed_usage: number;
            report: {
                _id: string;
                amount?: number;
                amount_exact?: string;
                app_id: string;
                /** @enum {string} */
                attribution?: "subscription_id" | "company" | "both";
                balance_changes?: {
                    amount: number;
                }[];
                beginning_balance?: {
                    available_balance: number;
                    current_balance: number;
                    pending_activity: number;
                    sequence_id: number;
                };
                billing_meter_id: string;
                channel_requests?: {
                    channel_id: string;
                    channel_name?: string;
                    provider_requests: {
                        error_code: string | null;
                        error_message: string | null;
                        job_id: string;
                        request_time: string;
                        status_code: number;
                        success: boolean;
                    }[];
                }[];
                company_id: string | null;
                created_at: string;
                currency?: string;
                delivery_runs: number;
                ending_balance?: {
                    available_balance: number;
                    current_balance: number;
                    pending_activity: number;
                    sequence_id: number;
                };
                error_code?: string;
                error_message?: string;
                idempotency_key: string;
                last_success_time: string | null;
                meter_metric: number;
                meter_metric_exact: string;
                meter_usage: number;
                org_id: string;
                price_id?: string;
                provider: string;
                provider_requests: {
                    error_code: string | null;
                    error_message: string | null;
                    job_id: string;
                    request_time: string;
                    status_code: number;
                    success: boolean;
                }[];
                report_total_usage: number;
                report_version: number;
                /** @enum {string} */
                status: "pending" | "success" | "retrying" | "failed" | "unattributed";
                subscription_id: string | null;
                subscription_period_end: string | null;
                subscription_period_start: string | null;
                success: boolean;
                /** @constant */
                type: "usage";
                updated_at: string;
                usage: {
                    aggregator: string;
                    invoice?: {
                        id: string;
                        period_end: string | null;
                        period_start: string | null;
                    };
                };
                usage_end_time: string;
                usage_start_time: string;
                versions: {
                    amount_exact?: string;
                    created_at: string;
                    delta: number;
                    meter_metric: string;
                    meter_usage: number;
                    report_version: number;
                }[];
            };
            /** @description Up to 20 ids of matching events. */
            sample_event_ids: string[];
        };
        /** @description A search DSL object (OpenSearch request-body search). Scripts, index names and administrative members are refused with a 400 naming the member. */
        SearchBody: {
            /** @description false, a field pattern, a list of them, or {includes, excludes}. */
            _source?: unknown;
            /** @description Alias of aggs (give one of them). */
            aggregations?: {
                [key: string]: unknown;
            };
            /** @description Aggregations, nested at most 5 deep. Set size 0 for metric queries. */
            aggs?: {
                [key: string]: unknown;
            };
            /** @description Offset; from + size ≤ 10000. Page deeper with search_after. */
            from?: number;
            /** @description A query that filters hits but not aggregations. */
            post_filter?: {
                [key: string]: unknown;
            };
            /** @description An OpenSearch query (bool, term, terms, range, match, exists, query_string, …). Default match_all. */
            query?: {
                [key: string]: unknown;
            };
            /** @description The sort values of the last hit already seen. */
            search_after?: unknown[];
            /** @description Hits per page; default 10. */
            size?: number;
            /** @description Sort entries (field names or {field: {order, unmapped_type}}); compound with _id for stable paging. */
            sort?: unknown;
            track_total_hits?: boolean | number;
        };
        SearchResponse: {
            /** @description Aggregation results in OpenSearch's shape. */
            aggregations?: {
                [key: string]: unknown;
            };
            hits: {
                hits: {
                    _id: string;
                    _source?: {
                        [key: string]: unknown;
                    };
                    /** @description Sort values of this hit: pass the last one as search_after for the next page. */
                    sort?: (string | number | boolean | null)[];
                }[];
                max_score: null;
                total: number;
            };
            timed_out: boolean;
            took: number;
        };
        SignedToken: {
            /** @description The token id (management) or the app id (collector). */
            _id: string;
            token: string;
            url?: string;
        };
        Subscription: {
            company_id: string;
            created_at?: string | null;
            current_period_end?: string | null;
            current_period_start?: string | null;
            items?: ({
                created_at?: string | null;
                metadata?: unknown | null;
                plan_id?: string | null;
                price_id?: string | null;
                subscription_item_id?: string | null;
                unit_of_measure?: string | null;
            } & {
                [key: string]: unknown;
            })[] | null;
            metadata?: unknown | null;
            modified_time?: string | null;
            /** @enum {string} */
            status: "active" | "cancelled" | "paused" | "trialing" | "pending" | "draft" | "future";
            subscription_id: string;
        } & {
            [key: string]: unknown;
        };
        SubscriptionBalance: {
            available_balance: number;
            company_id: string;
            current_balance: number;
            pending_activity: number;
            sequence_id: number;
            subscription_id: string;
        };
        UserProfile: {
            campaign?: ({
                utm_campaign?: string | null;
                utm_content?: string | null;
                utm_medium?: string | null;
                utm_source?: string | null;
                utm_term?: string | null;
            } & {
                [key: string]: unknown;
            }) | null;
            company_id?: string | null;
            ip_address?: string | null;
            metadata?: unknown | null;
            modified_time?: string | null;
            session_token?: string | null;
            user_id: string;
        } & {
            [key: string]: unknown;
        };
        Workspace: {
            _id: string;
            app_id: string;
            auth_user_id: string;
            chart?: {
                args?: string;
                es_query?: {
                    [key: string]: unknown;
                };
                from?: string;
                funnel_query?: {
                    [key: string]: unknown;
                };
                original_encoded_funnel_query?: string;
                original_encoded_query?: string;
                original_encoded_view_elements?: string;
                time_zone?: string;
                to?: string;
                url_query: string;
                view: string;
                view_elements?: {
                    [key: string]: unknown;
                };
            };
            colors?: {
                [key: string]: unknown;
            };
            comments?: {
                summary: {
                    count: number;
                    latest_comment?: {
                        auth_user_id: string;
                        comment_id: string;
                        created_at: string;
                        mentions: string[];
                        message: string;
                        partner_user_id?: string;
                        updated_at: string;
                    };
                };
            };
            created: string;
            dashboard?: {
                [key: string]: unknown;
            };
            drawings?: {
                direction: string;
                id: string;
                name: string;
                type: string;
                value: number;
            }[];
            is_default?: boolean;
            is_template?: boolean;
            migration?: {
                [key: string]: unknown;
            };
            name?: string;
            org_id: string;
            policy?: {
                acl: {
                    grantee: string;
                    permission: string;
                }[];
                api_scopes?: string[];
                original_encoded_resource?: string;
                resource: {
                    [key: string]: unknown;
                };
            };
            sequence?: {
                delay: number;
                submit_data: {
                    body?: {
                        [key: string]: unknown;
                    };
                    headers?: {
                        key: string;
                        val: string;
                    }[];
                    params?: {
                        key: string;
                        val: string;
                    }[];
                    url: string;
                    verb: string;
                };
            }[];
            sort_order?: number;
            template?: {
                dynamic_fields: string[];
                dynamic_time?: boolean;
            };
            type?: string;
            view_count: number;
            width?: number;
        };
        WorkspaceCreate: {
            chart: {
                args?: string;
                es_query?: {
                    [key: string]: unknown;
                };
                from?: string;
                funnel_query?: {
                    [key: string]: unknown;
                };
                original_encoded_funnel_query?: string;
                original_encoded_query?: string;
                original_encoded_view_elements?: string;
                time_zone?: string;
                to?: string;
                url_query: string;
                view: string;
                view_elements?: {
                    [key: string]: unknown;
                };
            };
            colors?: {
                [key: string]: unknown;
            };
            dashboard?: {
                [key: string]: unknown;
            };
            drawings?: {
                direction: string;
                id: string;
                name: string;
                type: string;
                value: number;
            }[];
            is_default?: boolean;
            name: string;
            policy: {
                acl: {
                    grantee: string;
                    permission: string;
                }[];
                api_scopes?: string[];
                original_encoded_resource?: string;
                resource: {
                    [key: string]: unknown;
                };
            };
            sort_order?: number;
            template?: {
                dynamic_fields: string[];
                dynamic_time?: boolean;
            };
            type?: string;
            view_count?: number;
            width?: number;
        };
        WorkspaceUpdate: {
            chart?: {
                args?: string;
                es_query?: {
                    [key: string]: unknown;
                };
                from?: string;
                funnel_query?: {
                    [key: string]: unknown;
                };
                original_encoded_funnel_query?: string;
                original_encoded_query?: string;
                original_encoded_view_elements?: string;
                time_zone?: string;
                to?: string;
                url_query: string;
                view: string;
                view_elements?: {
                    [key: string]: unknown;
                };
            };
            colors?: {
                [key: string]: unknown;
            };
            drawings?: {
                direction: string;
                id: string;
                name: string;
                type: string;
                value: number;
            }[];
            name?: string;
            policy?: {
                acl: {
                    grantee: string;
                    permission: string;
                }[];
                api_scopes?: string[];
                original_encoded_resource?: string;
                resource: {
                    [key: string]: unknown;
                };
            };
            sort_order?: number;
            template?: {
                dynamic_fields: string[];
                dynamic_time?: boolean;
            };
            width?: number;
        };
    };
    responses: {
        /** @description Bad request: a field or parameter is invalid; details name each field and why. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The resource was deleted. */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists but not with this method; the Allow header lists the methods it has. */
        MethodNotAllowed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The Accept header rules out application/json. */
        NotAcceptable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such resource (or no such endpoint). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is larger than the limit after decompression. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The organisation's subscription is not active. */
        PaymentRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A dependency did not take the request; nothing was half-done: retry. */
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limit hit (500 queries per calendar minute per organisation); retry after the Retry-After seconds. */
        TooManyRequests: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Credentials missing or incorrect, or the token lacks the scope. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The Content-Encoding is not one of gzip, deflate, br. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    appsList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    appsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    appsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    appsUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    appsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    appsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description `prices` embeds each plan's prices. */
                includes?: string;
                /** @description Only plans of this provider (`all`: every provider). */
                provider?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        prices: components["schemas"]["CatalogItem"][];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPlansUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPlansDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Only prices of this plan. */
                plan_id?: string;
                /** @description Only prices of this provider (`all`: every provider). */
                provider?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PriceInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PriceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPricesUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PriceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPricesDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                status?: "active" | "inactive";
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingChannelsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingChannelsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingMeterCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingMeterUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingMetersUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingMeterUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingMetersDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    channel_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        billing_meter_id: string;
                        channel_requests: {
                            channel_id: string;
                            channel_name: string | null;
                            provider_requests: {
                                error_code: string | null;
                                error_message: string | null;
                                job_id: string;
                                request_time: string;
                                status_code: number;
                                success: boolean;
                            }[];
                            success: boolean;
                        }[];
                        event_id: string;
                        /** @description Every channel answered 2xx. */
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsList: {
        parameters: {
            query?: {
                before_id?: string;
                billing_meter_id?: string;
                company_id?: string;
                from?: string;
                provider?: "stripe" | "chargebee" | "recurly" | "zuora" | "webhook";
                status?: string;
                subscription_id?: string;
                success?: "true" | "false";
                take?: string;
                time_zone?: string;
                to?: string;
                type?: "usage";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingReport"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The report's _id. */
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsExplain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The report's _id. */
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportExplanation"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listBalanceTransactions: {
        parameters: {
            query: {
                /** @description The x-next-before-id (a sequence_id) of the previous page. */
                before_id?: string;
                /** @description The subscription whose ledger to list. */
                subscription_id: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceEntry"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createBalanceTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BalanceTransactionCreate"];
            };
        };
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listBalances: {
        parameters: {
            query?: {
                company_id?: string;
                subscription_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionBalance"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsMetrics: {
        parameters: {
            query?: {
                aggregator?: "sum" | "avg" | "min" | "max" | "terms";
                billing_meter_id?: string;
                company_id?: string;
                from?: string;
                group_by?: "company_id" | "subscription_id" | "billing_meter_id" | "provider" | "status";
                interval?: string;
                provider?: "stripe" | "chargebee" | "recurly" | "zuora" | "webhook";
                status?: string;
                subscription_id?: string;
                success?: "true" | "false";
                time_zone?: string;
                to?: string;
                type?: "usage";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMetrics"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                cohort_type?: "user" | "company";
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CohortCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CohortUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cohortsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CohortUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cohortsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsDeleteSampleRate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsCopy2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsCascadeDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: {
                            dashboards: string[];
                            workspaces: string[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsCopy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsAclAdd: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grantee: string;
                    permission: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsAclRemove: {
        parameters: {
            query?: {
                /** @description The grantee to remove, when the body does not name it. */
                grantee?: string;
            };
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    grantee: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    emailTemplatesList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Only templates sent to this cohort. */
                cohort_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    emailTemplatesCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    emailTemplatesGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    emailTemplatesUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    emailTemplatesUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    emailTemplatesDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GovernanceRuleCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GovernanceRuleUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    governanceRulesUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GovernanceRuleUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    governanceRulesDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                from?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
                to?: string;
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKeySummary"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    encrypted_key: string;
                    master_key_id?: string;
                    month: string;
                    /** @default data_key */
                    type?: string;
                } | {
                    encrypted_key: string;
                    master_key_id?: string;
                    month: string;
                    /** @default data_key */
                    type?: string;
                }[];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"] | components["schemas"]["EncryptedKey"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EncryptedKeyUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    keystoreUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EncryptedKeyUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    keystoreDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    mintAccessToken: {
        parameters: {
            query?: {
                expiration?: string;
                scope?: string;
                target?: "management" | "collector";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token id (jti). */
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOrgUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: components["schemas"]["OrgUser"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createOrgUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    scopes: (("create:apps" | "read:apps" | "update:apps" | "delete:apps" | "update:organizations" | "create:access_tokens" | "create:events" | "read:events" | "create:users" | "read:users" | "update:users" | "delete:users" | "create:companies" | "read:companies" | "update:companies" | "delete:companies" | "create:dashboards" | "read:dashboards" | "update:dashboards" | "delete:dashboards" | "create:workspaces" | "read:workspaces" | "update:workspaces" | "delete:workspaces" | "read:public_workspaces" | "create:cohorts" | "read:cohorts" | "update:cohorts" | "delete:cohorts" | "create:virtual_eventtypes" | "read:virtual_eventtypes" | "update:virtual_eventtypes" | "delete:virtual_eventtypes" | "create:reports" | "read:reports" | "delete:reports" | "create:encrypted_keys" | "read:encrypted_keys" | "update:encrypted_keys" | "delete:encrypted_keys" | "create:eth_abi") | "admin")[];
                    username: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteOrgUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's username. */
                username: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
                /** @description Only workspaces of this type. */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesUpdate2: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsList: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsCreate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    mentions?: string[];
                    message: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsUpdate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The comment's id. */
                commentId: string;
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    mentions?: string[];
                    message?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The comment's id. */
                commentId: string;
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesAclAdd: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grantee: string;
                    permission: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesAclRemove: {
        parameters: {
            query?: {
                /** @description The grantee to remove, when the body does not name it. */
                grantee?: string;
            };
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    grantee: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesTemplates: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    openApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            406: components["responses"]["NotAcceptable"];
        };
    };
    writeCompany: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompanyProfile"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCompany: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The company profile's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteCompany: {
        parameters: {
            query?: {
                /** @description Also delete its events; default false. */
                delete_events?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description The company's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        company_id: string;
                        /** @constant */
                        deleted: true;
                        /** @description Events deleted by the time of the answer (delete_events=true), else 0. */
                        events_deleted: number;
                        /** @description With delete_events=true: the deletion of its events, which on OpenSearch runs in the background. */
                        events_deletion?: {
                            /** @description Events deleted so far. */
                            deleted: number;
                            /** @description Present while it can be followed: GET url. */
                            deletion_id?: string;
                            /** @description Why a failed deletion stopped; run it again to finish. */
                            error?: string;
                            /** @enum {string} */
                            status: "running" | "completed" | "failed";
                            /** @description Events found to delete, once counted. */
                            total?: number;
                            /** @description /search/~/deletions/{deletion_id} */
                            url?: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    companySubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The company's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    writeCompanies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompanyProfile"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    countCompanies: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    countEvents: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    countUsers: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deletionStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The deletion_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Events deleted so far. */
                        deleted: number;
                        /** @description Present while it can be followed: GET url. */
                        deletion_id?: string;
                        /** @description Why a failed deletion stopped; run it again to finish. */
                        error?: string;
                        /** @enum {string} */
                        status: "running" | "completed" | "failed";
                        /** @description Events found to delete, once counted. */
                        total?: number;
                        /** @description /search/~/deletions/{deletion_id} */
                        url?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getEvent: {
        parameters: {
            query?: {
                /** @description The event's time (ISO 8601): where to look, for a faster answer. */
                event_time?: string;
            };
            header?: never;
            path: {
                /** @description The event's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    companyProperties: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    eventProperties: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    userProperties: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    searchCompanies: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    countEvents2: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    searchEvents: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    searchUsers: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Subscription"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Subscription"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserProfile"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user profile's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteUser: {
        parameters: {
            query?: {
                /** @description Also delete its events; default false. */
                delete_events?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description The user's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        /** @description Events deleted by the time of the answer (delete_events=true), else 0. */
                        events_deleted: number;
                        /** @description With delete_events=true: the deletion of its events, which on OpenSearch runs in the background. */
                        events_deletion?: {
                            /** @description Events deleted so far. */
                            deleted: number;
                            /** @description Present while it can be followed: GET url. */
                            deletion_id?: string;
                            /** @description Why a failed deletion stopped; run it again to finish. */
                            error?: string;
                            /** @enum {string} */
                            status: "running" | "completed" | "failed";
                            /** @description Events found to delete, once counted. */
                            total?: number;
                            /** @description /search/~/deletions/{deletion_id} */
                            url?: string;
                        };
                        user_id: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserProfile"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    issueAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The organisation the user belongs to. */
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordGrant"];
                "application/x-www-form-urlencoded": components["schemas"]["PasswordGrant"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthToken"];
                };
            };
            /** @description RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, too_many_requests). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, too_many_requests). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, too_many_requests). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    appsList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    appsCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    appsGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    appsUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    appsUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    appsDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The app's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description `prices` embeds each plan's prices. */
                includes?: string;
                /** @description Only plans of this provider (`all`: every provider). */
                provider?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        prices: components["schemas"]["CatalogItem"][];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPlansUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPlansUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPlansDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog plan's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Only prices of this plan. */
                plan_id?: string;
                /** @description Only prices of this provider (`all`: every provider). */
                provider?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PriceInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    catalogPricesUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PriceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPricesUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PriceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    catalogPricesDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The catalog price's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                status?: "active" | "inactive";
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingChannelsUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChannelUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Channel"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingChannelsDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook channel's id. */
                channelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingMeterCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingMetersUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingMeterUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingMetersUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingMeterUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMeter"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    billingMetersDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingChannelsTest_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The billing meter's id. */
                meterId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    channel_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        billing_meter_id: string;
                        channel_requests: {
                            channel_id: string;
                            channel_name: string | null;
                            provider_requests: {
                                error_code: string | null;
                                error_message: string | null;
                                job_id: string;
                                request_time: string;
                                status_code: number;
                                success: boolean;
                            }[];
                            success: boolean;
                        }[];
                        event_id: string;
                        /** @description Every channel answered 2xx. */
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsList_v1: {
        parameters: {
            query?: {
                before_id?: string;
                billing_meter_id?: string;
                company_id?: string;
                from?: string;
                provider?: "stripe" | "chargebee" | "recurly" | "zuora" | "webhook";
                status?: string;
                subscription_id?: string;
                success?: "true" | "false";
                take?: string;
                time_zone?: string;
                to?: string;
                type?: "usage";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingReport"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The report's _id. */
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsExplain_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The report's _id. */
                reportId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportExplanation"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listBalanceTransactions_v1: {
        parameters: {
            query: {
                /** @description The x-next-before-id (a sequence_id) of the previous page. */
                before_id?: string;
                /** @description The subscription whose ledger to list. */
                subscription_id: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceEntry"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createBalanceTransaction_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BalanceTransactionCreate"];
            };
        };
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listBalances_v1: {
        parameters: {
            query?: {
                company_id?: string;
                subscription_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionBalance"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    billingReportsMetrics_v1: {
        parameters: {
            query?: {
                aggregator?: "sum" | "avg" | "min" | "max" | "terms";
                billing_meter_id?: string;
                company_id?: string;
                from?: string;
                group_by?: "company_id" | "subscription_id" | "billing_meter_id" | "provider" | "status";
                interval?: string;
                provider?: "stripe" | "chargebee" | "recurly" | "zuora" | "webhook";
                status?: string;
                subscription_id?: string;
                success?: "true" | "false";
                time_zone?: string;
                to?: string;
                type?: "usage";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMetrics"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                cohort_type?: "user" | "company";
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CohortCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CohortUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cohortsUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CohortUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cohortsDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cohortsDeleteSampleRate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The cohort's id. */
                cohortId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cohort"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsCopy2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsCascadeDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: {
                            dashboards: string[];
                            workspaces: string[];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsCopy_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    dashboardsAclAdd_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grantee: string;
                    permission: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    dashboardsAclRemove_v1: {
        parameters: {
            query?: {
                /** @description The grantee to remove, when the body does not name it. */
                grantee?: string;
            };
            header?: never;
            path: {
                /** @description The dashboard's id. */
                dashId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    grantee: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    emailTemplatesList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Only templates sent to this cohort. */
                cohort_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    emailTemplatesCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    emailTemplatesGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    emailTemplatesUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    emailTemplatesUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    emailTemplatesDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The email template's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GovernanceRuleCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    governanceRulesUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GovernanceRuleUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    governanceRulesUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GovernanceRuleUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    governanceRulesDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The governance rule's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                from?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
                to?: string;
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKeySummary"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    encrypted_key: string;
                    master_key_id?: string;
                    month: string;
                    /** @default data_key */
                    type?: string;
                } | {
                    encrypted_key: string;
                    master_key_id?: string;
                    month: string;
                    /** @default data_key */
                    type?: string;
                }[];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"] | components["schemas"]["EncryptedKey"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    keystoreUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EncryptedKeyUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    keystoreUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EncryptedKeyUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EncryptedKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    keystoreDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The encrypted key's id. */
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    mintAccessToken_v1: {
        parameters: {
            query?: {
                expiration?: string;
                scope?: string;
                target?: "management" | "collector";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeAccessToken_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token id (jti). */
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listOrgUsers_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: components["schemas"]["OrgUser"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createOrgUser_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    scopes: (("create:apps" | "read:apps" | "update:apps" | "delete:apps" | "update:organizations" | "create:access_tokens" | "create:events" | "read:events" | "create:users" | "read:users" | "update:users" | "delete:users" | "create:companies" | "read:companies" | "update:companies" | "delete:companies" | "create:dashboards" | "read:dashboards" | "update:dashboards" | "delete:dashboards" | "create:workspaces" | "read:workspaces" | "update:workspaces" | "delete:workspaces" | "read:public_workspaces" | "create:cohorts" | "read:cohorts" | "update:cohorts" | "delete:cohorts" | "create:virtual_eventtypes" | "read:virtual_eventtypes" | "update:virtual_eventtypes" | "delete:virtual_eventtypes" | "create:reports" | "read:reports" | "delete:reports" | "create:encrypted_keys" | "read:encrypted_keys" | "update:encrypted_keys" | "delete:encrypted_keys" | "create:eth_abi") | "admin")[];
                    username: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteOrgUser_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's username. */
                username: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
                /** @description Only workspaces of this type. */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceCreate"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesGet_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesUpdate2_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsList_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsCreate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    mentions?: string[];
                    message: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsUpdate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The comment's id. */
                commentId: string;
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    mentions?: string[];
                    message?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesCommentsDelete_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The comment's id. */
                commentId: string;
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    workspacesAclAdd_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grantee: string;
                    permission: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesAclRemove_v1: {
        parameters: {
            query?: {
                /** @description The grantee to remove, when the body does not name it. */
                grantee?: string;
            };
            header?: never;
            path: {
                /** @description The workspace's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    grantee: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    workspacesTemplates_v1: {
        parameters: {
            query?: {
                /** @description The x-next-before-id of the previous page. */
                before_id?: string;
                /** @description Page size, 1–1000; default 50. */
                take?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present when another page may follow: pass it as before_id. */
                    "x-next-before-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    openApi_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            406: components["responses"]["NotAcceptable"];
        };
    };
    writeCompany_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompanyProfile"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCompany_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The company profile's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteCompany_v1: {
        parameters: {
            query?: {
                /** @description Also delete its events; default false. */
                delete_events?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description The company's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        company_id: string;
                        /** @constant */
                        deleted: true;
                        /** @description Events deleted by the time of the answer (delete_events=true), else 0. */
                        events_deleted: number;
                        /** @description With delete_events=true: the deletion of its events, which on OpenSearch runs in the background. */
                        events_deletion?: {
                            /** @description Events deleted so far. */
                            deleted: number;
                            /** @description Present while it can be followed: GET url. */
                            deletion_id?: string;
                            /** @description Why a failed deletion stopped; run it again to finish. */
                            error?: string;
                            /** @enum {string} */
                            status: "running" | "completed" | "failed";
                            /** @description Events found to delete, once counted. */
                            total?: number;
                            /** @description /search/~/deletions/{deletion_id} */
                            url?: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    companySubscriptions_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The company's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    writeCompanies_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompanyProfile"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    countCompanies_v1: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    countEvents_v1: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    countUsers_v1: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deletionStatus_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The deletion_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Events deleted so far. */
                        deleted: number;
                        /** @description Present while it can be followed: GET url. */
                        deletion_id?: string;
                        /** @description Why a failed deletion stopped; run it again to finish. */
                        error?: string;
                        /** @enum {string} */
                        status: "running" | "completed" | "failed";
                        /** @description Events found to delete, once counted. */
                        total?: number;
                        /** @description /search/~/deletions/{deletion_id} */
                        url?: string;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getEvent_v1: {
        parameters: {
            query?: {
                /** @description The event's time (ISO 8601): where to look, for a faster answer. */
                event_time?: string;
            };
            header?: never;
            path: {
                /** @description The event's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    companyProperties_v1: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    eventProperties_v1: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    userProperties_v1: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    searchCompanies_v1: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    countEvents2_v1: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Count"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    searchEvents_v1: {
        parameters: {
            query?: {
                /** @description Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M. */
                from?: string;
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
                /** @description End of the window (exclusive), in the same forms as from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    searchUsers_v1: {
        parameters: {
            query?: {
                /** @description TZ database name for dates without an offset and calendar buckets; default UTC. */
                time_zone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeSubscription_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Subscription"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeSubscriptions_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Subscription"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeUser_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserProfile"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUser_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user profile's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    deleteUser_v1: {
        parameters: {
            query?: {
                /** @description Also delete its events; default false. */
                delete_events?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description The user's id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                        /** @description Events deleted by the time of the answer (delete_events=true), else 0. */
                        events_deleted: number;
                        /** @description With delete_events=true: the deletion of its events, which on OpenSearch runs in the background. */
                        events_deletion?: {
                            /** @description Events deleted so far. */
                            deleted: number;
                            /** @description Present while it can be followed: GET url. */
                            deletion_id?: string;
                            /** @description Why a failed deletion stopped; run it again to finish. */
                            error?: string;
                            /** @enum {string} */
                            status: "running" | "completed" | "failed";
                            /** @description Events found to delete, once counted. */
                            total?: number;
                            /** @description /search/~/deletions/{deletion_id} */
                            url?: string;
                        };
                        user_id: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            404: components["responses"]["NotFound"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    writeUsers_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserProfile"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Accepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["PaymentRequired"];
            406: components["responses"]["NotAcceptable"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
