-- An order and inventory service: warehouses, products, stock per warehouse,
-- orders and their lines, shipments (written for cqlmodel's tests).
CREATE TABLE warehouses (
    warehouse_id smallint PRIMARY KEY,
    name        text NOT NULL UNIQUE
);

CREATE TABLE products (
    product_id  bigserial PRIMARY KEY,
    sku         text NOT NULL,
    title       text NOT NULL,
    price_cents integer NOT NULL,
    discontinued boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX products_sku_upper ON products (upper(sku));

CREATE TABLE stock (
    warehouse_id smallint NOT NULL REFERENCES warehouses (warehouse_id),
    product_id  bigint NOT NULL REFERENCES products (product_id) ON DELETE CASCADE,
    on_hand     integer NOT NULL DEFAULT 0,
    version     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (warehouse_id, product_id)
);

CREATE TABLE orders (
    order_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    customer_ref text NOT NULL,
    status      text NOT NULL DEFAULT 'new',
    placed_at   timestamptz NOT NULL DEFAULT now(),
    note        text
);

CREATE TABLE order_lines (
    order_id    uuid NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
    line_no     smallint NOT NULL,
    product_id  bigint NOT NULL REFERENCES products (product_id),
    quantity    integer NOT NULL,
    PRIMARY KEY (order_id, line_no)
);

CREATE TABLE shipments (
    shipment_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    order_id    uuid REFERENCES orders (order_id) ON DELETE SET NULL,
    warehouse_id smallint NOT NULL REFERENCES warehouses (warehouse_id),
    carrier     text,
    shipped_at  timestamptz
);
