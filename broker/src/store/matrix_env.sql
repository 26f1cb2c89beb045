/* can-i-deploy to an environment in one statement (store::matrix_env, matrix::environment);
   binds: version number, pacticipant name, environment name. Every named
   sub-query is MATERIALIZED: SQLite 3.53 otherwise inlines a CTE at each
   place it is named (scope, pubs and live several times over: 3-8x the
   work); the consumers of a provider are a loose index scan. A one-row
   CTE (sel, env) is compared with `=`/`IS NOT` and a many-row one (scope,
   contents) is joined, not `IN (SELECT …)`: SQLite builds a temporary
   index for each `IN` list at every run (scope and contents hold
   distinct ids, so the joins add no row). SQLite 3.54 refuses a
   statement that expands to more than 1000 SELECTs, counting every CTE
   reference along every path (tests/it/next_sqlite.rs): hence `others`
   reads `integ` once, and the branches, tags and environments are those
   of every version in play (scope), not of the rows shown only. */
WITH RECURSIVE
/* the pacticipant, with the version if it exists */
sel AS MATERIALIZED (
  SELECT p.id AS pid, p.name AS pname, v.id AS vid, v.number AS vnum
  FROM pacticipants p
  LEFT JOIN versions v ON v.pacticipant_id = p.id AND v.number = ?
  WHERE p.name = ?
),
env AS MATERIALIZED (SELECT id FROM environments WHERE name = ?),
/* every consumer that ever published a pact with it: one index seek per
   consumer (the next consumer id after the last), not one step per
   publication (a provider has thousands) */
consumers(c) AS (
  SELECT (SELECT MIN(pp.consumer_id) FROM pact_publications pp WHERE pp.provider_id = sel.pid)
  FROM sel
  UNION ALL
  SELECT (SELECT MIN(pp.consumer_id) FROM pact_publications pp
          WHERE pp.provider_id = (SELECT pid FROM sel) AND pp.consumer_id > consumers.c)
  FROM consumers WHERE consumers.c IS NOT NULL
),
/* its integrations: the providers the version has pacts with (required),
   and those consumers */
pairs AS MATERIALIZED (
  SELECT pp.consumer_id AS c, pp.provider_id AS p, 1 AS req
  FROM pact_publications pp WHERE pp.consumer_version_id = (SELECT vid FROM sel)
  UNION ALL
  SELECT c, (SELECT pid FROM sel), 0 FROM consumers WHERE c IS NOT NULL
),
integ AS MATERIALIZED (SELECT c, p, MAX(req) AS req FROM pairs GROUP BY c, p),
/* each integration has the pacticipant on one side: the other side */
others AS MATERIALIZED (
  SELECT DISTINCT CASE WHEN c IS NOT sel.pid THEN c ELSE p END AS id
  FROM integ CROSS JOIN sel WHERE c IS NOT sel.pid OR p IS NOT sel.pid
),
/* the versions of the others deployed in or released to the environment */
live AS MATERIALIZED (
  SELECT d.version_id AS id FROM deployed_versions d
  WHERE d.environment_id = (SELECT id FROM env) AND d.undeployed_at IS NULL
    AND d.pacticipant_id IN (SELECT id FROM others)
  UNION
  SELECT r.version_id FROM released_versions r
  WHERE r.environment_id = (SELECT id FROM env) AND r.support_ended_at IS NULL
    AND r.pacticipant_id IN (SELECT id FROM others)
),
/* every version in play: the one asked about and the live ones */
scope AS MATERIALIZED (
  SELECT vid AS id, pid AS pacticipant_id, vnum AS number FROM sel WHERE vid IS NOT NULL
  UNION ALL
  SELECT v.id, v.pacticipant_id, v.number FROM live JOIN versions v ON v.id = live.id
),
/* the publications of the consumer versions in play, of the integrations */
pubs AS MATERIALIZED (
  SELECT pp.consumer_version_id AS cv, pp.consumer_id, pp.provider_id,
         pp.pact_content_id AS content, pp.created_at
  FROM scope s CROSS JOIN pact_publications pp
  WHERE pp.consumer_version_id = s.id
    AND EXISTS (SELECT 1 FROM integ i WHERE i.c = pp.consumer_id AND i.p = pp.provider_id)
),
contents AS MATERIALIZED (SELECT DISTINCT content FROM pubs),
/* the provider versions in play (read once, not once per content) */
provided AS MATERIALIZED (
  SELECT id FROM scope WHERE pacticipant_id IN (SELECT provider_id FROM pubs)
),
/* the latest verification of each (content, provider version in play):
   one index probe per pair, however many results a content has */
