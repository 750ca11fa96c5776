-- An identity service's access tokens: a member holds many tokens of several
-- kinds, each expiring; revoking a member's tokens is a delete by member
-- (written for cqlmodel's tests: a fan-out delete whose first listing table
-- lacks the columns the other tables' deletes need).
CREATE TABLE members (
    member_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL
);

CREATE TABLE tokens (
    token_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    member_id   bigint NOT NULL REFERENCES members (member_id),
    kind        text NOT NULL,
    expires_at  timestamptz NOT NULL,
    secret      text NOT NULL
);
CREATE INDEX tokens_member_id ON tokens (member_id);
CREATE INDEX tokens_kind_expires_at ON tokens (kind, expires_at);
