-- An environment may be marked for an admission stage ('canary' or 'active'; NULL: none):
-- recording a deployment of a provider version into it moves the version's admission
-- REGISTRY_ADMITTED -> CANARY (canary), REGISTRY_ADMITTED or CANARY -> ACTIVE (active).
ALTER TABLE environments ADD COLUMN admission_stage TEXT;

-- A deployment into a stage environment that did not move the version's admission (the
-- version was not admitted, or was off the ladder): the deployment is still recorded, and
-- this row says so in the version's admission history. `deployed_version_id` is the
-- deployment record; the environment's name and stage are copied as they were.
CREATE TABLE admission_holds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    deployed_version_id BIGINT NOT NULL REFERENCES deployed_versions(id) ON DELETE CASCADE,
    environment_name TEXT NOT NULL,
    stage TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admission_holds_version ON admission_holds (version_id, id);
