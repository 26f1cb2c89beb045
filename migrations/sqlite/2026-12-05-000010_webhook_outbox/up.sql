-- The webhook outbox (issue 24): a change writes ONE row per event it causes, in its own
-- transaction, whatever the number of webhooks; the worker fans each row out into
-- triggered_webhooks (one per matching, enabled webhook, matched then) in one transaction
-- that also sets consumed_at. context is the JSON of the template parameters at the time
-- of the event. matching: 'pair' (a webhook's consumer and provider selectors against
-- consumer_id and provider_id) or 'pacticipant' (a webhook with no selector, or one
-- selecting consumer_id: deployments, releases, Accord's own events).
CREATE TABLE webhook_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_name TEXT NOT NULL,
    context TEXT NOT NULL,
    matching TEXT NOT NULL,
    consumer_id BIGINT REFERENCES pacticipants(id) ON DELETE CASCADE,
    provider_id BIGINT REFERENCES pacticipants(id) ON DELETE CASCADE,
    pact_publication_id BIGINT REFERENCES pact_publications(id) ON DELETE SET NULL,
    verification_id BIGINT REFERENCES verifications(id) ON DELETE SET NULL,
    version_id BIGINT REFERENCES versions(id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    consumed_at TIMESTAMP
);
CREATE INDEX webhook_events_unconsumed ON webhook_events (consumed_at, id);
