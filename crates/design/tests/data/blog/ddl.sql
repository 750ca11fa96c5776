-- A blogging platform: authors, posts, comments, follows and favorites, as its
-- application's migrations leave the database (written for cqlmodel's tests).
CREATE EXTENSION IF NOT EXISTS citext;

CREATE COLLATION case_blind (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

CREATE TABLE users (
    user_id     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    username    text COLLATE case_blind NOT NULL UNIQUE,
    email       citext NOT NULL UNIQUE,
    display_name text,
    bio         text,
    image_url   text,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE posts (
    post_id     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    author_id   uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    slug        text NOT NULL,
    title       text NOT NULL,
    body        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    version     integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX posts_slug_lower ON posts (lower(slug));

CREATE TABLE comments (
    comment_id  bigserial PRIMARY KEY,
    post_id     uuid NOT NULL REFERENCES posts (post_id) ON DELETE CASCADE,
    author_id   uuid REFERENCES users (user_id) ON DELETE SET NULL,
    body        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE follows (
    follower_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    followee_id uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower_id, followee_id)
);

CREATE TABLE favorites (
    user_id     uuid NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
    post_id     uuid NOT NULL REFERENCES posts (post_id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, post_id)
);
