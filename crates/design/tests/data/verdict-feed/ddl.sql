-- A community news site: channels publish posts, readers page through a
-- channel's feed, open a post, search posts by words, and the editors watch
-- the day's trending tags. Key reads plus a search box and a dashboard: the
-- fit verdict's "fits with companions" case.

CREATE TABLE channels (
    channel_id  uuid PRIMARY KEY,
    slug        text NOT NULL UNIQUE,
    title       text NOT NULL
);

CREATE TABLE posts (
    post_id     uuid PRIMARY KEY,
    channel_id  uuid NOT NULL REFERENCES channels (channel_id),
    title       text NOT NULL,
    body        text NOT NULL,
    published_at timestamptz NOT NULL
);

CREATE TABLE post_tags (
    post_id     uuid NOT NULL REFERENCES posts (post_id),
    tag         text NOT NULL,
    tagged_at   timestamptz NOT NULL,
    PRIMARY KEY (post_id, tag)
);
