--
-- PostgreSQL database dump
--
SET statement_timeout = 0;
CREATE TABLE public.orders (
    id bigint NOT NULL,
    customer_id bigint NOT NULL,
    placed_at timestamp with time zone DEFAULT now()
);
ALTER TABLE ONLY public.orders ADD CONSTRAINT orders_pkey PRIMARY KEY (id);
