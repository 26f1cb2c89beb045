-- Verification results are numbered per content, as the URLs read
-- (`…/pact-version/{sha}/verification-results/1` is the first result of that pact).
-- The number is stored, so a link keeps naming the same result after others were
-- deleted (deleting a provider version deletes its results), and the content keeps
-- the last number it gave, so no number is given twice.
ALTER TABLE pact_contents ADD COLUMN last_verification_number BIGINT NOT NULL DEFAULT 0;
ALTER TABLE verifications ADD COLUMN number BIGINT NOT NULL DEFAULT 0;
UPDATE verifications SET number = ranked.n
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY pact_content_id ORDER BY id) AS n FROM verifications) AS ranked
WHERE ranked.id = verifications.id;
UPDATE pact_contents SET last_verification_number = counted.n
FROM (SELECT pact_content_id, COUNT(*) AS n FROM verifications GROUP BY pact_content_id) AS counted
WHERE counted.pact_content_id = pact_contents.id;
CREATE UNIQUE INDEX verifications_content_number ON verifications (pact_content_id, number);
