-- @name timeline @rate 200/s
SELECT post_id, posted_at, body FROM posts WHERE author_id = $1 ORDER BY posted_at DESC LIMIT 20;

-- @name author_by_handle @rate 100/s
SELECT author_id, display_name FROM authors WHERE handle = $1;
