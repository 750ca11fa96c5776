-- A video-channel membership service: reference tables read whole, channels
-- with a few very large audiences, and members' activity with no retention.
CREATE TABLE plans (
    plan_code text PRIMARY KEY,
    title text NOT NULL,
    monthly_cents integer NOT NULL
);

CREATE TABLE countries (
    country_code char(2) PRIMARY KEY,
    country_name text NOT NULL
);

CREATE TABLE channels (
    channel_id bigint PRIMARY KEY,
    title text NOT NULL,
    plan_code text NOT NULL REFERENCES plans(plan_code),
    created_at timestamptz NOT NULL
);

CREATE TABLE memberships (
    channel_id bigint NOT NULL REFERENCES channels(channel_id),
    member_id bigint NOT NULL,
    joined_at timestamptz NOT NULL,
    country_code char(2) REFERENCES countries(country_code),
    PRIMARY KEY (channel_id, member_id)
);

CREATE TABLE channel_events (
    channel_id bigint NOT NULL REFERENCES channels(channel_id),
    event_id uuid NOT NULL,
    happened_at timestamptz NOT NULL,
    kind text NOT NULL,
    detail text,
    PRIMARY KEY (channel_id, event_id)
);
