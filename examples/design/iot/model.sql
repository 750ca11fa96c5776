--
-- PostgreSQL database dump
--

\restrict KEy7VnrIGXcbSAfio2TKSr6AeWXv6LejgM9g0BgaeGa89qGDHOyZ4aiYmiENEg3

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
-- Name: devices; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.devices (
    device_id text NOT NULL,
    site_id uuid NOT NULL,
    model text NOT NULL,
    firmware_version text,
    installed_at timestamp with time zone DEFAULT now() NOT NULL
);


ALTER TABLE public.devices OWNER TO postgres;

--
-- Name: TABLE devices; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON TABLE public.devices IS 'A temperature sensor; device_id is the id printed on the device (dev-00001234).';


--
-- Name: readings; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.readings (
    device_id text NOT NULL,
    ts timestamp with time zone NOT NULL,
    temp double precision NOT NULL,
    humidity double precision,
    battery_pct smallint,
    CONSTRAINT readings_battery_pct_check CHECK (((battery_pct >= 0) AND (battery_pct <= 100)))
);


ALTER TABLE public.readings OWNER TO postgres;

--
-- Name: TABLE readings; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON TABLE public.readings IS 'One reading per device per second; kept 30 days.';


--
-- Name: COLUMN readings.temp; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON COLUMN public.readings.temp IS 'Degrees Celsius.';


--
-- Name: sites; Type: TABLE; Schema: public; Owner: postgres
--

CREATE TABLE public.sites (
    site_id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    timezone text DEFAULT 'UTC'::text NOT NULL
);


ALTER TABLE public.sites OWNER TO postgres;

--
-- Name: TABLE sites; Type: COMMENT; Schema: public; Owner: postgres
--

COMMENT ON TABLE public.sites IS 'A plant or building that hosts temperature sensors.';


--
-- Name: devices devices_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.devices
    ADD CONSTRAINT devices_pkey PRIMARY KEY (device_id);


--
-- Name: readings readings_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.readings
    ADD CONSTRAINT readings_pkey PRIMARY KEY (device_id, ts);


--
-- Name: sites sites_pkey; Type: CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.sites
    ADD CONSTRAINT sites_pkey PRIMARY KEY (site_id);


--
-- Name: devices_site_id_idx; Type: INDEX; Schema: public; Owner: postgres
--

CREATE INDEX devices_site_id_idx ON public.devices USING btree (site_id);


--
-- Name: readings_ts_idx; Type: INDEX; Schema: public; Owner: postgres
--

CREATE INDEX readings_ts_idx ON public.readings USING btree (ts);


--
-- Name: devices devices_site_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.devices
    ADD CONSTRAINT devices_site_id_fkey FOREIGN KEY (site_id) REFERENCES public.sites(site_id);


--
-- Name: readings readings_device_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: postgres
--

ALTER TABLE ONLY public.readings
    ADD CONSTRAINT readings_device_id_fkey FOREIGN KEY (device_id) REFERENCES public.devices(device_id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict KEy7VnrIGXcbSAfio2TKSr6AeWXv6LejgM9g0BgaeGa89qGDHOyZ4aiYmiENEg3

