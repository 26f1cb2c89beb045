/* can-i-deploy to an environment in one statement, PostgreSQL's text
   (store::matrix_env, matrix::environment); binds: version number,
   pacticipant name, environment name. The same facts as matrix_env.sql
   (SQLite's text; keep the two in step), shaped for PostgreSQL's planner:
   it cannot know that the CTEs hold a few dozen rows (it estimated 16,600
   verifications for 20 at 1M), and with a join or `IN (cte)` it hashes
   whole tables (verifications, publications, versions). Every read of a
   big table here is a LATERAL subquery keyed by a few CTE rows: `LIMIT 1`
   or `OFFSET 0` keeps PostgreSQL from flattening it into a join, so each
   is one index probe per row in play, whatever the table's size. SQLite
   has no LATERAL, hence two texts. */
WITH RECURSIVE
/* the pacticipant, with the version if it exists */
sel AS (
  SELECT p.id AS pid, p.name AS pname, v.id AS vid, v.number AS vnum
  FROM pacticipants p
  LEFT JOIN versions v ON v.pacticipant_id = p.id AND v.number = ?
  WHERE p.name = ?
),
env AS (SELECT id FROM environments WHERE name = ?),
/* every consumer that ever published a pact with it: one index probe per
   consumer (the next consumer id after the last), not one row per
   publication (a provider has thousands) */
consumers(c) AS (
  SELECT (SELECT MIN(pp.consumer_id) FROM pact_publications pp
          WHERE pp.provider_id = (SELECT pid FROM sel))
  UNION ALL
  SELECT (SELECT MIN(pp.consumer_id) FROM pact_publications pp
          WHERE pp.provider_id = (SELECT pid FROM sel) AND pp.consumer_id > consumers.c)
  FROM consumers WHERE consumers.c IS NOT NULL
),
/* its integrations: the providers the version has pacts with (required),
   and those consumers */
pairs AS (
  SELECT pp.consumer_id AS c, pp.provider_id AS p, 1 AS req
  FROM pact_publications pp WHERE pp.consumer_version_id = (SELECT vid FROM sel)
  UNION ALL
  SELECT c, (SELECT pid FROM sel), 0 FROM consumers WHERE c IS NOT NULL
),
integ AS (SELECT c, p, MAX(req) AS req FROM pairs GROUP BY c, p),
others AS (
  SELECT c AS id FROM integ WHERE c NOT IN (SELECT pid FROM sel)
  UNION
  SELECT p FROM integ WHERE p NOT IN (SELECT pid FROM sel)
),
/* the versions of the others deployed in or released to the environment */
live AS (
  SELECT d.version_id AS id FROM deployed_versions d
  WHERE d.environment_id IN (SELECT id FROM env) AND d.undeployed_at IS NULL
    AND d.pacticipant_id IN (SELECT id FROM others)
  UNION
  SELECT r.version_id FROM released_versions r
  WHERE r.environment_id IN (SELECT id FROM env) AND r.support_ended_at IS NULL
    AND r.pacticipant_id IN (SELECT id FROM others)
),
/* every version in play: the one asked about and the live ones */
scope AS (
  SELECT vid AS id, pid AS pacticipant_id, vnum AS number FROM sel WHERE vid IS NOT NULL
  UNION ALL
  SELECT v.id, v.pacticipant_id, v.number FROM live
  CROSS JOIN LATERAL (SELECT v.id, v.pacticipant_id, v.number FROM versions v
                      WHERE v.id = live.id OFFSET 0) v
),
/* the publications of the consumer versions in play, of the integrations */
pubs AS (
  SELECT pp.consumer_version_id AS cv, pp.consumer_id, pp.provider_id,
         pp.pact_content_id AS content, pp.created_at
  FROM scope s
  CROSS JOIN LATERAL (SELECT pp.* FROM pact_publications pp
                      WHERE pp.consumer_version_id = s.id OFFSET 0) pp
  WHERE EXISTS (SELECT 1 FROM integ i WHERE i.c = pp.consumer_id AND i.p = pp.provider_id)
),
/* the latest verification of each (content, provider version in play):
   one index probe per pair, however many results a content has; a content
   is paired with the versions of the providers it is published to here
   (matrix_env.sql pairs it with every provider's: the extra pairs match no
   row), which keeps the planner's estimate of the pairs near the truth */
ver AS (
  SELECT vr.id, vr.pact_content_id, vr.provider_version_id, vr.success, vr.execution_date,
         vr.pact_view, vr.number, vr.kind, vr.reason_codes
  FROM (SELECT DISTINCT content, provider_id FROM pubs) c
  JOIN scope pv ON pv.pacticipant_id = c.provider_id
  CROSS JOIN LATERAL (SELECT vr.* FROM verifications vr
                      WHERE vr.pact_content_id = c.content AND vr.provider_version_id = pv.id
                      ORDER BY vr.id DESC LIMIT 1) vr
),
/* the versions the rows show, for their branches, tags and environments */
shown AS (SELECT cv AS id FROM pubs UNION SELECT provider_version_id FROM ver)
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
FROM shown s
CROSS JOIN LATERAL (SELECT bv.* FROM branch_versions bv WHERE bv.version_id = s.id OFFSET 0) bv
JOIN branches b ON b.id = bv.branch_id
UNION ALL
SELECT 'tag', t.version_id, t.id, NULL, NULL, t.name, NULL, NULL, NULL, NULL
FROM shown s
CROSS JOIN LATERAL (SELECT t.* FROM tags t WHERE t.version_id = s.id OFFSET 0) t
UNION ALL
SELECT 'env', d.version_id, NULL, NULL, NULL, e.name, NULL, TRUE, NULL, NULL
FROM shown s
CROSS JOIN LATERAL (SELECT d.* FROM deployed_versions d
                    WHERE d.version_id = s.id AND d.undeployed_at IS NULL OFFSET 0) d
JOIN environments e ON e.id = d.environment_id
UNION ALL
SELECT 'env', r.version_id, NULL, NULL, NULL, e.name, NULL, FALSE, NULL, NULL
FROM shown s
CROSS JOIN LATERAL (SELECT r.* FROM released_versions r
                    WHERE r.version_id = s.id AND r.support_ended_at IS NULL OFFSET 0) r
JOIN environments e ON e.id = r.environment_id
UNION ALL
SELECT 'sha', pc.id, NULL, NULL, NULL, pc.sha, NULL, NULL, NULL, NULL
FROM (SELECT DISTINCT content FROM pubs) c
CROSS JOIN LATERAL (SELECT pc.id, pc.sha FROM pact_contents pc WHERE pc.id = c.content OFFSET 0) pc
UNION ALL
/* the version's last admission transition (a quarantine refuses it) */
SELECT 'admission', t.version_id, t.id, NULL, NULL, t.to_state, t.reason, NULL, NULL, NULL
FROM admission_transitions t
WHERE t.id = (SELECT MAX(a.id) FROM admission_transitions a
              WHERE a.version_id IN (SELECT vid FROM sel))
