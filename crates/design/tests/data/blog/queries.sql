-- The blog's statements, as the application sends them.

-- @name register @rate 2/s
INSERT INTO users (username, email, display_name) VALUES ($1, $2, $3);

-- @name login @rate 50/s
SELECT user_id, username, display_name FROM users WHERE email = $1;

-- @name profile @rate 300/s
SELECT user_id, display_name, bio, image_url FROM users WHERE username = $1;

-- @name edit_profile @rate 1/s
UPDATE users SET display_name = coalesce($2, display_name), bio = coalesce($3, bio), image_url = coalesce($4, image_url) WHERE user_id = $1;

-- @name publish @rate 5/s
INSERT INTO posts (author_id, slug, title, body) VALUES ($1, $2, $3, $4);

-- @name post_by_slug @rate 500/s
SELECT post_id, title, body, created_at, author_id FROM posts WHERE slug = $1;

-- @name edit_post @rate 2/s
UPDATE posts SET title = $3, body = $4, version = version + 1 WHERE post_id = $1 AND version = $2;

-- @name posts_of_author @rate 100/s @page 20
SELECT post_id, slug, title, created_at FROM posts WHERE author_id = $1 ORDER BY created_at DESC LIMIT 20;

-- @name comment @rate 20/s
INSERT INTO comments (post_id, author_id, body) VALUES ($1, $2, $3);

-- @name comments_of_post @rate 400/s @page 50
SELECT comment_id, author_id, body, created_at FROM comments WHERE post_id = $1 ORDER BY created_at LIMIT 50;

-- @name follow @rate 10/s
INSERT INTO follows (follower_id, followee_id) VALUES ($1, $2) ON CONFLICT DO NOTHING;

-- @name following @rate 50/s
SELECT followee_id, created_at FROM follows WHERE follower_id = $1;

-- @name favorite @rate 30/s
INSERT INTO favorites (user_id, post_id) VALUES ($1, $2) ON CONFLICT DO NOTHING;

-- @name favorites_count @rate 500/s
SELECT count(*) FROM favorites WHERE post_id = $1;

-- @name delete_post @rate 1/min
DELETE FROM posts WHERE post_id = $1;
