/* a new consumer version's first publication in one statement, PostgreSQL only (store::pacts::first); each bind is written as its name, the same value bound again where it is named again. Nothing is written unless the publish needs nothing else: both pacticipants exist, the content is stored or given, the branch exists (when named), the consumer has a main branch (when a candidate is named), no enabled webhook may select the pair, and the version is new; otherwise the rows say what publishing reads first (versions::find_with_pacticipant), whether the content is stored and whether all else holds (then the caller sends the content's text), and the caller goes on statement by statement. Content stored meanwhile by another transaction is a unique violation: the whole statement is undone. */
WITH c AS (SELECT pa.* FROM pacticipants pa WHERE pa.name = $consumer),
p AS (SELECT pa.* FROM pacticipants pa WHERE pa.name = $provider),
pc AS (SELECT co.id FROM pact_contents co WHERE co.sha = $sha),
/* as webhooks::store::event_lists_for_pair */
hooked AS (
  SELECT EXISTS (
    SELECT 1 FROM webhooks w
    WHERE w.enabled
      AND (w.consumer_name IS NULL OR w.consumer_name = $consumer)
      AND (w.provider_name IS NULL OR w.provider_name = $provider)
  ) AS h
),
/* the consumer, when everything but the content allows the one statement */
ready AS (
  SELECT c.id FROM c
  WHERE (c.main_branch IS NOT NULL OR NOT $candidate)
    AND EXISTS (SELECT 1 FROM p)
    AND (CAST($branch AS TEXT) IS NULL OR EXISTS (
      SELECT 1 FROM branches br WHERE br.pacticipant_id = c.id AND br.name = $branch
    ))
    AND NOT EXISTS (SELECT 1 FROM versions ve WHERE ve.pacticipant_id = c.id AND ve.number = $number)
    AND NOT (SELECT h FROM hooked)
),
v AS (
  INSERT INTO versions (pacticipant_id, number, build_url, created_at)
  SELECT ready.id, $number, $build_url, $at FROM ready
  WHERE CAST($content AS TEXT) IS NOT NULL OR EXISTS (SELECT 1 FROM pc)
  ON CONFLICT (pacticipant_id, number) DO NOTHING
  RETURNING versions.*
),
bv AS (
  INSERT INTO branch_versions (branch_id, version_id, pacticipant_id, created_at)
  SELECT br.id, v.id, v.pacticipant_id, $at
  FROM v JOIN branches br ON br.pacticipant_id = v.pacticipant_id AND br.name = $branch
),
/* the content, when it is not stored yet */
added AS (
  INSERT INTO pact_contents (sha, consumer_id, provider_id, content, interactions_count, created_at)
  SELECT $sha, v.pacticipant_id, p.id, $content, $interactions, $at FROM v, p
  WHERE NOT EXISTS (SELECT 1 FROM pc)
  RETURNING pact_contents.id
),
pub AS (
  INSERT INTO pact_publications
    (consumer_version_id, consumer_id, provider_id, pact_content_id, revision, created_at, updated_at)
  SELECT v.id, v.pacticipant_id, p.id, COALESCE((SELECT id FROM pc), (SELECT id FROM added)), 1, $at, $at
  FROM v, p
  RETURNING pact_publications.*
)
/* published: the consumer, the version, the provider, the publication */
SELECT c.id, c.name, c.display_name, c.repository_url, c.repository_name, c.repository_namespace,
       c.main_branch, c.created_at, c.updated_at,
       v.id, v.pacticipant_id, v.number, v.build_url, v.created_at,
       p.id, p.name, p.display_name, p.repository_url, p.repository_name, p.repository_namespace,
       p.main_branch, p.created_at, p.updated_at,
       pub.id, pub.consumer_version_id, pub.consumer_id, pub.provider_id, pub.pact_content_id,
       pub.revision, pub.created_at, pub.updated_at,
       (SELECT h FROM hooked), TRUE, TRUE
FROM pub, v, c, p
UNION ALL
/* not published: each pacticipant, the consumer with the version if it has it, whether the content is stored, whether all else allows the one statement */
SELECT x.id, x.name, x.display_name, x.repository_url, x.repository_name, x.repository_namespace,
       x.main_branch, x.created_at, x.updated_at,
       y.id, y.pacticipant_id, y.number, y.build_url, y.created_at,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       (SELECT h FROM hooked), EXISTS (SELECT 1 FROM pc), EXISTS (SELECT 1 FROM ready)
FROM pacticipants x
LEFT JOIN versions y ON y.pacticipant_id = x.id AND y.number = $number AND x.name = $consumer
WHERE (x.name = $consumer OR x.name = $provider)
  AND NOT EXISTS (SELECT 1 FROM v)
