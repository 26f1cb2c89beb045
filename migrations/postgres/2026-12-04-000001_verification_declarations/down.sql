ALTER TABLE verifications DROP COLUMN declarations;
