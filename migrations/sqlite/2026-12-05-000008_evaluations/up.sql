-- Evaluation evidence (issue 25): a score a provider version reached on a named data set,
-- against a threshold. It is kept apart from contract evidence (verifications): the matrix,
-- can-i-deploy and admission never read this table. `higher_is_better` says which way the
-- threshold points; `passed` is computed from score, threshold and direction when stored.
CREATE TABLE evaluations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    dataset TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    threshold DOUBLE PRECISION NOT NULL,
    higher_is_better BOOLEAN NOT NULL,
    passed BOOLEAN NOT NULL,
    evaluator_name TEXT,
    evaluator_version TEXT,
    url TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX evaluations_version ON evaluations (version_id, id);
