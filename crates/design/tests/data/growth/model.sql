--
-- PostgreSQL database dump
--

\restrict k9peX3WeJKHJnGfTY1upfC1W4kDuPYtlZUsrYuwJdbPayDyJObHohVmFkwYPzXR

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
-- Name: episode_topics; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.episode_topics (
    episode_id uuid NOT NULL,
    topic text NOT NULL
);


ALTER TABLE public.episode_topics OWNER TO postgres;

--
-- Name: episodes; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.episodes (
    episode_id uuid NOT NULL,
    show_id bigint NOT NULL,
    title text NOT NULL,
    published_at timestamp with time zone NOT NULL
);


ALTER TABLE public.episodes OWNER TO postgres;

--
-- Name: genres; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.genres (
    genre_code text NOT NULL,
    label text NOT NULL
);


ALTER TABLE public.genres OWNER TO postgres;

--
-- Name: plays; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.plays (
    play_id uuid NOT NULL,
    episode_id uuid NOT NULL,
    listener_id bigint NOT NULL,
    played_at timestamp with time zone NOT NULL,
    seconds integer NOT NULL
);


ALTER TABLE public.plays OWNER TO postgres;

--
-- Name: shows; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.shows (
    show_id bigint NOT NULL,
    title text NOT NULL
);


ALTER TABLE public.shows OWNER TO postgres;

--
-- Name: episode_topics episode_topics_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.episode_topics
    ADD CONSTRAINT episode_topics_pkey PRIMARY KEY (episode_id, topic);


--
-- Name: episodes episodes_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.episodes
    ADD CONSTRAINT episodes_pkey PRIMARY KEY (episode_id);


--
-- Name: genres genres_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.genres
    ADD CONSTRAINT genres_pkey PRIMARY KEY (genre_code);


--
-- Name: plays plays_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.plays
    ADD CONSTRAINT plays_pkey PRIMARY KEY (play_id);


--
-- Name: shows shows_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.shows
    ADD CONSTRAINT shows_pkey PRIMARY KEY (show_id);


--
-- Name: episode_topics episode_topics_episode_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.episode_topics
    ADD CONSTRAINT episode_topics_episode_id_fkey FOREIGN KEY (episode_id) REFERENCES public.episodes(episode_id);


--
-- Name: episodes episodes_show_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.episodes
    ADD CONSTRAINT episodes_show_id_fkey FOREIGN KEY (show_id) REFERENCES public.shows(show_id);


--
-- Name: plays plays_episode_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.plays
    ADD CONSTRAINT plays_episode_id_fkey FOREIGN KEY (episode_id) REFERENCES public.episodes(episode_id);


--
-- PostgreSQL database dump complete
--

\unrestrict k9peX3WeJKHJnGfTY1upfC1W4kDuPYtlZUsrYuwJdbPayDyJObHohVmFkwYPzXR

