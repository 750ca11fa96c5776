-- @name topics_of_episode @rate 800/s
SELECT topic FROM episode_topics WHERE episode_id = $1;

-- @name episodes_of_show @rate 300/s @page 20
SELECT episode_id, title, published_at FROM episodes
WHERE show_id = $1 ORDER BY published_at DESC LIMIT 20;

-- @name plays_of_episode @rate 50/s @page 100
SELECT play_id, listener_id, played_at, seconds FROM plays
WHERE episode_id = $1 ORDER BY played_at DESC LIMIT 100;

-- @name recent_plays @rate 5/s @page 100
SELECT play_id, episode_id, listener_id, played_at FROM plays
WHERE played_at >= $1 AND played_at < $2 ORDER BY played_at DESC LIMIT 100;

-- @name list_genres @rate 20/s
SELECT genre_code, label FROM genres;

-- @name publish_episode @rate 2/s
INSERT INTO episodes (episode_id, show_id, title, published_at) VALUES ($1, $2, $3, now());

-- @name tag_episode @rate 8/s
INSERT INTO episode_topics (episode_id, topic) VALUES ($1, $2);

-- @name record_play @rate 2000/s
INSERT INTO plays (play_id, episode_id, listener_id, played_at, seconds) VALUES ($1, $2, $3, $4, $5);

-- @name add_genre @rate 1/h
INSERT INTO genres (genre_code, label) VALUES ($1, $2);
