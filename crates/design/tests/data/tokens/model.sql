--
-- PostgreSQL database dump
--

\restrict bz7BNk3ga7ccvI0t8bMa5bm1QMFdGcP0xs9y97fB8LewS3o5GF20egH0JVBdWJq

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

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: members; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.members (
    member_id bigint NOT NULL,
    name text NOT NULL
);


ALTER TABLE public.members OWNER TO postgres;

--
-- Name: members_member_id_seq; Type: SEQUENCE; Schema: public; Owner: postgres
--

ALTER TABLE public.members ALTER COLUMN member_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.members_member_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: tokens; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.tokens (
    token_id uuid DEFAULT gen_random_uuid() NOT NULL,
    member_id bigint NOT NULL,
    kind text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    secret text NOT NULL
);


ALTER TABLE public.tokens OWNER TO postgres;

--
-- Name: members members_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_pkey PRIMARY KEY (member_id);


--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (token_id);


--
-- Name: tokens_kind_expires_at; Type: INDEX; Schema: public; Owner: postgres
--

CREATE INDEX tokens_kind_expires_at ON public.tokens USING btree (kind, expires_at);


--
-- Name: tokens_member_id; Type: INDEX; Schema: public; Owner: postgres
--

CREATE INDEX tokens_member_id ON public.tokens USING btree (member_id);


--
-- Name: tokens tokens_member_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.members(member_id);


--
-- PostgreSQL database dump complete
--

\unrestrict bz7BNk3ga7ccvI0t8bMa5bm1QMFdGcP0xs9y97fB8LewS3o5GF20egH0JVBdWJq

