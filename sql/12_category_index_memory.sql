-- pap.category_index keeps at most one array's worth of memory per call site: an array argument that changes
-- from row to row (not a constant) used to leave every row's unpacked copy in the query's memory, about 235
-- bytes per row. The memory of the query's executor is read from inside the query, after 200,000 rows.
CREATE FUNCTION ci_executor_bytes() RETURNS bigint LANGUAGE sql VOLATILE AS $$
	SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts
	 WHERE name IN ('ExecutorState', 'pap.category_index')
$$;
-- a different array on every row ('a' < 'b' < 'm<g>' by bytes: 'b' is bin 1 of each)
WITH binned AS MATERIALIZED (
  SELECT sum(pap.category_index(ARRAY['a', 'm' || g::text], 'b')) AS bins, count(*) AS rows
    FROM (SELECT generate_series(1, 200000) AS g) AS s)
SELECT bins, rows, ci_executor_bytes() < 4 * 1024 * 1024 AS memory_bounded FROM binned;
-- a non-constant array that stays the same (an initplan's result) is unpacked once and reused
CREATE TABLE ci_arrays (categories text[]);
INSERT INTO ci_arrays VALUES (ARRAY['a', 'c']);
WITH binned AS MATERIALIZED (
  SELECT sum(pap.category_index((SELECT categories FROM ci_arrays), (ARRAY['a', 'b', 'c', 'd'])[1 + g % 4])) AS bins,
         count(*) AS rows
    FROM (SELECT generate_series(1, 200000) AS g) AS s)
SELECT bins, rows, ci_executor_bytes() < 4 * 1024 * 1024 AS memory_bounded FROM binned;
-- a constant array: unpacked once, same bins
SELECT pap.category_index(ARRAY['a', 'c'], v) AS bin, count(*) AS rows
  FROM (VALUES ('a'), ('b'), ('c'), ('d'), (NULL)) AS t(v) GROUP BY 1 ORDER BY 1;
DROP TABLE ci_arrays;
-- A value stored compressed or out of line is read only as far as the longest category, and one byte more: a
-- value of 40 MB that begins with a category is "other" (2), one equal to a long category is that category, and
-- the backend's memory while it bins the 40 MB value stays below 20 MB (whole, the value was unpacked into it).
CREATE TABLE ci_long (id int, v text);
INSERT INTO ci_long VALUES (1, repeat('b', 10000)),                               -- compressed in line: bin 1
                           (2, repeat('b', 10000) || 'x'),                        -- longer: other
                           (3, 'aaa' || repeat('b', 40000000)),                   -- 40 MB, compressed apart: other
                           (4, 'aaa'),                                            -- bin 0
                           (5, (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 100000) AS g));  -- apart
SELECT id, pg_column_size(v) < octet_length(v) AS stored_smaller,
       pap.category_index(ARRAY['aaa', repeat('b', 10000)], v) AS bin
  FROM ci_long ORDER BY id;
CREATE FUNCTION ci_backend_bytes() RETURNS bigint LANGUAGE sql VOLATILE AS $$
	SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts
$$;
SELECT pap.category_index(ARRAY['aaa', repeat('b', 10000)], v) AS bin, ci_backend_bytes() < 20 * 1024 * 1024
       AS memory_bounded
  FROM ci_long WHERE id = 3;
DROP TABLE ci_long;
DROP FUNCTION ci_backend_bytes();
DROP FUNCTION ci_executor_bytes();
