--
-- PostgreSQL database dump
--

\restrict qqKWL7D182EhNQkyt746jP1ZQlxAhlZJqt1wjNA3OvE1Ig6hZskG24hXCar0EoO

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
-- Name: channel_events; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.channel_events (
    channel_id bigint NOT NULL,
    event_id uuid NOT NULL,
    happened_at timestamp with time zone NOT NULL,
    kind text NOT NULL,
    detail text
);


ALTER TABLE public.channel_events OWNER TO postgres;

--
-- Name: channels; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.channels (
    channel_id bigint NOT NULL,
    title text NOT NULL,
    plan_code text NOT NULL,
    created_at timestamp with time zone NOT NULL
);


ALTER TABLE public.channels OWNER TO postgres;

--
-- Name: countries; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.countries (
    country_code character(2) NOT NULL,
    country_name text NOT NULL
);


ALTER TABLE public.countries OWNER TO postgres;

--
-- Name: memberships; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.memberships (
    channel_id bigint NOT NULL,
    member_id bigint NOT NULL,
    joined_at timestamp with time zone NOT NULL,
    country_code character(2)
);


ALTER TABLE public.memberships OWNER TO postgres;

--
-- Name: plans; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.plans (
    plan_code text NOT NULL,
    title text NOT NULL,
    monthly_cents integer NOT NULL
);


ALTER TABLE public.plans OWNER TO postgres;

--
-- Name: channel_events channel_events_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.channel_events
    ADD CONSTRAINT channel_events_pkey PRIMARY KEY (channel_id, event_id);


--
-- Name: channels channels_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.channels
    ADD CONSTRAINT channels_pkey PRIMARY KEY (channel_id);


--
-- Name: countries countries_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.countries
    ADD CONSTRAINT countries_pkey PRIMARY KEY (country_code);


--
-- Name: memberships memberships_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.memberships
    ADD CONSTRAINT memberships_pkey PRIMARY KEY (channel_id, member_id);


--
-- Name: plans plans_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.plans
    ADD CONSTRAINT plans_pkey PRIMARY KEY (plan_code);


--
-- Name: channel_events channel_events_channel_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.channel_events
    ADD CONSTRAINT channel_events_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES public.channels(channel_id);


--
-- Name: channels channels_plan_code_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.channels
    ADD CONSTRAINT channels_plan_code_fkey FOREIGN KEY (plan_code) REFERENCES public.plans(plan_code);


--
-- Name: memberships memberships_channel_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.memberships
    ADD CONSTRAINT memberships_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES public.channels(channel_id);


--
-- Name: memberships memberships_country_code_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.memberships
    ADD CONSTRAINT memberships_country_code_fkey FOREIGN KEY (country_code) REFERENCES public.countries(country_code);


--
-- PostgreSQL database dump complete
--

\unrestrict qqKWL7D182EhNQkyt746jP1ZQlxAhlZJqt1wjNA3OvE1Ig6hZskG24hXCar0EoO

