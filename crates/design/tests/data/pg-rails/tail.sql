SET search_path TO "$user", public;

INSERT INTO "schema_migrations" (version) VALUES
('20250114093000'),
('20250302120000'),
('20250611081500');

