-- The helpdesk's SQL: the Rails app's ActiveRecord queries with `?`
-- (sanitized SQL), then the Django reporting service's with `%s`.

-- @name org_by_subdomain @rate 500/s @cl LOCAL_ONE
SELECT id, name, plan FROM organizations WHERE subdomain = ? LIMIT 1;

-- @name agent_by_email @rate 20/s
SELECT id, name, role, active FROM agents WHERE organization_id = ? AND email = ? LIMIT 1;

-- @name ticket_by_id @rate 400/s
SELECT id, subject, status, priority, requester_id, assignee_id, group_id, updated_at FROM tickets WHERE id = ?;

-- @name my_open_tickets @rate 150/s @page 30
SELECT id, subject, priority, updated_at FROM tickets
WHERE assignee_id = ? AND status = 'open' ORDER BY updated_at DESC LIMIT 30;

-- @name group_queue @rate 80/s @page 30
SELECT id, subject, priority, created_at FROM tickets
WHERE group_id IN (SELECT group_id FROM group_memberships WHERE agent_id = ?)
  AND status = ?
ORDER BY created_at DESC LIMIT 30;

-- @name requester_tickets @rate 40/s
SELECT id, subject, status, created_at FROM tickets WHERE requester_id = ? ORDER BY created_at DESC LIMIT 25;

-- @name ticket_conversation @rate 300/s
SELECT id, body, public, author_agent_id, author_requester_id, created_at FROM ticket_comments
WHERE ticket_id = ? ORDER BY created_at;

-- @name conversation_attachments @rate 120/s
SELECT id, comment_id, filename, content_type, size_bytes FROM attachments
WHERE comment_id IN (SELECT id FROM ticket_comments WHERE ticket_id = ?);

-- @name ticket_tag_names @rate 300/s
SELECT tags.name FROM ticket_tags JOIN tags ON tags.id = ticket_tags.tag_id WHERE ticket_tags.ticket_id = ?;

-- @name tickets_tagged @rate 10/s
SELECT t.id, t.subject FROM tickets t
WHERE t.organization_id = ?
  AND EXISTS (SELECT 1 FROM ticket_tags tt WHERE tt.ticket_id = t.id AND tt.tag_id = ?);

-- @name ticket_timeline @rate 60/s
SELECT created_at, seq, kind, actor_agent_id, data FROM ticket_events
WHERE ticket_id = ? AND created_at > ? ORDER BY created_at, seq;

-- @name breaching_in_group @rate 2/s
WITH at_risk AS (
    SELECT ticket_id, resolve_due FROM sla_targets WHERE breached = false
)
SELECT t.id, t.subject, r.resolve_due
FROM at_risk r JOIN tickets t ON t.id = r.ticket_id
WHERE t.group_id = ?;

-- @name category_tree @rate 5/s
WITH RECURSIVE tree AS (
    SELECT id, parent_id, name FROM categories WHERE id = ?
    UNION ALL
    SELECT c.id, c.parent_id, c.name FROM categories c JOIN tree ON c.parent_id = tree.id
)
SELECT id, parent_id, name FROM tree;

-- @name category_articles @rate 200/s
SELECT id, title, votes, published_at FROM articles WHERE category_id = ? AND locale = ? ORDER BY published_at DESC;

-- @name unrated_solved @rate 1/s
SELECT id, subject FROM tickets
WHERE requester_id = ? AND status = 'solved'
  AND id NOT IN (SELECT ticket_id FROM satisfaction_ratings);

-- @name unread_notifications @rate 250/s
SELECT id, ticket_id, kind, created_at FROM notifications WHERE agent_id = ? ORDER BY id DESC LIMIT 50;

-- @name org_holidays @rate 1/s
SELECT day, name FROM holidays WHERE organization_id = ? AND day >= ?;

-- @name create_ticket @rate 30/s
INSERT INTO tickets (organization_id, brand_id, requester_id, group_id, status, priority, channel, subject, created_at, updated_at)
VALUES (?, ?, ?, ?, 'new', ?, ?, ?, ?, ?);

-- @name add_comment @rate 90/s
INSERT INTO ticket_comments (ticket_id, author_agent_id, author_requester_id, body, public, created_at)
VALUES (?, ?, ?, ?, ?, ?);

-- @name append_event @rate 200/s
INSERT INTO ticket_events (ticket_id, created_at, seq, kind, actor_agent_id, data) VALUES (?, ?, ?, ?, ?, ?);

-- @name assign @rate 40/s
UPDATE tickets SET assignee_id = ?, updated_at = ? WHERE id = ?;

-- @name assign_by_email @rate 5/s
UPDATE tickets SET assignee_id = a.id, updated_at = now()
FROM agents a
WHERE a.organization_id = ? AND a.email = ? AND tickets.id = ?;

-- @name solve @rate 25/s
UPDATE tickets SET status = 'solved', solved_at = ?, updated_at = ? WHERE id = ? AND status = 'open';

-- @name unfollow_by_email @rate 1/s
DELETE FROM ticket_followers USING agents a
WHERE ticket_followers.agent_id = a.id AND a.organization_id = ? AND a.email = ? AND ticket_followers.ticket_id = ?;

-- @name tag_ticket @rate 30/s
INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?) ON CONFLICT DO NOTHING;

-- @name vote_article @rate 3/s
INSERT INTO article_votes (article_id, requester_id, up) VALUES (?, ?, ?)
ON CONFLICT (article_id, requester_id) DO UPDATE SET up = EXCLUDED.up;

-- @name count_vote @rate 3/s
UPDATE articles SET votes = votes + 1 WHERE id = ?;

-- @name purge_old_events @rate 1/h @path admin
DELETE FROM ticket_events WHERE created_at < now() - interval '2 years';

-- Django reporting service (`%s`).

-- @name agent_time_on_ticket @rate 2/s
SELECT agent_id, sum(minutes) FROM time_entries WHERE ticket_id = %s GROUP BY agent_id;

-- @name org_satisfaction @rate 1/min @path analytics
SELECT score, count(*) FROM satisfaction_ratings
WHERE ticket_id IN (SELECT id FROM tickets WHERE organization_id = %s)
GROUP BY score;

-- @name new_in_brand @rate 4/s
SELECT x.id, x.subject FROM (SELECT id, subject, brand_id FROM tickets WHERE status = 'new') AS x
WHERE x.brand_id = %s;

-- @name log_time @rate 10/s
INSERT INTO time_entries (ticket_id, agent_id, minutes, logged_at) VALUES (%s, %s, %s, %s);
