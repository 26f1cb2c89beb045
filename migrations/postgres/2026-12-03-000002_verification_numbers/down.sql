DROP INDEX verifications_content_number;
ALTER TABLE verifications DROP COLUMN number;
ALTER TABLE pact_contents DROP COLUMN last_verification_number;
