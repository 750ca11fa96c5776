--
-- PostgreSQL database dump
--

\restrict rV6DM3H6gh3jgiMdGDNljLa7WVgHGWwCP2j8lbTHNCVNXx1ZeKpAbTyacecic95

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
-- Name: postgis; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public;


--
-- Name: EXTENSION postgis; Type: COMMENT; Schema: -; Owner: 
--

COMMENT ON EXTENSION postgis IS 'PostGIS geometry and geography spatial types and functions';


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: shops; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.shops (
    shop_id bigint NOT NULL,
    city text NOT NULL,
    name text NOT NULL,
    location public.geometry(Point,4326) NOT NULL,
    delivery_area public.geography(Polygon,4326)
);


ALTER TABLE public.shops OWNER TO postgres;

--
-- Name: shops shops_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.shops
    ADD CONSTRAINT shops_pkey PRIMARY KEY (shop_id);


--
-- Name: shops_location_idx; Type: INDEX; Schema: public; Owner: postgres
--

CREATE INDEX shops_location_idx ON public.shops USING gist (location);


--
-- PostgreSQL database dump complete
--

\unrestrict rV6DM3H6gh3jgiMdGDNljLa7WVgHGWwCP2j8lbTHNCVNXx1ZeKpAbTyacecic95

