/// The store's tables, as versioned migrations. Written once with `{INT}`, `{REAL}` and `{BLOB}` for
/// the column types each database spells differently. Dates are seconds since 1970 in `{REAL}` columns.
enum Schema {
    /// Migrations in order; version N is `versions[N - 1]`. Never edit a released version: append one.
    static let versions: [[String]] = [
        [
            """
            CREATE TABLE activities (
                activity_id TEXT PRIMARY KEY,
                push_token TEXT NOT NULL,
                bundle_id TEXT NOT NULL,
                attributes_type TEXT NOT NULL,
                environment TEXT NOT NULL,
                user_id TEXT,
                groups_json TEXT NOT NULL,
                frequent_pushes {INT} NOT NULL,
                state TEXT NOT NULL,
                token_state TEXT NOT NULL,
                token_invalid_reason TEXT,
                token_invalidated_at {REAL},
                registered_at {REAL} NOT NULL,
                updated_at {REAL} NOT NULL,
                started_at {REAL} NOT NULL,
                ended_at {REAL},
                dismissal_date {REAL},
                last_content_state TEXT,
                last_timestamp {REAL}
            )
            """,
            "CREATE UNIQUE INDEX activities_push_token ON activities (push_token)",
            "CREATE INDEX activities_user ON activities (user_id)",
            "CREATE INDEX activities_state_started ON activities (state, started_at)",
            """
            CREATE TABLE activity_groups (
                group_name TEXT NOT NULL,
                activity_id TEXT NOT NULL,
                PRIMARY KEY (group_name, activity_id)
            )
            """,
            "CREATE INDEX activity_groups_activity ON activity_groups (activity_id)",
            """
            CREATE TABLE retired_tokens (
                token TEXT PRIMARY KEY,
                activity_id TEXT NOT NULL,
                retired_at {REAL} NOT NULL
            )
            """,
            "CREATE INDEX retired_tokens_activity ON retired_tokens (activity_id)",
            """
            CREATE TABLE push_to_start_tokens (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                device_id TEXT NOT NULL,
                bundle_id TEXT NOT NULL,
                attributes_type TEXT NOT NULL,
                environment TEXT NOT NULL,
                token TEXT NOT NULL,
                token_state TEXT NOT NULL,
                token_invalid_reason TEXT,
                token_invalidated_at {REAL},
                updated_at {REAL} NOT NULL,
                UNIQUE (user_id, device_id, bundle_id, attributes_type)
            )
            """,
            "CREATE INDEX push_to_start_tokens_token ON push_to_start_tokens (token)",
            """
            CREATE TABLE outbox (
                push_id TEXT PRIMARY KEY,
                target_kind TEXT NOT NULL,
                target_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                payload {BLOB} NOT NULL,
                priority {INT} NOT NULL,
                requested_priority {INT} NOT NULL,
                importance TEXT NOT NULL,
                downgrade_reason TEXT,
                collapse_key TEXT,
                expiration {REAL},
                accepted_at {REAL} NOT NULL,
                attempts {INT} NOT NULL,
                next_attempt_at {REAL} NOT NULL,
                claim_owner TEXT,
                claim_until {REAL},
                last_error TEXT,
                available_at {REAL} NOT NULL
            )
            """,
            // available_at: when the item may be claimed next, the later of next_attempt_at and the end of
            // the current claim. One index range scan finds the claimable items, claimed ones are not in it.
            "CREATE INDEX outbox_available ON outbox (available_at, accepted_at, push_id)",
            "CREATE INDEX outbox_target ON outbox (target_id)",
            // Partial: with every unclaimed row in it, planners would pick it for `claim_owner IS NULL`.
            "CREATE INDEX outbox_claim_owner ON outbox (claim_owner) WHERE claim_owner IS NOT NULL",
            """
            CREATE TABLE deliveries (
                push_id TEXT PRIMARY KEY,
                target_kind TEXT NOT NULL,
                target_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                accepted_at {REAL} NOT NULL,
                sent_at {REAL},
                priority {INT} NOT NULL,
                requested_priority {INT} NOT NULL,
                downgrade_reason TEXT,
                apns_id TEXT,
                status {INT},
                reason TEXT,
                attempts {INT} NOT NULL,
                outcome TEXT NOT NULL,
                coalesced_into TEXT,
                recorded_at {REAL} NOT NULL
            )
            """,
            "CREATE INDEX deliveries_target ON deliveries (target_id, accepted_at)",
            """
            CREATE TABLE high_priority_pushes (
                activity_id TEXT NOT NULL,
                at {REAL} NOT NULL
            )
            """,
            "CREATE INDEX high_priority_pushes_activity ON high_priority_pushes (activity_id, at)",
            """
            CREATE TABLE api_keys (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                scope TEXT NOT NULL,
                sha256_hash TEXT NOT NULL UNIQUE,
                created_at {REAL} NOT NULL,
                revoked_at {REAL}
            )
            """,
        ],
        // 2: when the app last reported each current token (an activity's: registered, rotated or sent
        // again; a push-to-start token's: stored), so that APNs refusing a push sent before then does not
        // make the token invalid again.
        [
            "ALTER TABLE activities ADD COLUMN token_valid_since {REAL}",
            "ALTER TABLE push_to_start_tokens ADD COLUMN token_valid_since {REAL}",
        ],
        // 3: secrets the instances share (the app-token signing key), Idempotency-Key records of send
        // requests, and webhook events waiting to be delivered (claimed like outbox items).
        [
            """
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY,
                value {BLOB} NOT NULL,
                created_at {REAL} NOT NULL
            )
            """,
            """
            CREATE TABLE idempotency_keys (
                owner TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                request_hash TEXT NOT NULL,
                reserved_at {REAL} NOT NULL,
                status {INT},
                response_body {BLOB},
                completed_at {REAL},
                PRIMARY KEY (owner, idempotency_key)
            )
            """,
            "CREATE INDEX idempotency_keys_reserved ON idempotency_keys (reserved_at)",
            """
            CREATE TABLE webhook_outbox (
                id TEXT PRIMARY KEY,
                event TEXT NOT NULL,
                body {BLOB} NOT NULL,
                attempts {INT} NOT NULL,
                created_at {REAL} NOT NULL,
                next_attempt_at {REAL} NOT NULL,
                claim_owner TEXT,
                claim_until {REAL},
                last_error TEXT,
                available_at {REAL} NOT NULL
            )
            """,
            "CREATE INDEX webhook_outbox_available ON webhook_outbox (available_at, created_at, id)",
        ],
        // 4: broadcast channels: our id and name, APNs' channel id, and an optional group whose updates
        // also go out through the channel.
        [
            """
            CREATE TABLE channels (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                bundle_id TEXT NOT NULL,
                apns_channel_id TEXT NOT NULL,
                storage_policy {INT} NOT NULL,
                group_id TEXT,
                created_at {REAL} NOT NULL,
                deleted_at {REAL}
            )
            """,
            "CREATE INDEX channels_bundle ON channels (bundle_id, deleted_at)",
            "CREATE INDEX channels_group ON channels (group_id)",
        ],
        // 5: group sends, one record per accepted request, expanded in pages by the workers; their tallies;
        // the pages out with a worker; the group send of an outbox retry and of a history record; when each activity last
        // took a push (to the fraction of a second), which a group send expanded later compares with its own.
        [
            """
            CREATE TABLE group_sends (
                send_id TEXT PRIMARY KEY,
                group_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                payload {BLOB} NOT NULL,
                timestamp {REAL} NOT NULL,
                requested_priority {INT} NOT NULL,
                importance TEXT NOT NULL,
                collapse_key TEXT,
                expiration {REAL},
                dismissal_date {REAL},
                accepted_at {REAL} NOT NULL,
                created_by TEXT NOT NULL,
                next_member TEXT NOT NULL,
                targeted {INT} NOT NULL,
                expanded {INT} NOT NULL,
                expanded_at {REAL}
            )
            """,
            // What each recorded page (or batch of retried pushes) added to its send's counts: rows are only
            // ever inserted, so workers recording pages of one send never wait for each other on a row lock.
            """
            CREATE TABLE group_send_tallies (
                send_id TEXT NOT NULL,
                recorded_at {REAL} NOT NULL,
                sent {INT} NOT NULL,
                failed {INT} NOT NULL,
                downgraded {INT} NOT NULL,
                coalesced {INT} NOT NULL,
                skipped {INT} NOT NULL,
                retrying {INT} NOT NULL
            )
            """,
            "CREATE INDEX group_send_tallies_send ON group_send_tallies (send_id)",
            "CREATE INDEX group_sends_open ON group_sends (expanded, accepted_at, send_id)",
            "CREATE INDEX group_sends_group ON group_sends (group_id, accepted_at)",
            """
            CREATE TABLE group_send_pages (
                send_id TEXT NOT NULL,
                first_id TEXT NOT NULL,
                last_id TEXT NOT NULL,
                claim_owner TEXT NOT NULL,
                claim_until {REAL} NOT NULL,
                PRIMARY KEY (send_id, first_id)
            )
            """,
            "CREATE INDEX group_send_pages_until ON group_send_pages (claim_until)",
            "CREATE INDEX group_send_pages_owner ON group_send_pages (claim_owner)",
            "ALTER TABLE outbox ADD COLUMN send_id TEXT",
            "ALTER TABLE deliveries ADD COLUMN send_id TEXT",
            "ALTER TABLE activities ADD COLUMN last_accepted_at {REAL}",
        ],
        // 6: app-token generations: a backend signs a user (or an installation) out by raising its
        // generation, and tokens minted under a lower one are refused from then on.
        [
            """
            CREATE TABLE app_token_generations (
                subject TEXT PRIMARY KEY,
                generation {INT} NOT NULL,
                withdrawn_at {REAL} NOT NULL
            )
            """
        ],
        // 7: the APNs environment the database serves (one row, recorded by the first server with a known
        // environment that opens it; a database made before this records the first one after the upgrade).
        [
            """
            CREATE TABLE store_environment (
                id {INT} PRIMARY KEY CHECK (id = 1),
                environment TEXT NOT NULL,
                recorded_at {REAL} NOT NULL
            )
            """
        ],
        // 8: the provider console: an index per list it pages (a user's activities by id, group sends
        // newest first, deliveries by when they were written) and the pushes it sent.
        [
            "CREATE INDEX activities_user_id ON activities (user_id, activity_id)",
            "CREATE INDEX group_sends_accepted ON group_sends (accepted_at, send_id)",
            "CREATE INDEX deliveries_recorded ON deliveries (recorded_at)",
            """
            CREATE TABLE console_pushes (
                push_id TEXT PRIMARY KEY,
                sent_by TEXT NOT NULL,
                sent_at {REAL} NOT NULL
            )
            """,
        ],
        // 9 (push-to-start token source, apns-unique-id): where the app read each push-to-start token
        // (ActivityKit's `pushToStartTokenUpdates` stream or its `pushToStartToken` property) and when it
        // last reported it; and the `apns-unique-id` APNs answered for a push (development only). All
        // nullable: rows written before this have none.
        [
            "ALTER TABLE push_to_start_tokens ADD COLUMN source TEXT CHECK (source IN ('stream', 'property'))",
            "ALTER TABLE push_to_start_tokens ADD COLUMN refreshed_at {REAL}",
            "ALTER TABLE deliveries ADD COLUMN apns_unique_id TEXT",
        ],
        // 10 (page-level records of group sends, issue 23): one row per group page for the pushes it sent
        // as planned (the send's content, priority and time, outcome accepted), listing their activities
        // and apns-unique-ids in `members`; the history reads them back through the activity's groups.
        // IF NOT EXISTS: a test that winds a database back to an earlier version runs this again.
        [
            """
            CREATE TABLE IF NOT EXISTS group_send_page_records (
                send_id TEXT NOT NULL,
                first_id TEXT NOT NULL,
                last_id TEXT NOT NULL,
                sent_at {REAL} NOT NULL,
                recorded_at {REAL} NOT NULL,
                accepted {INT} NOT NULL,
                members TEXT NOT NULL,
                PRIMARY KEY (send_id, first_id)
            )
            """,
            "CREATE INDEX IF NOT EXISTS group_send_page_records_recorded ON group_send_page_records (recorded_at)",
        ],
        // 11 (8-hour renewal, issue 24): the renewal plan of each opted-in activity (when to start its
        // successor by push-to-start, with which attributes and alert), how far it got, and the links of
        // the chain (`renews`, `renewed_by`). IF NOT EXISTS, as for 10.
        [
            """
            CREATE TABLE IF NOT EXISTS activity_renewals (
                activity_id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                attributes_type TEXT NOT NULL,
                renew_before {REAL} NOT NULL,
                attributes_json TEXT NOT NULL,
                alert_json TEXT NOT NULL,
                renews TEXT,
                renew_at {REAL} NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('waiting', 'starting', 'renewed', 'failed')),
                reason TEXT,
                start_token_ids TEXT NOT NULL,
                started_at {REAL},
                renewed_by TEXT,
                finished_at {REAL}
            )
            """,
            "CREATE INDEX IF NOT EXISTS activity_renewals_due ON activity_renewals (state, renew_at)",
            "CREATE INDEX IF NOT EXISTS activity_renewals_renewed_by ON activity_renewals (renewed_by)",
        ],
        // 12 (content-state shapes, issue 33): each app's ContentState shape per attributes type (a JSON
        // Schema subset, `revision` for compare-and-set merges), the sends refused for not matching it,
        // counted by field and rule (one row each: bounded whatever a backend sends), and the refusals of
        // each activity for its history (the newest few kept). IF NOT EXISTS, as for 10.
        [
            """
            CREATE TABLE IF NOT EXISTS content_state_shapes (
                bundle_id TEXT NOT NULL,
                attributes_type TEXT NOT NULL,
                shape_json TEXT NOT NULL,
                source TEXT NOT NULL CHECK (source IN ('backend', 'app')),
                revision {INT} NOT NULL,
                updated_at {REAL} NOT NULL,
                PRIMARY KEY (bundle_id, attributes_type)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS content_state_refusal_counts (
                bundle_id TEXT NOT NULL,
                attributes_type TEXT NOT NULL,
                field TEXT NOT NULL,
                rule TEXT NOT NULL,
                refusals {INT} NOT NULL,
                last_target TEXT NOT NULL,
                last_message TEXT NOT NULL,
                last_at {REAL} NOT NULL,
                PRIMARY KEY (bundle_id, attributes_type, field, rule)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS activity_refusals (
                refusal_id TEXT PRIMARY KEY,
                activity_id TEXT NOT NULL,
                field TEXT NOT NULL,
                rule TEXT NOT NULL,
                message TEXT NOT NULL,
                refused_at {REAL} NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS activity_refusals_activity ON activity_refusals (activity_id, refused_at)",
        ],
        // Live Activities as resources (issue 34): one row per user and backend key (what the backend wants
        // shown, the activity that runs for it and the ones it had, a version for compare-and-set writes),
        // and each resource's history (its newest steps, numbered by the version that wrote them).
        // IF NOT EXISTS, as for 10.
        [
            """
            CREATE TABLE IF NOT EXISTS live_activity_resources (
                user_id TEXT NOT NULL,
                resource_key TEXT NOT NULL,
                attributes_type TEXT NOT NULL,
                attributes_json TEXT NOT NULL,
                wanted_json TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('starting', 'active', 'ending', 'ended', 'refused')),
                activity_id TEXT,
                activity_ids TEXT NOT NULL,
                pending {INT} NOT NULL,
                reason TEXT,
                renew_before {REAL},
                start_token_ids TEXT NOT NULL,
                started_at {REAL},
                final_content_state TEXT,
                dismissal_date {REAL},
                version {INT} NOT NULL,
                created_at {REAL} NOT NULL,
                updated_at {REAL} NOT NULL,
                PRIMARY KEY (user_id, resource_key)
            )
            """,
            "CREATE INDEX IF NOT EXISTS live_activity_resources_waiting ON live_activity_resources (user_id, attributes_type, state)",
            """
            CREATE TABLE IF NOT EXISTS live_activity_resource_events (
                user_id TEXT NOT NULL,
                resource_key TEXT NOT NULL,
                version {INT} NOT NULL,
                outcome TEXT NOT NULL,
                at {REAL} NOT NULL,
                reason TEXT,
                activity_id TEXT,
                content_state TEXT,
                PRIMARY KEY (user_id, resource_key, version)
            )
            """,
        ],
        // Audience starts (issue 34): one record per accepted start for many users, with its listed users,
        // sent in pages of users like a group send (its pages out with a worker, and its counts: sent,
        // failed and retrying in group_send_tallies, which outbox retries add to; targets and skips by
        // reason in audience_start_tallies).
        // IF NOT EXISTS: a test that winds a database back to an earlier version runs this again.
        [
            """
            CREATE TABLE IF NOT EXISTS audience_starts (
                send_id TEXT PRIMARY KEY,
                attributes_type TEXT NOT NULL,
                everyone {INT} NOT NULL,
                user_count {INT} NOT NULL,
                bundle_id TEXT,
                channel_id TEXT,
                payload {BLOB} NOT NULL,
                timestamp {REAL} NOT NULL,
                requested_priority {INT} NOT NULL,
                importance TEXT NOT NULL,
                collapse_key TEXT,
                expiration {REAL},
                accepted_at {REAL} NOT NULL,
                created_by TEXT NOT NULL,
                next_member TEXT NOT NULL,
                expanded {INT} NOT NULL,
                expanded_at {REAL}
            )
            """,
            "CREATE INDEX IF NOT EXISTS audience_starts_open ON audience_starts (expanded, accepted_at, send_id)",
            """
            CREATE TABLE IF NOT EXISTS audience_start_users (
                send_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                PRIMARY KEY (send_id, user_id)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS audience_start_pages (
                send_id TEXT NOT NULL,
                first_id TEXT NOT NULL,
                last_id TEXT NOT NULL,
                claim_owner TEXT NOT NULL,
                claim_until {REAL} NOT NULL,
                PRIMARY KEY (send_id, first_id)
            )
            """,
            "CREATE INDEX IF NOT EXISTS audience_start_pages_until ON audience_start_pages (claim_until)",
            "CREATE INDEX IF NOT EXISTS audience_start_pages_owner ON audience_start_pages (claim_owner)",
            """
            CREATE TABLE IF NOT EXISTS audience_start_tallies (
                send_id TEXT NOT NULL,
                recorded_at {REAL} NOT NULL,
                targeted {INT} NOT NULL,
                no_token {INT} NOT NULL,
                budget {INT} NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS audience_start_tallies_send ON audience_start_tallies (send_id)",
            "CREATE INDEX IF NOT EXISTS push_to_start_tokens_type_user ON push_to_start_tokens (attributes_type, user_id)",
        ],
        // The push-to-start budget's reservations (issue 34): each start the budget let through, recorded
        // in the transaction that decided it, so that two senders to one device (audience pages, renewals,
        // resources, other instances) take turns instead of both finding room. The budget counts them with
        // the token's queued and sent starts, each push id once. IF NOT EXISTS, as for 10.
        [
            """
            CREATE TABLE IF NOT EXISTS push_to_start_reservations (
                push_id TEXT PRIMARY KEY,
                token_id TEXT NOT NULL,
                reserved_at {REAL} NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS push_to_start_reservations_token ON push_to_start_reservations (token_id, reserved_at)",
        ],
        // The console's list of audience starts, newest first (`sendPage`), as group sends have (8).
        ["CREATE INDEX IF NOT EXISTS audience_starts_accepted ON audience_starts (accepted_at, send_id)"],
    ]

    /// The migrations with the column types of one database.
    static func migrations(integer: String, real: String, blob: String) -> [[String]] {
        versions.map { statements in
            statements.map {
                $0.replacingOccurrences(of: "{INT}", with: integer)
                    .replacingOccurrences(of: "{REAL}", with: real)
                    .replacingOccurrences(of: "{BLOB}", with: blob)
            }
        }
    }
}
