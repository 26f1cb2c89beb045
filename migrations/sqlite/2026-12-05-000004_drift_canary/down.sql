ALTER TABLE deployed_versions DROP COLUMN canary_stopped_by;
