ALTER TABLE verifications DROP COLUMN pact_view;
