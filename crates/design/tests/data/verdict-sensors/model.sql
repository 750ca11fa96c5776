--
-- PostgreSQL database dump
--

\restrict irQg2erzgG2mYyNJuJZjdmpE1fCS3aGCcrdmpqsIImPIFhrewxPHJe2xOdaenYJ

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
-- Name: farms; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.farms (
    farm_id uuid NOT NULL,
    name text NOT NULL,
    region text NOT NULL
);


ALTER TABLE public.farms OWNER TO postgres;

--
-- Name: moisture_readings; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.moisture_readings (
    probe_id text NOT NULL,
    read_at timestamp with time zone NOT NULL,
    moisture real NOT NULL,
    soil_temp real,
    battery_mv integer NOT NULL
);


ALTER TABLE public.moisture_readings OWNER TO postgres;

--
-- Name: probes; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.probes (
    probe_id text NOT NULL,
    farm_id uuid NOT NULL,
    depth_cm smallint NOT NULL,
    firmware text NOT NULL,
    installed_at timestamp with time zone NOT NULL
);


ALTER TABLE public.probes OWNER TO postgres;

--
-- Name: farms farms_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.farms
    ADD CONSTRAINT farms_pkey PRIMARY KEY (farm_id);


--
-- Name: moisture_readings moisture_readings_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.moisture_readings
    ADD CONSTRAINT moisture_readings_pkey PRIMARY KEY (probe_id, read_at);


--
-- Name: probes probes_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.probes
    ADD CONSTRAINT probes_pkey PRIMARY KEY (probe_id);


--
-- Name: moisture_readings moisture_readings_probe_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.moisture_readings
    ADD CONSTRAINT moisture_readings_probe_id_fkey FOREIGN KEY (probe_id) REFERENCES public.probes(probe_id);


--
-- Name: probes probes_farm_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.probes
    ADD CONSTRAINT probes_farm_id_fkey FOREIGN KEY (farm_id) REFERENCES public.farms(farm_id);


--
-- PostgreSQL database dump complete
--

\unrestrict irQg2erzgG2mYyNJuJZjdmpE1fCS3aGCcrdmpqsIImPIFhrewxPHJe2xOdaenYJ

