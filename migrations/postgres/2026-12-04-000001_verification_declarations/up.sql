-- What the provider declared during the run (Agent Card, MCP tools/list): kind, who it was
-- read as, protocol version, canonical digest, entries, ETag, what was used. JSON text as
-- received (validated on publish); NULL for a result that sent none (Pact clients).
ALTER TABLE verifications ADD COLUMN declarations TEXT;
