--
-- PostgreSQL database dump
--

\restrict 1tRGjCHMSu1RSWgVx7e4JYxVCWIOjDmGgOkl3aZZJVRb3RybGI36901f5bil8oe

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: ci_text; Type: COLLATION; Schema: public; Owner: postgres
--

CREATE COLLATION public.ci_text (provider = icu, deterministic = false, locale = 'und-u-ks-level2');


ALTER COLLATION public.ci_text OWNER TO postgres;

--
-- Name: COLLATION ci_text; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON COLLATION public.ci_text IS 'case-insensitive';


--
-- Name: german; Type: COLLATION; Schema: public; Owner: postgres
--

CREATE COLLATION public.german (provider = libc, locale = 'C');


ALTER COLLATION public.german OWNER TO postgres;

--
-- Name: CAST (bigint AS text); Type: CAST; Schema: -; Owner: -
--

CREATE CAST (bigint AS text) WITH INOUT AS ASSIGNMENT;


--
-- Name: add_len(bigint, text); Type: FUNCTION; Schema: public; Owner: postgres
--

CREATE FUNCTION public.add_len(state bigint, s text) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT state + length(s) $$;


ALTER FUNCTION public.add_len(state bigint, s text) OWNER TO postgres;

--
-- Name: no_ddl(); Type: FUNCTION; Schema: public; Owner: postgres
--

CREATE FUNCTION public.no_ddl() RETURNS event_trigger
    LANGUAGE plpgsql
    AS $$ BEGIN RAISE NOTICE 'ddl'; END $$;


ALTER FUNCTION public.no_ddl() OWNER TO postgres;

--
-- Name: stamp(); Type: FUNCTION; Schema: public; Owner: postgres
--

CREATE FUNCTION public.stamp() RETURNS trigger
    LANGUAGE plpgsql
    AS $$ BEGIN NEW.posted_at := now(); RETURN NEW; END $$;


ALTER FUNCTION public.stamp() OWNER TO postgres;

--
-- Name: touch_author(bigint); Type: PROCEDURE; Schema: public; Owner: postgres
--

CREATE PROCEDURE public.touch_author(IN id bigint)
    LANGUAGE sql
    AS $$ UPDATE authors SET display_name = display_name WHERE author_id = id $$;


ALTER PROCEDURE public.touch_author(IN id bigint) OWNER TO postgres;

--
-- Name: total_length(text); Type: AGGREGATE; Schema: public; Owner: postgres
--

CREATE AGGREGATE public.total_length(text) (
    SFUNC = public.add_len,
    STYPE = bigint,
    INITCOND = '0'
);


ALTER AGGREGATE public.total_length(text) OWNER TO postgres;

--
-- Name: ===; Type: OPERATOR; Schema: public; Owner: postgres
--

CREATE OPERATOR public.=== (
    FUNCTION = int8eq,
    LEFTARG = bigint,
    RIGHTARG = bigint
);


ALTER OPERATOR public.=== (bigint, bigint) OWNER TO postgres;

--
-- Name: plain_english; Type: TEXT SEARCH CONFIGURATION; Schema: public; Owner: postgres
--

CREATE TEXT SEARCH CONFIGURATION public.plain_english (
    PARSER = pg_catalog."default" );

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR asciiword WITH english_stem;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR word WITH english_stem;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR numword WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR email WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR url WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR host WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR sfloat WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR version WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR hword_numpart WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR hword_part WITH english_stem;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR hword_asciipart WITH english_stem;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR numhword WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR asciihword WITH english_stem;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR hword WITH english_stem;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR url_path WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR file WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR "float" WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR "int" WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.plain_english
    ADD MAPPING FOR uint WITH simple;


ALTER TEXT SEARCH CONFIGURATION public.plain_english OWNER TO postgres;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: authors; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.authors (
    author_id bigint NOT NULL,
    handle text NOT NULL COLLATE public.ci_text,
    display_name text COLLATE public.german
);


ALTER TABLE public.authors OWNER TO postgres;

--
-- Name: posts; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.posts (
    post_id bigint NOT NULL,
    author_id bigint NOT NULL,
    posted_at timestamp with time zone DEFAULT now() NOT NULL,
    body text NOT NULL
);


ALTER TABLE public.posts OWNER TO postgres;

--
-- Name: TABLE posts; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON TABLE public.posts IS 'What authors write; one row a post.';


--
-- Name: COLUMN posts.body; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON COLUMN public.posts.body IS 'Markdown';


--
-- Name: post_counts; Type: MATERIALIZED VIEW; Schema: public; Owner: postgres
--

