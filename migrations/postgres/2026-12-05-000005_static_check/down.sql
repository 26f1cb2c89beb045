ALTER TABLE verifications DROP COLUMN reason_codes;
ALTER TABLE verifications DROP COLUMN kind;
