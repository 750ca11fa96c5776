-- Objects with no modeling meaning beside two tables: statistics,
-- publications, subscriptions, CLUSTER ON, collations, event triggers,
-- default privileges, comments, aggregates, functions, views, policies.
CREATE ROLE app_reader;
CREATE COLLATION ci_text (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE COLLATION german (provider = libc, locale = 'C');

CREATE TABLE authors (
    author_id bigint PRIMARY KEY,
    handle text COLLATE ci_text NOT NULL UNIQUE,
    display_name text COLLATE german
);
CREATE TABLE posts (
    post_id bigint PRIMARY KEY,
    author_id bigint NOT NULL REFERENCES authors (author_id) ON DELETE CASCADE,
    posted_at timestamptz NOT NULL DEFAULT now(),
    body text NOT NULL
);
CREATE INDEX posts_author_idx ON posts (author_id, posted_at DESC);
CLUSTER posts USING posts_author_idx;
CREATE STATISTICS posts_author_time (dependencies, ndistinct) ON author_id, posted_at FROM posts;
ALTER STATISTICS posts_author_time SET STATISTICS 500;
CREATE PUBLICATION posts_pub FOR TABLE posts, authors;
CREATE SUBSCRIPTION mirror_sub CONNECTION 'dbname=nowhere' PUBLICATION posts_pub
    WITH (connect = false, create_slot = false, enabled = false, slot_name = NONE);

COMMENT ON TABLE posts IS 'What authors write; one row a post.';
COMMENT ON COLUMN posts.body IS 'Markdown';
COMMENT ON INDEX posts_author_idx IS 'The author''s timeline';
COMMENT ON COLLATION ci_text IS 'case-insensitive';

CREATE FUNCTION add_len(state bigint, s text) RETURNS bigint
    LANGUAGE sql IMMUTABLE AS $$ SELECT state + length(s) $$;
CREATE AGGREGATE total_length(text) (SFUNC = add_len, STYPE = bigint, INITCOND = '0');
CREATE PROCEDURE touch_author(id bigint) LANGUAGE sql AS $$ UPDATE authors SET display_name = display_name WHERE author_id = id $$;
CREATE FUNCTION no_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'ddl'; END $$;
CREATE EVENT TRIGGER log_ddl ON ddl_command_start EXECUTE FUNCTION no_ddl();
CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.posted_at := now(); RETURN NEW; END $$;
CREATE TRIGGER posts_stamp BEFORE INSERT ON posts FOR EACH ROW EXECUTE FUNCTION stamp();
CREATE VIEW recent_posts AS SELECT post_id, body FROM posts WHERE posted_at > now() - interval '1 day';
CREATE MATERIALIZED VIEW post_counts AS SELECT author_id, count(*) AS n FROM posts GROUP BY author_id;
CREATE RULE no_delete_authors AS ON DELETE TO authors DO INSTEAD NOTHING;
ALTER TABLE posts ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_posts ON posts USING (author_id = 1);
ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO app_reader;
GRANT SELECT ON posts TO app_reader;
CREATE TEXT SEARCH CONFIGURATION plain_english (COPY = pg_catalog.english);
CREATE OPERATOR === (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = int8eq);
CREATE CAST (bigint AS text) WITH INOUT AS ASSIGNMENT;
