-- The static cross-check of a provider version's declarations (issue 25): a failed check is
-- stored as a verification of the consumer's content with `kind` 'static' (NULL: a result a
-- verifier published, by replay) and the reason codes it found, comma-separated, for the
-- matrix and can-i-deploy to say why without reading the findings.
ALTER TABLE verifications ADD COLUMN kind TEXT;
ALTER TABLE verifications ADD COLUMN reason_codes TEXT;
