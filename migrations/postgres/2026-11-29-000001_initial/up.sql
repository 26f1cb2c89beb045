-- Accord broker schema (PostgreSQL). Keep in step with ../../sqlite/<same folder>/up.sql:
-- same tables, columns, constraints and indexes; only the id and JSON-free types differ.

CREATE TABLE pacticipants (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    display_name TEXT,
    repository_url TEXT,
    repository_name TEXT,
    repository_namespace TEXT,
    main_branch TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- A version's id is its order: "latest" means most recently created (Pact's order_versions_by_date).
CREATE TABLE versions (
    id BIGSERIAL PRIMARY KEY,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    number TEXT NOT NULL,
    build_url TEXT,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (pacticipant_id, number)
);
CREATE INDEX versions_pacticipant_latest ON versions (pacticipant_id, id);

CREATE TABLE branches (
    id BIGSERIAL PRIMARY KEY,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (pacticipant_id, name)
);

-- The head of a branch is its row with the highest version_id.
CREATE TABLE branch_versions (
    id BIGSERIAL PRIMARY KEY,
    branch_id BIGINT NOT NULL REFERENCES branches(id) ON DELETE CASCADE,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (branch_id, version_id)
);
CREATE INDEX branch_versions_by_version ON branch_versions (version_id, branch_id);

CREATE TABLE tags (
    id BIGSERIAL PRIMARY KEY,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (version_id, name)
);
CREATE INDEX tags_latest_by_name ON tags (pacticipant_id, name, version_id);

CREATE TABLE environments (
    id BIGSERIAL PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE,
    display_name TEXT,
    production BOOLEAN NOT NULL,
    contacts TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE deployed_versions (
    id BIGSERIAL PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    environment_id BIGINT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    -- '' is the slot of "no application instance" (Pact's target_for_index).
    application_instance TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    undeployed_at TIMESTAMP
);
-- One live deployment per (pacticipant, environment, application instance), across replicas.
CREATE UNIQUE INDEX deployed_versions_live_slot
    ON deployed_versions (pacticipant_id, environment_id, application_instance)
    WHERE undeployed_at IS NULL;
CREATE INDEX deployed_versions_by_environment ON deployed_versions (environment_id, pacticipant_id);
CREATE INDEX deployed_versions_by_version ON deployed_versions (version_id);

CREATE TABLE released_versions (
    id BIGSERIAL PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    environment_id BIGINT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    support_ended_at TIMESTAMP,
    UNIQUE (version_id, environment_id)
);
CREATE INDEX released_versions_by_environment ON released_versions (environment_id, pacticipant_id);

-- Contract content, stored once per digest (sha256 of the canonical JSON of what verification reads).
CREATE TABLE pact_contents (
    id BIGSERIAL PRIMARY KEY,
    sha TEXT NOT NULL UNIQUE,
    consumer_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    provider_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    interactions_count BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- One publication per (consumer version, provider); a merge replaces the content and bumps revision.
CREATE TABLE pact_publications (
    id BIGSERIAL PRIMARY KEY,
    consumer_version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    consumer_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    provider_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    pact_content_id BIGINT NOT NULL REFERENCES pact_contents(id),
    revision BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (consumer_version_id, provider_id)
);
CREATE INDEX pact_publications_pair_latest ON pact_publications (provider_id, consumer_id, consumer_version_id);
CREATE INDEX pact_publications_by_content ON pact_publications (pact_content_id);
CREATE INDEX pact_publications_by_provider_created ON pact_publications (provider_id, created_at);

-- A verification belongs to a content (not a consumer version) and a provider version.
CREATE TABLE verifications (
    id BIGSERIAL PRIMARY KEY,
    pact_content_id BIGINT NOT NULL REFERENCES pact_contents(id) ON DELETE CASCADE,
    provider_version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    consumer_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    provider_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    success BOOLEAN NOT NULL,
    build_url TEXT,
    -- Pact's testResults and verifiedBy, verbatim JSON text; Accord's layered findings as a JSON array.
    test_results TEXT,
    verified_by TEXT,
    findings TEXT NOT NULL,
    wip BOOLEAN NOT NULL,
    pending BOOLEAN NOT NULL,
    -- what the /metadata/{m} segment said was verified (JSON), if anything
    selectors TEXT,
    execution_date TIMESTAMP NOT NULL
);
-- latest verification per (content, provider version): matrix cvpv and can-i-deploy to an environment
CREATE INDEX verifications_content_provider_version ON verifications (pact_content_id, provider_version_id, id);
CREATE INDEX verifications_by_provider_version ON verifications (provider_version_id);
-- pending and WIP: "was this content ever verified successfully by this provider"
CREATE INDEX verifications_provider_success ON verifications (provider_id, pact_content_id, success);

CREATE TABLE tokens (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    -- sha256 hex of the secret; the secret itself is never stored
    secret_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);
