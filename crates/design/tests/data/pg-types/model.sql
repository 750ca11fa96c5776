--
-- PostgreSQL database dump
--

\restrict Mll2LsmhBlb558Q2D0e89K2gDcm2NZZAxyf1jPeiwtes1Wc8yS53mCdd8ORTldx

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
-- Name: address; Type: TYPE; Schema: public; Owner: postgres
--

CREATE TYPE public.address AS (
	street text,
	city text
);


ALTER TYPE public.address OWNER TO postgres;

--
-- Name: mood; Type: TYPE; Schema: public; Owner: postgres
--

CREATE TYPE public.mood AS ENUM (
    'calm',
    'busy'
);


ALTER TYPE public.mood OWNER TO postgres;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: page_views; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.page_views (
    viewed_at timestamp with time zone NOT NULL,
    url text NOT NULL,
    referrer text
);


ALTER TABLE public.page_views OWNER TO postgres;

--
-- Name: samples; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.samples (
    sample_id bigint NOT NULL,
    small smallint,
    whole integer,
    big bigint,
    ratio real,
    exact numeric(12,3),
    precise double precision,
    price money,
    flag boolean,
    code character(3),
    label character varying(40),
    note text,
    who name,
    raw bytea,
    day date,
    clock time without time zone,
    clock_tz time with time zone,
    stamp timestamp without time zone,
    stamp_tz timestamp with time zone,
    wait interval,
    wait_hours interval hour,
    host inet,
    net cidr,
    mac macaddr,
    mac8 macaddr8,
    id uuid,
    doc json,
    docb jsonb,
    page xml,
    path jsonpath,
    bits bit(8),
    varbits bit varying(16),
    spot point,
    segment lseg,
    stretch line,
    area box,
    route path,
    shape polygon,
    ring circle,
    words tsvector,
    search tsquery,
    span int4range,
    bigspan int8range,
    money_range numrange,
    period tstzrange,
    local_period tsrange,
    days daterange,
    periods tstzmultirange,
    snapshot_id pg_lsn,
    txid txid_snapshot,
    state public.mood,
    home public.address,
    tags text[],
    grid integer[],
    oid_col oid,
    reg regclass
);


ALTER TABLE public.samples OWNER TO postgres;

--
-- Name: samples_sample_id_seq; Type: SEQUENCE; Schema: public; Owner: postgres
--

CREATE SEQUENCE public.samples_sample_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.samples_sample_id_seq OWNER TO postgres;

--
-- Name: samples_sample_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: postgres
--

ALTER SEQUENCE public.samples_sample_id_seq OWNED BY public.samples.sample_id;


--
-- Name: tag_links; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.tag_links (
    sample_id bigint NOT NULL,
    tag text NOT NULL
);


ALTER TABLE public.tag_links OWNER TO postgres;

--
-- Name: samples sample_id; Type: DEFAULT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.samples ALTER COLUMN sample_id SET DEFAULT nextval('public.samples_sample_id_seq'::regclass);


--
-- Name: samples samples_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.samples
    ADD CONSTRAINT samples_pkey PRIMARY KEY (sample_id);


--
-- Name: tag_links tag_links_sample_id_tag_key; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tag_links
    ADD CONSTRAINT tag_links_sample_id_tag_key UNIQUE (sample_id, tag);


--
-- Name: tag_links tag_links_sample_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tag_links
    ADD CONSTRAINT tag_links_sample_id_fkey FOREIGN KEY (sample_id) REFERENCES public.samples(sample_id);


--
-- PostgreSQL database dump complete
--

\unrestrict Mll2LsmhBlb558Q2D0e89K2gDcm2NZZAxyf1jPeiwtes1Wc8yS53mCdd8ORTldx