CREATE MATERIALIZED VIEW public.post_counts AS
 SELECT posts.author_id,
    count(*) AS n
   FROM public.posts
  GROUP BY posts.author_id
  WITH NO DATA;


ALTER TABLE public.post_counts OWNER TO postgres;

--
-- Name: recent_posts; Type: VIEW; Schema: public; Owner: postgres
--

CREATE VIEW public.recent_posts AS
 SELECT posts.post_id,
    posts.body
   FROM public.posts
  WHERE (posts.posted_at > (now() - '1 day'::interval));


ALTER TABLE public.recent_posts OWNER TO postgres;

--
-- Name: authors authors_handle_key; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.authors
    ADD CONSTRAINT authors_handle_key UNIQUE (handle);


--
-- Name: authors authors_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.authors
    ADD CONSTRAINT authors_pkey PRIMARY KEY (author_id);


--
-- Name: posts posts_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.posts
    ADD CONSTRAINT posts_pkey PRIMARY KEY (post_id);


--
-- Name: posts_author_idx; Type: INDEX; Schema: public; Owner: postgres
--

CREATE INDEX posts_author_idx ON public.posts USING btree (author_id, posted_at DESC);

ALTER TABLE public.posts CLUSTER ON posts_author_idx;


--
-- Name: INDEX posts_author_idx; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON INDEX public.posts_author_idx IS 'The author''s timeline';


--
-- Name: posts_author_time; Type: STATISTICS; Schema: public; Owner: postgres
--

CREATE STATISTICS public.posts_author_time (ndistinct, dependencies) ON author_id, posted_at FROM public.posts;
ALTER STATISTICS public.posts_author_time SET STATISTICS 500;


ALTER STATISTICS public.posts_author_time OWNER TO postgres;

--
-- Name: authors no_delete_authors; Type: RULE; Schema: public; Owner: postgres
--

CREATE RULE no_delete_authors AS
    ON DELETE TO public.authors DO INSTEAD NOTHING;


--
-- Name: posts posts_stamp; Type: TRIGGER; Schema: public; Owner: postgres
--

CREATE TRIGGER posts_stamp BEFORE INSERT ON public.posts FOR EACH ROW EXECUTE FUNCTION public.stamp();


--
-- Name: posts posts_author_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.posts
    ADD CONSTRAINT posts_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.authors(author_id) ON DELETE CASCADE;


--
-- Name: posts own_posts; Type: POLICY; Schema: public; Owner: postgres
--

CREATE POLICY own_posts ON public.posts USING ((author_id = 1));


--
-- Name: posts; Type: ROW SECURITY; Schema: public; Owner: postgres
--

ALTER TABLE public.posts ENABLE ROW LEVEL SECURITY;

--
-- Name: posts_pub; Type: PUBLICATION; Schema: -; Owner: postgres
--

CREATE PUBLICATION posts_pub WITH (publish = 'insert, update, delete, truncate');


ALTER PUBLICATION posts_pub OWNER TO postgres;

--
-- Name: posts_pub authors; Type: PUBLICATION TABLE; Schema: public; Owner: postgres
--

ALTER PUBLICATION posts_pub ADD TABLE ONLY public.authors;


--
-- Name: posts_pub posts; Type: PUBLICATION TABLE; Schema: public; Owner: postgres
--

ALTER PUBLICATION posts_pub ADD TABLE ONLY public.posts;


--
-- Name: mirror_sub; Type: SUBSCRIPTION; Schema: -; Owner: postgres
--

CREATE SUBSCRIPTION mirror_sub CONNECTION 'dbname=nowhere' PUBLICATION posts_pub WITH (connect = false, slot_name = NONE);


ALTER SUBSCRIPTION mirror_sub OWNER TO postgres;

--
-- Name: TABLE posts; Type: ACL; Schema: public; Owner: postgres
--

GRANT SELECT ON TABLE public.posts TO app_reader;


--
-- Name: DEFAULT PRIVILEGES FOR TABLES; Type: DEFAULT ACL; Schema: -; Owner: postgres
--

ALTER DEFAULT PRIVILEGES FOR ROLE postgres GRANT SELECT ON TABLES  TO app_reader;


--
-- Name: log_ddl; Type: EVENT TRIGGER; Schema: -; Owner: postgres
--

CREATE EVENT TRIGGER log_ddl ON ddl_command_start
   EXECUTE FUNCTION public.no_ddl();


ALTER EVENT TRIGGER log_ddl OWNER TO postgres;

--
-- PostgreSQL database dump complete
--

\unrestrict 1tRGjCHMSu1RSWgVx7e4JYxVCWIOjDmGgOkl3aZZJVRb3RybGI36901f5bil8oe

