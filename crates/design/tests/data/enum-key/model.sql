CREATE TYPE public.order_status AS ENUM ('new', 'paid', 'shipped', 'cancelled');
CREATE TABLE public.stores (id bigint PRIMARY KEY, name text NOT NULL);
CREATE TABLE public.orders (
    id bigserial PRIMARY KEY,
    store_id bigint NOT NULL REFERENCES public.stores(id),
    status public.order_status NOT NULL,
    total_cents bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
