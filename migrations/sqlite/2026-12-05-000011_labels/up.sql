-- Pacticipant labels (issue 24, as the Pact Broker has them): free names put on a
-- pacticipant (PUT /pacticipants/{p}/labels/{label}); webhooks select pacticipants by
-- label, and ${pactbroker.consumerLabels} / ${pactbroker.providerLabels} render them.
CREATE TABLE labels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pacticipant_id BIGINT NOT NULL REFERENCES pacticipants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (pacticipant_id, name)
);
CREATE INDEX labels_name ON labels (name);
