-- A podcast host: shows are a fixed catalogue, episodes and their topics grow
-- together, plays grow fast and concentrate on a few hit episodes, and the
-- genre list is read whole with no statistics about it.
CREATE TABLE shows (
    show_id bigint PRIMARY KEY,
    title text NOT NULL
);

CREATE TABLE genres (
    genre_code text PRIMARY KEY,
    label text NOT NULL
);

CREATE TABLE episodes (
    episode_id uuid PRIMARY KEY,
    show_id bigint NOT NULL REFERENCES shows(show_id),
    title text NOT NULL,
    published_at timestamptz NOT NULL
);

CREATE TABLE episode_topics (
    episode_id uuid NOT NULL REFERENCES episodes(episode_id),
    topic text NOT NULL,
    PRIMARY KEY (episode_id, topic)
);

CREATE TABLE plays (
    play_id uuid PRIMARY KEY,
    episode_id uuid NOT NULL REFERENCES episodes(episode_id),
    listener_id bigint NOT NULL,
    played_at timestamptz NOT NULL,
    seconds integer NOT NULL
);
