-- A Rails application's database: its bookkeeping tables and two models.
CREATE TABLE schema_migrations (version character varying NOT NULL PRIMARY KEY);
CREATE TABLE ar_internal_metadata (
    key character varying NOT NULL PRIMARY KEY,
    value character varying,
    created_at timestamp(6) without time zone NOT NULL,
    updated_at timestamp(6) without time zone NOT NULL
);
CREATE TABLE users (
    id bigserial PRIMARY KEY,
    email character varying DEFAULT '' NOT NULL,
    created_at timestamp(6) without time zone NOT NULL,
    updated_at timestamp(6) without time zone NOT NULL
);
CREATE UNIQUE INDEX index_users_on_email ON users USING btree (email);
CREATE TABLE comments (
    id bigserial PRIMARY KEY,
    user_id bigint NOT NULL,
    body text,
    created_at timestamp(6) without time zone NOT NULL,
    updated_at timestamp(6) without time zone NOT NULL
);
CREATE INDEX index_comments_on_user_id ON comments USING btree (user_id);
ALTER TABLE ONLY comments ADD CONSTRAINT fk_rails_03de2dc08c FOREIGN KEY (user_id) REFERENCES users(id);
