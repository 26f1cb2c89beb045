-- A drift report's canary_stop action marks the live deployment of the version in that
-- environment stopped: the id of the report that stopped it. Recording the deployment again
-- clears it. No foreign key: a report goes only with its version or environment, and so does
-- the deployment row.
ALTER TABLE deployed_versions ADD COLUMN canary_stopped_by BIGINT;
