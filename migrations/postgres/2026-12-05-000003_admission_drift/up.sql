-- Admission state per provider version, as the list of its transitions: the current state is
-- the `to_state` of the version's last transition (a version with none is DRAFT). Each row
-- says what caused it: `cause_kind` (driftReport, verification, token, broker) and `cause`
-- (the report or verification id, the token name).
CREATE TABLE admission_transitions (
    id BIGSERIAL PRIMARY KEY,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    from_state TEXT NOT NULL,
    to_state TEXT NOT NULL,
    cause_kind TEXT NOT NULL,
    cause TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admission_transitions_version ON admission_transitions (version_id, id);