latest AS MATERIALIZED (
  SELECT (SELECT MAX(vr.id) FROM verifications vr
          WHERE vr.pact_content_id = c.content AND vr.provider_version_id = pv.id) AS id
  FROM contents c CROSS JOIN provided pv
),
ver AS MATERIALIZED (
  SELECT vr.id, vr.pact_content_id, vr.provider_version_id, vr.success, vr.execution_date,
         vr.pact_view, vr.number, vr.kind, vr.reason_codes
  FROM verifications vr WHERE vr.id IN (SELECT id FROM latest)
)
SELECT 'sel' AS kind, pid AS a, vid AS b, (SELECT id FROM env) AS c, CAST(NULL AS BIGINT) AS d,
       pname AS s1, vnum AS s2, CAST(NULL AS BOOLEAN) AS f1, CAST(NULL AS BOOLEAN) AS f2,
       CAST(NULL AS TIMESTAMP) AS ts
FROM sel
UNION ALL
SELECT 'integ', c, p, NULL, NULL, NULL, NULL, req = 1, NULL, NULL FROM integ
UNION ALL
SELECT 'other', o.id, NULL, NULL, NULL, pa.name, NULL, NULL, NULL, NULL
FROM others o JOIN pacticipants pa ON pa.id = o.id
UNION ALL
SELECT 'scope', id, pacticipant_id, NULL, NULL, number, NULL, NULL, NULL, NULL FROM scope
UNION ALL
SELECT 'pub', cv, consumer_id, provider_id, content, NULL, NULL, NULL, NULL, created_at FROM pubs
UNION ALL
SELECT 'ver', id, pact_content_id, provider_version_id, number, kind, reason_codes, success,
       pact_view, execution_date
FROM ver
UNION ALL
SELECT 'branch', bv.version_id, bv.id, NULL, NULL, b.name, NULL, NULL, NULL, NULL
FROM scope s CROSS JOIN branch_versions bv JOIN branches b ON b.id = bv.branch_id
WHERE bv.version_id = s.id
UNION ALL
SELECT 'tag', t.version_id, t.id, NULL, NULL, t.name, NULL, NULL, NULL, NULL
FROM scope s CROSS JOIN tags t WHERE t.version_id = s.id
UNION ALL
SELECT 'env', d.version_id, NULL, NULL, NULL, e.name, NULL, TRUE, NULL, NULL
FROM scope s CROSS JOIN deployed_versions d JOIN environments e ON e.id = d.environment_id
WHERE d.version_id = s.id AND d.undeployed_at IS NULL
UNION ALL
SELECT 'env', r.version_id, NULL, NULL, NULL, e.name, NULL, FALSE, NULL, NULL
FROM scope s CROSS JOIN released_versions r JOIN environments e ON e.id = r.environment_id
WHERE r.version_id = s.id AND r.support_ended_at IS NULL
UNION ALL
SELECT 'sha', pc.id, NULL, NULL, NULL, pc.sha, NULL, NULL, NULL, NULL
FROM contents c CROSS JOIN pact_contents pc WHERE pc.id = c.content
UNION ALL
/* the version's last admission transition (a quarantine refuses it) */
SELECT 'admission', t.version_id, t.id, NULL, NULL, t.to_state, t.reason, NULL, NULL, NULL
FROM admission_transitions t
WHERE t.id = (SELECT MAX(a.id) FROM admission_transitions a
              WHERE a.version_id = (SELECT vid FROM sel))
