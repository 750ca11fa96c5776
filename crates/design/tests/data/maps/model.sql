--
-- PostgreSQL database dump
--

\restrict GGCMxosOEXWVGutdEkdbJdrHz3YL7xIXqxyPYahc1JoMuwGftKd4EFiVJXxrOup

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
-- Name: accounts; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.accounts (
    account_id uuid DEFAULT gen_random_uuid() NOT NULL,
    handle text NOT NULL,
    email text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.accounts OWNER TO postgres;

--
-- Name: collaborators; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.collaborators (
    map_id uuid NOT NULL,
    account_id uuid NOT NULL,
    role text DEFAULT 'editor'::text NOT NULL
);


ALTER TABLE public.collaborators OWNER TO postgres;

--
-- Name: edits; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.edits (
    edit_id bigint NOT NULL,
    map_id uuid NOT NULL,
    account_id uuid,
    summary text NOT NULL,
    edited_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.edits OWNER TO postgres;

--
-- Name: edits_edit_id_seq; Type: SEQUENCE; Schema: public; Owner: postgres
--

CREATE SEQUENCE public.edits_edit_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.edits_edit_id_seq OWNER TO postgres;

--
-- Name: edits_edit_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: postgres
--

ALTER SEQUENCE public.edits_edit_id_seq OWNED BY public.edits.edit_id;


--
-- Name: features; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.features (
    feature_id uuid DEFAULT gen_random_uuid() NOT NULL,
    layer_id uuid NOT NULL,
    style_id integer,
    geojson text NOT NULL,
    label text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.features OWNER TO postgres;

--
-- Name: layers; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.layers (
    layer_id uuid DEFAULT gen_random_uuid() NOT NULL,
    map_id uuid NOT NULL,
    name text NOT NULL,
    "position" integer NOT NULL,
    visible boolean DEFAULT true NOT NULL
);


ALTER TABLE public.layers OWNER TO postgres;

--
-- Name: map_comments; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.map_comments (
    comment_id uuid DEFAULT gen_random_uuid() NOT NULL,
    map_id uuid NOT NULL,
    author_id uuid,
    body text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.map_comments OWNER TO postgres;

--
-- Name: map_tags; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.map_tags (
    map_id uuid NOT NULL,
    tag_id integer NOT NULL
);


ALTER TABLE public.map_tags OWNER TO postgres;

--
-- Name: maps; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.maps (
    map_id uuid DEFAULT gen_random_uuid() NOT NULL,
    owner_id uuid NOT NULL,
    title text NOT NULL,
    description text,
    is_public boolean DEFAULT false NOT NULL,
    revision integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.maps OWNER TO postgres;

--
-- Name: stars; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.stars (
    account_id uuid NOT NULL,
    map_id uuid NOT NULL,
    starred_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.stars OWNER TO postgres;

--
-- Name: styles; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.styles (
    style_id integer NOT NULL,
    name text NOT NULL,
    definition text NOT NULL
);


ALTER TABLE public.styles OWNER TO postgres;

--
-- Name: styles_style_id_seq; Type: SEQUENCE; Schema: public; Owner: postgres
--

CREATE SEQUENCE public.styles_style_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.styles_style_id_seq OWNER TO postgres;

--
-- Name: styles_style_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: postgres
--

ALTER SEQUENCE public.styles_style_id_seq OWNED BY public.styles.style_id;


--
-- Name: tags; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.tags (
    tag_id integer NOT NULL,
    name text NOT NULL
);


ALTER TABLE public.tags OWNER TO postgres;

--
-- Name: tags_tag_id_seq; Type: SEQUENCE; Schema: public; Owner: postgres
--

CREATE SEQUENCE public.tags_tag_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.tags_tag_id_seq OWNER TO postgres;

--
-- Name: tags_tag_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: postgres
--

ALTER SEQUENCE public.tags_tag_id_seq OWNED BY public.tags.tag_id;


--
-- Name: edits edit_id; Type: DEFAULT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.edits ALTER COLUMN edit_id SET DEFAULT nextval('public.edits_edit_id_seq'::regclass);


--
-- Name: styles style_id; Type: DEFAULT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.styles ALTER COLUMN style_id SET DEFAULT nextval('public.styles_style_id_seq'::regclass);


--
-- Name: tags tag_id; Type: DEFAULT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tags ALTER COLUMN tag_id SET DEFAULT nextval('public.tags_tag_id_seq'::regclass);


--
-- Name: accounts accounts_email_key; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_email_key UNIQUE (email);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (account_id);


--
-- Name: collaborators collaborators_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.collaborators
    ADD CONSTRAINT collaborators_pkey PRIMARY KEY (map_id, account_id);


--
-- Name: edits edits_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.edits
    ADD CONSTRAINT edits_pkey PRIMARY KEY (edit_id);


--
-- Name: features features_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.features
    ADD CONSTRAINT features_pkey PRIMARY KEY (feature_id);


--
-- Name: layers layers_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.layers
    ADD CONSTRAINT layers_pkey PRIMARY KEY (layer_id);


--
-- Name: map_comments map_comments_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.map_comments
    ADD CONSTRAINT map_comments_pkey PRIMARY KEY (comment_id);


--
-- Name: map_tags map_tags_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.map_tags
    ADD CONSTRAINT map_tags_pkey PRIMARY KEY (map_id, tag_id);


--
-- Name: maps maps_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.maps
    ADD CONSTRAINT maps_pkey PRIMARY KEY (map_id);


--
-- Name: stars stars_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.stars
    ADD CONSTRAINT stars_pkey PRIMARY KEY (account_id, map_id);


--
-- Name: styles styles_name_key; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.styles
    ADD CONSTRAINT styles_name_key UNIQUE (name);


--
-- Name: styles styles_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.styles
    ADD CONSTRAINT styles_pkey PRIMARY KEY (style_id);


--
-- Name: tags tags_name_key; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tags
    ADD CONSTRAINT tags_name_key UNIQUE (name);


--
-- Name: tags tags_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.tags
    ADD CONSTRAINT tags_pkey PRIMARY KEY (tag_id);


--
-- Name: accounts_handle_lower; Type: INDEX; Schema: public; Owner: postgres
--

CREATE UNIQUE INDEX accounts_handle_lower ON public.accounts USING btree (lower(handle));


--
-- Name: collaborators collaborators_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.collaborators
    ADD CONSTRAINT collaborators_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(account_id) ON DELETE CASCADE;


--
-- Name: collaborators collaborators_map_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.collaborators
    ADD CONSTRAINT collaborators_map_id_fkey FOREIGN KEY (map_id) REFERENCES public.maps(map_id) ON DELETE CASCADE;


--
-- Name: edits edits_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.edits
    ADD CONSTRAINT edits_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(account_id) ON DELETE SET NULL;


--
-- Name: edits edits_map_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.edits
    ADD CONSTRAINT edits_map_id_fkey FOREIGN KEY (map_id) REFERENCES public.maps(map_id) ON DELETE CASCADE;


--
-- Name: features features_layer_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.features
    ADD CONSTRAINT features_layer_id_fkey FOREIGN KEY (layer_id) REFERENCES public.layers(layer_id) ON DELETE CASCADE;


--
-- Name: features features_style_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.features
    ADD CONSTRAINT features_style_id_fkey FOREIGN KEY (style_id) REFERENCES public.styles(style_id) ON DELETE SET NULL;


--
-- Name: layers layers_map_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.layers
    ADD CONSTRAINT layers_map_id_fkey FOREIGN KEY (map_id) REFERENCES public.maps(map_id) ON DELETE CASCADE;


--
-- Name: map_comments map_comments_author_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.map_comments
    ADD CONSTRAINT map_comments_author_id_fkey FOREIGN KEY (author_id) REFERENCES public.accounts(account_id) ON DELETE SET NULL;


--
-- Name: map_comments map_comments_map_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.map_comments
    ADD CONSTRAINT map_comments_map_id_fkey FOREIGN KEY (map_id) REFERENCES public.maps(map_id) ON DELETE CASCADE;


--
-- Name: map_tags map_tags_map_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.map_tags
    ADD CONSTRAINT map_tags_map_id_fkey FOREIGN KEY (map_id) REFERENCES public.maps(map_id) ON DELETE CASCADE;


--
-- Name: map_tags map_tags_tag_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.map_tags
    ADD CONSTRAINT map_tags_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES public.tags(tag_id) ON DELETE CASCADE;


--
-- Name: maps maps_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.maps
    ADD CONSTRAINT maps_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.accounts(account_id) ON DELETE CASCADE;


--
-- Name: stars stars_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.stars
    ADD CONSTRAINT stars_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(account_id) ON DELETE CASCADE;


--
-- Name: stars stars_map_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.stars
    ADD CONSTRAINT stars_map_id_fkey FOREIGN KEY (map_id) REFERENCES public.maps(map_id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict GGCMxosOEXWVGutdEkdbJdrHz3YL7xIXqxyPYahc1JoMuwGftKd4EFiVJXxrOup

