-- Admission state per provider version, as the list of its transitions: the current state is
-- the `to_state` of the version's last transition (a version with none is DRAFT). Each row
-- says what caused it: `cause_kind` (driftReport, verification, token, broker) and `cause`
-- (the report or verification id, the token name).
CREATE TABLE admission_transitions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    from_state TEXT NOT NULL,
    to_state TEXT NOT NULL,
    cause_kind TEXT NOT NULL,
    cause TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admission_transitions_version ON admission_transitions (version_id, id);

-- Runtime drift reports from routers, gateways and sidecars: contract signals only (digests
-- and counts), never a payload. `tools_digests` is a JSON object profile → digest, `counts`
-- a JSON object signal → count, `observations` a JSON array of per-operation counts.
CREATE TABLE drift_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    environment_id BIGINT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    window_start TIMESTAMP NOT NULL,
    window_end TIMESTAMP NOT NULL,
    source TEXT,
    agent_card_digest TEXT,
    tools_digests TEXT NOT NULL,
    counts TEXT NOT NULL,
    observations TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL
);
CREATE INDEX drift_reports_version ON drift_reports (version_id, id);

-- What the broker did about a report: per signal, its count, the threshold of the rule that
-- applied and the action (warn, canary_stop, route_disable, incident_open, quarantine; warn
-- for a signal under its threshold). The ladder per version is read from these rows.
CREATE TABLE drift_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    report_id BIGINT NOT NULL REFERENCES drift_reports(id) ON DELETE CASCADE,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    environment_id BIGINT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    signal TEXT NOT NULL,
    action TEXT NOT NULL,
    observed BIGINT NOT NULL,
    threshold BIGINT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX drift_actions_version ON drift_actions (version_id, id);

-- A provider's drift policy (JSON: rules per signal, optionally per environment).
CREATE TABLE drift_policies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pacticipant_id BIGINT NOT NULL UNIQUE REFERENCES pacticipants(id) ON DELETE CASCADE,
    policy TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
