-- What a provider version declares (issue 25): its Agent Card and one MCP tools/list per
-- profile. Content is stored once per RFC 8785 digest (sha256: + hex, the digest a
-- verification records); a version's declaration is the newest row for its (kind, profile),
-- older rows are its history (a re-declaration with another digest adds a row).
CREATE TABLE declaration_contents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    digest TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    entries BIGINT NOT NULL,
    content TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE version_declarations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id BIGINT NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    profile TEXT NOT NULL,
    content_id BIGINT NOT NULL REFERENCES declaration_contents(id),
    declared_at TIMESTAMP NOT NULL
);
CREATE INDEX version_declarations_latest ON version_declarations (version_id, kind, profile, id);
