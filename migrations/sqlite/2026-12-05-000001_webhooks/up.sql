-- Webhooks (issue 24): definitions, the durable delivery queue, one log row per attempt.

-- A definition: who it matches (consumer/provider by name or label, NULL = any), the
-- event names (JSON array) and the request template (JSON: method, url, headers, body,
-- username, password; stored recoverable, redacted in every answer).
CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    description TEXT,
    consumer_name TEXT,
    consumer_label TEXT,
    provider_name TEXT,
    provider_label TEXT,
    events TEXT NOT NULL,
    request TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- The queue: one row per (event, webhook, fan-out target), written in the transaction of
-- the change. context is the JSON of the template parameters at the time of the event;
-- the request is rendered from it at each attempt. status: pending, delivering, success,
-- failure (attempts exhausted). lease_until: a worker owns a delivering row until then;
-- a row whose lease ran out (its broker died) is due again.
CREATE TABLE triggered_webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    webhook_id BIGINT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_name TEXT NOT NULL,
    context TEXT NOT NULL,
    consumer_id BIGINT REFERENCES pacticipants(id) ON DELETE CASCADE,
    provider_id BIGINT REFERENCES pacticipants(id) ON DELETE CASCADE,
    pact_publication_id BIGINT REFERENCES pact_publications(id) ON DELETE SET NULL,
    verification_id BIGINT REFERENCES verifications(id) ON DELETE SET NULL,
    version_id BIGINT REFERENCES versions(id) ON DELETE SET NULL,
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_until TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX triggered_webhooks_due ON triggered_webhooks (status, next_attempt_at);
CREATE INDEX triggered_webhooks_publication ON triggered_webhooks (pact_publication_id);
CREATE INDEX triggered_webhooks_verification ON triggered_webhooks (verification_id);
CREATE INDEX triggered_webhooks_webhook ON triggered_webhooks (webhook_id);

-- One row per attempt. request is the rendered request with credentials redacted.
CREATE TABLE webhook_executions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    triggered_webhook_id BIGINT NOT NULL REFERENCES triggered_webhooks(id) ON DELETE CASCADE,
    attempt BIGINT NOT NULL,
    started_at TIMESTAMP NOT NULL,
    duration_ms BIGINT NOT NULL,
    status BIGINT,
    success BOOLEAN NOT NULL,
    request TEXT NOT NULL,
    response_excerpt TEXT NOT NULL,
    error TEXT,
    refusal TEXT
);
CREATE INDEX webhook_executions_triggered ON webhook_executions (triggered_webhook_id, attempt);
