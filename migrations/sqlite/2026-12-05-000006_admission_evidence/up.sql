-- Evidence-driven admission (issue 25). What a verifier said about one replay result beyond
-- Pact's body: the producer artifact's digest it ran (`sha256:` and hex, NULL: not said), the
-- profiles it ran (JSON array, from the declarations it read), the harness version and when the
-- evidence expires (its execution date plus the TTL it asked for, 7 days by default).
CREATE TABLE verification_evidence (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    verification_id BIGINT NOT NULL UNIQUE REFERENCES verifications(id) ON DELETE CASCADE,
    producer_digest TEXT,
    profiles TEXT NOT NULL,
    harness_version TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);

-- The evidence record of a provider version at CONFORMANCE_VERIFIED or above: the digests
-- verified (card, tools per profile as a JSON object, the content shas of the live contracts
-- as a JSON array), the producer digest, profiles, harness version, the verification ids it
-- rests on, whether it is security evidence (and why not), when it was completed and when it
-- expires. `swept_at`: when the expiry sweep dropped the version back (NULL: not yet).
CREATE TABLE admission_evidence (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id BIGINT NOT NULL UNIQUE REFERENCES versions(id) ON DELETE CASCADE,
    card_digest TEXT,
    tools_digests TEXT NOT NULL,
    contract_digests TEXT NOT NULL,
    producer_digest TEXT,
    profiles TEXT NOT NULL,
    harness_version TEXT NOT NULL,
    verification_ids TEXT NOT NULL,
    security BOOLEAN NOT NULL,
    security_reason TEXT NOT NULL,
    verified_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    swept_at TIMESTAMP
);
CREATE INDEX admission_evidence_expiry ON admission_evidence (expires_at);
