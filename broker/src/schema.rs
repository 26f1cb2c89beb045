//! diesel's view of the tables in `migrations/`: written by hand, kept to
//! column types both backends share (ids BIGINT, text, boolean, timestamp).

diesel::table! {
    pacticipants (id) {
        id -> BigInt,
        name -> Text,
        display_name -> Nullable<Text>,
        repository_url -> Nullable<Text>,
        repository_name -> Nullable<Text>,
        repository_namespace -> Nullable<Text>,
        main_branch -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    versions (id) {
        id -> BigInt,
        pacticipant_id -> BigInt,
        number -> Text,
        build_url -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    branches (id) {
        id -> BigInt,
        pacticipant_id -> BigInt,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    branch_versions (id) {
        id -> BigInt,
        branch_id -> BigInt,
        version_id -> BigInt,
        pacticipant_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    tags (id) {
        id -> BigInt,
        version_id -> BigInt,
        pacticipant_id -> BigInt,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    environments (id) {
        id -> BigInt,
        uuid -> Text,
        name -> Text,
        display_name -> Nullable<Text>,
        production -> Bool,
        contacts -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        admission_stage -> Nullable<Text>,
    }
}

diesel::table! {
    deployed_versions (id) {
        id -> BigInt,
        uuid -> Text,
        version_id -> BigInt,
        pacticipant_id -> BigInt,
        environment_id -> BigInt,
        application_instance -> Text,
        created_at -> Timestamp,
        undeployed_at -> Nullable<Timestamp>,
        canary_stopped_by -> Nullable<BigInt>,
    }
}

diesel::table! {
    released_versions (id) {
        id -> BigInt,
        uuid -> Text,
        version_id -> BigInt,
        pacticipant_id -> BigInt,
        environment_id -> BigInt,
        created_at -> Timestamp,
        support_ended_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    pact_contents (id) {
        id -> BigInt,
        sha -> Text,
        consumer_id -> BigInt,
        provider_id -> BigInt,
        content -> Text,
        interactions_count -> BigInt,
        created_at -> Timestamp,
        /// The number the content's latest verification result was given.
        last_verification_number -> BigInt,
    }
}

diesel::table! {
    pact_publications (id) {
        id -> BigInt,
        consumer_version_id -> BigInt,
        consumer_id -> BigInt,
        provider_id -> BigInt,
        pact_content_id -> BigInt,
        revision -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    verifications (id) {
        id -> BigInt,
        pact_content_id -> BigInt,
        provider_version_id -> BigInt,
        consumer_id -> BigInt,
        provider_id -> BigInt,
        success -> Bool,
        build_url -> Nullable<Text>,
        test_results -> Nullable<Text>,
        verified_by -> Nullable<Text>,
        findings -> Text,
        wip -> Bool,
        pending -> Bool,
        selectors -> Nullable<Text>,
        execution_date -> Timestamp,
        pact_view -> Bool,
        /// 1 for the first result of its content, 2 for the next, …
        number -> BigInt,
        /// JSON array of what the provider declared during the run.
        declarations -> Nullable<Text>,
        /// `static` for the broker's static cross-check of declarations;
        /// NULL for a result a verifier published.
        kind -> Nullable<Text>,
        /// The reason codes of a static check, comma-separated.
        reason_codes -> Nullable<Text>,
    }
}

diesel::table! {
    tokens (id) {
        id -> BigInt,
        name -> Text,
        role -> Text,
        secret_hash -> Text,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// A provider version's admission transitions; the last one is its state.
    admission_transitions (id) {
        id -> BigInt,
        version_id -> BigInt,
        from_state -> Text,
        to_state -> Text,
        cause_kind -> Text,
        cause -> Text,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// A declaration's content, once per RFC 8785 digest.
    declaration_contents (id) {
        id -> BigInt,
        digest -> Text,
        kind -> Text,
        entries -> BigInt,
        content -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Runtime drift reports: digests and counts, never a payload.
    drift_reports (id) {
        id -> BigInt,
        version_id -> BigInt,
        environment_id -> BigInt,
        window_start -> Timestamp,
        window_end -> Timestamp,
        source -> Nullable<Text>,
        agent_card_digest -> Nullable<Text>,
        /// JSON object: profile → `sha256:` digest.
        tools_digests -> Text,
        /// JSON object: signal → count.
        counts -> Text,
        /// JSON array of per-operation counts.
        observations -> Text,
        received_at -> Timestamp,
    }
}

diesel::table! {
    /// What the broker did about a drift report, per signal.
    drift_actions (id) {
        id -> BigInt,
        report_id -> BigInt,
        version_id -> BigInt,
        environment_id -> BigInt,
        signal -> Text,
        action -> Text,
        observed -> BigInt,
        threshold -> BigInt,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// A provider's drift policy (JSON text).
    drift_policies (id) {
        id -> BigInt,
        pacticipant_id -> BigInt,
        policy -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// What a provider version declared; the newest row per (kind, profile) is current.
    version_declarations (id) {
        id -> BigInt,
        version_id -> BigInt,
        kind -> Text,
        profile -> Text,
        content_id -> BigInt,
        declared_at -> Timestamp,
    }
}

diesel::joinable!(versions -> pacticipants (pacticipant_id));
diesel::joinable!(branches -> pacticipants (pacticipant_id));
diesel::joinable!(branch_versions -> branches (branch_id));
diesel::joinable!(branch_versions -> versions (version_id));
diesel::joinable!(tags -> versions (version_id));
diesel::joinable!(deployed_versions -> versions (version_id));
diesel::joinable!(deployed_versions -> environments (environment_id));
diesel::joinable!(released_versions -> versions (version_id));
diesel::joinable!(released_versions -> environments (environment_id));
diesel::joinable!(pact_publications -> versions (consumer_version_id));
diesel::joinable!(pact_publications -> pact_contents (pact_content_id));
diesel::joinable!(verifications -> pact_contents (pact_content_id));
diesel::joinable!(verifications -> versions (provider_version_id));
diesel::joinable!(admission_transitions -> versions (version_id));
diesel::joinable!(drift_reports -> versions (version_id));
diesel::joinable!(drift_reports -> environments (environment_id));
diesel::joinable!(drift_actions -> drift_reports (report_id));
diesel::joinable!(drift_policies -> pacticipants (pacticipant_id));
diesel::joinable!(version_declarations -> versions (version_id));
diesel::joinable!(version_declarations -> declaration_contents (content_id));

diesel::allow_tables_to_appear_in_same_query!(
    pacticipants,
    versions,
    branches,
    branch_versions,
    tags,
    environments,
    deployed_versions,
    released_versions,
    pact_contents,
    pact_publications,
    verifications,
    tokens,
    admission_transitions,
    drift_reports,
    drift_actions,
    drift_policies,
    declaration_contents,
    version_declarations,
);

diesel::table! {
    /// Webhook definitions (events and request are JSON text).
    webhooks (id) {
        id -> BigInt,
        uuid -> Text,
        description -> Nullable<Text>,
        consumer_name -> Nullable<Text>,
        consumer_label -> Nullable<Text>,
        provider_name -> Nullable<Text>,
        provider_label -> Nullable<Text>,
        events -> Text,
        request -> Text,
        enabled -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// The durable delivery queue.
    triggered_webhooks (id) {
        id -> BigInt,
        uuid -> Text,
        webhook_id -> BigInt,
        event_name -> Text,
        context -> Text,
        consumer_id -> Nullable<BigInt>,
        provider_id -> Nullable<BigInt>,
        pact_publication_id -> Nullable<BigInt>,
        verification_id -> Nullable<BigInt>,
        version_id -> Nullable<BigInt>,
        status -> Text,
        attempts -> BigInt,
        next_attempt_at -> Timestamp,
        lease_until -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// One row per delivery attempt.
    webhook_executions (id) {
        id -> BigInt,
        triggered_webhook_id -> BigInt,
        attempt -> BigInt,
        started_at -> Timestamp,
        duration_ms -> BigInt,
        status -> Nullable<BigInt>,
        success -> Bool,
        request -> Text,
        response_excerpt -> Text,
        error -> Nullable<Text>,
        refusal -> Nullable<Text>,
    }
}

diesel::joinable!(triggered_webhooks -> webhooks (webhook_id));
diesel::joinable!(webhook_executions -> triggered_webhooks (triggered_webhook_id));
diesel::allow_tables_to_appear_in_same_query!(webhooks, triggered_webhooks, webhook_executions);
// publishing's first read asks whether a webhook may select the pair
diesel::allow_tables_to_appear_in_same_query!(webhooks, pacticipants);
diesel::allow_tables_to_appear_in_same_query!(webhooks, versions);

diesel::table! {
    /// A deployment into a stage environment that did not move the version's admission.
    admission_holds (id) {
        id -> BigInt,
        version_id -> BigInt,
        deployed_version_id -> BigInt,
        environment_name -> Text,
        stage -> Text,
        state -> Text,
        reason -> Text,
        created_at -> Timestamp,
    }
}

diesel::joinable!(admission_holds -> versions (version_id));
diesel::joinable!(admission_holds -> deployed_versions (deployed_version_id));
diesel::allow_tables_to_appear_in_same_query!(admission_holds, versions);
diesel::allow_tables_to_appear_in_same_query!(admission_holds, deployed_versions);

diesel::table! {
    /// What a verifier said about a replay result's evidence (issue 25).
    verification_evidence (id) {
        id -> BigInt,
        verification_id -> BigInt,
        producer_digest -> Nullable<Text>,
        profiles -> Text,
        harness_version -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    /// A provider version's admission evidence record (issue 25).
    admission_evidence (id) {
        id -> BigInt,
        version_id -> BigInt,
        card_digest -> Nullable<Text>,
        tools_digests -> Text,
        contract_digests -> Text,
        producer_digest -> Nullable<Text>,
        profiles -> Text,
        harness_version -> Text,
        verification_ids -> Text,
        security -> Bool,
        security_reason -> Text,
        verified_at -> Timestamp,
        expires_at -> Timestamp,
        swept_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(verification_evidence -> verifications (verification_id));
diesel::joinable!(admission_evidence -> versions (version_id));
diesel::allow_tables_to_appear_in_same_query!(verification_evidence, verifications);
diesel::allow_tables_to_appear_in_same_query!(admission_evidence, versions);

diesel::table! {
    /// The webhook outbox: one row per event of a change, fanned out by the worker.
    webhook_events (id) {
        id -> BigInt,
        event_name -> Text,
        context -> Text,
        matching -> Text,
        consumer_id -> Nullable<BigInt>,
        provider_id -> Nullable<BigInt>,
        pact_publication_id -> Nullable<BigInt>,
        verification_id -> Nullable<BigInt>,
        version_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        consumed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// Pacticipant labels (webhooks select pacticipants by label).
    labels (id) {
        id -> BigInt,
        pacticipant_id -> BigInt,
        name -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(labels -> pacticipants (pacticipant_id));
diesel::allow_tables_to_appear_in_same_query!(labels, pacticipants);

diesel::table! {
    /// Evaluation evidence of a provider version: a score on a data set
    /// against a threshold, kept apart from verifications (contract evidence).
    evaluations (id) {
        id -> BigInt,
        version_id -> BigInt,
        dataset -> Text,
        score -> Double,
        threshold -> Double,
        /// The threshold is a floor (true) or a ceiling (false).
        higher_is_better -> Bool,
        /// Computed from score, threshold and direction when stored.
        passed -> Bool,
        evaluator_name -> Nullable<Text>,
        evaluator_version -> Nullable<Text>,
        url -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(evaluations -> versions (version_id));
diesel::allow_tables_to_appear_in_same_query!(evaluations, versions);
