-- A map-editing service: accounts, maps, collaborators, layers, features,
-- styles, tags, comments, stars and the edit log (written for cqlmodel's tests;
-- geometry kept as GeoJSON text, PostGIS is outside this fixture).
CREATE TABLE accounts (
    account_id  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    handle      text NOT NULL,
    email       text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_handle_lower ON accounts (lower(handle));

CREATE TABLE maps (
    map_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id    uuid NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    title       text NOT NULL,
    description text,
    is_public   boolean NOT NULL DEFAULT false,
    revision    integer NOT NULL DEFAULT 1,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE collaborators (
    map_id      uuid NOT NULL REFERENCES maps (map_id) ON DELETE CASCADE,
    account_id  uuid NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    role        text NOT NULL DEFAULT 'editor',
    PRIMARY KEY (map_id, account_id)
);

CREATE TABLE layers (
    layer_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    map_id      uuid NOT NULL REFERENCES maps (map_id) ON DELETE CASCADE,
    name        text NOT NULL,
    position    integer NOT NULL,
    visible     boolean NOT NULL DEFAULT true
);

CREATE TABLE styles (
    style_id    serial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    definition  text NOT NULL
);

CREATE TABLE features (
    feature_id  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    layer_id    uuid NOT NULL REFERENCES layers (layer_id) ON DELETE CASCADE,
    style_id    integer REFERENCES styles (style_id) ON DELETE SET NULL,
    geojson     text NOT NULL,
    label       text,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tags (
    tag_id      serial PRIMARY KEY,
    name        text NOT NULL UNIQUE
);

CREATE TABLE map_tags (
    map_id      uuid NOT NULL REFERENCES maps (map_id) ON DELETE CASCADE,
    tag_id      integer NOT NULL REFERENCES tags (tag_id) ON DELETE CASCADE,
    PRIMARY KEY (map_id, tag_id)
);

CREATE TABLE map_comments (
    comment_id  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    map_id      uuid NOT NULL REFERENCES maps (map_id) ON DELETE CASCADE,
    author_id   uuid REFERENCES accounts (account_id) ON DELETE SET NULL,
    body        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stars (
    account_id  uuid NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    map_id      uuid NOT NULL REFERENCES maps (map_id) ON DELETE CASCADE,
    starred_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, map_id)
);

CREATE TABLE edits (
    edit_id     bigserial PRIMARY KEY,
    map_id      uuid NOT NULL REFERENCES maps (map_id) ON DELETE CASCADE,
    account_id  uuid REFERENCES accounts (account_id) ON DELETE SET NULL,
    summary     text NOT NULL,
    edited_at   timestamptz NOT NULL DEFAULT now()
);
