-- @name list_plans @rate 50/s
SELECT plan_code, title, monthly_cents FROM plans;

-- @name list_countries @rate 5/s
SELECT country_code, country_name FROM countries;

-- @name channel_members @rate 200/s @page 100
SELECT c.title, m.member_id, m.joined_at
FROM channels c JOIN memberships m ON m.channel_id = c.channel_id
WHERE c.channel_id = $1;

-- @name is_member @rate 3000/s
SELECT joined_at FROM memberships WHERE channel_id = $1 AND member_id = $2;

-- @name channel_timeline @rate 100/s
SELECT c.title, e.event_id, e.happened_at, e.kind, e.detail
FROM channels c JOIN channel_events e ON e.channel_id = c.channel_id
WHERE c.channel_id = $1 AND e.happened_at >= $2
ORDER BY e.happened_at DESC LIMIT 50;

-- @name join_channel @rate 100/s
INSERT INTO memberships (channel_id, member_id, joined_at, country_code) VALUES ($1, $2, now(), $3);

-- @name leave_channel @rate 20/s
DELETE FROM memberships WHERE channel_id = $1 AND member_id = $2;

-- @name rename_channel @rate 1/s
UPDATE channels SET title = $2 WHERE channel_id = $1;

-- @name record_event @rate 400/s
INSERT INTO channel_events (channel_id, event_id, happened_at, kind, detail) VALUES ($1, $2, $3, $4, $5);

-- @name add_plan @rate 1/h
INSERT INTO plans (plan_code, title, monthly_cents) VALUES ($1, $2, $3);
