-- The news site's statements.

-- @name channel_feed @rate 3000/s @cl LOCAL_ONE @page 30
SELECT post_id, title, published_at FROM posts
    WHERE channel_id = $1 AND published_at < $2
    ORDER BY published_at DESC LIMIT 30;

-- @name open_post @rate 1500/s @cl LOCAL_ONE
SELECT channel_id, title, body, published_at FROM posts WHERE post_id = $1;

-- @name tags_of_post @rate 1500/s @cl LOCAL_ONE
SELECT tag FROM post_tags WHERE post_id = $1;

-- @name channel_by_slug @rate 400/s @cl LOCAL_ONE
SELECT channel_id, title FROM channels WHERE slug = $1;

-- @name search_posts @rate 120/s @cl LOCAL_ONE @page 20
SELECT post_id, title, published_at FROM posts
    WHERE title ILIKE $1 OR body ILIKE $1
    ORDER BY published_at DESC LIMIT 20;

-- @name trending_tags @rate 1/min
SELECT tag, count(*) AS uses FROM post_tags
    WHERE tagged_at >= $1
    GROUP BY tag ORDER BY uses DESC LIMIT 20;

-- @name publish_post @rate 30/s
INSERT INTO posts (post_id, channel_id, title, body, published_at) VALUES ($1, $2, $3, $4, $5);

-- @name tag_post @rate 90/s
INSERT INTO post_tags (post_id, tag, tagged_at) VALUES ($1, $2, $3)
    ON CONFLICT (post_id, tag) DO UPDATE SET tagged_at = excluded.tagged_at;

-- @name edit_post @rate 3/s
UPDATE posts SET title = $2, body = $3 WHERE post_id = $1;

-- @name create_channel @rate 1/min
INSERT INTO channels (channel_id, slug, title) VALUES ($1, $2, $3);
