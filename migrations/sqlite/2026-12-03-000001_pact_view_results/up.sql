-- A verification published through the Pact view of a contract with Accord-only parts
-- (A2A/MCP interactions, agentCard, mcpTools, Accord expectations): it covers only that view,
-- so it never counts as a verification of the whole contract (matrix, can-i-deploy, pending).
ALTER TABLE verifications ADD COLUMN pact_view BOOLEAN NOT NULL DEFAULT FALSE;
