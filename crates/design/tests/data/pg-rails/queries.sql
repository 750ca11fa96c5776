-- @name user_by_email @rate 30/s
SELECT id FROM users WHERE email = ?;

-- @name comments_of_user @rate 60/s
SELECT id, body, created_at FROM comments WHERE user_id = ? ORDER BY created_at DESC LIMIT 25;

-- @name post_comment @rate 5/s
INSERT INTO comments (user_id, body, created_at, updated_at) VALUES (?, ?, ?, ?);
