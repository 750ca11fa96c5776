SET search_path TO "$user", public;

INSERT INTO "schema_migrations" (version) VALUES
('20240902101500'),
('20250217144000'),
('20251020083000');
