-- The social network's statements, as it runs them on PostgreSQL today. The
-- comment line right above each statement annotates it: its name in the design
-- report, its rate (executions per second, or per min, h, day), the consistency
-- level it needs on Cassandra and, for a query that pages, the page size.

-- The home timeline: the newest posts of the people a user follows, 50 a page;
-- $2 is the created_at of the last post of the previous page (now() for the first).
-- @name home_timeline @rate 5000/s @cl LOCAL_ONE @page 50
SELECT p.post_id, p.author_id, u.username, u.display_name, p.body, p.media_url, p.created_at
  FROM public.follows f
  JOIN public.posts p ON p.author_id = f.followee_id
  JOIN public.users u ON u.user_id = p.author_id
 WHERE f.follower_id = $1
   AND p.created_at < $2
 ORDER BY p.created_at DESC
 LIMIT 50;

-- A user's own posts, newest first (the profile page).
-- @name posts_of_user @rate 800/s @cl LOCAL_ONE @page 20
SELECT post_id, body, media_url, created_at
  FROM public.posts
 WHERE author_id = $1
   AND created_at < $2
 ORDER BY created_at DESC
 LIMIT 20;

-- One post, with its author's name (a shared link, a notification).
-- @name post_by_id @rate 2000/s @cl LOCAL_ONE
SELECT p.post_id, p.author_id, u.username, u.display_name, p.body, p.media_url, p.created_at
  FROM public.posts p
  JOIN public.users u ON u.user_id = p.author_id
 WHERE p.post_id = $1;

-- The followers of a user, most recent first.
-- @name followers_of_user @rate 100/s @cl LOCAL_ONE @page 100
SELECT u.user_id, u.username, u.display_name, f.created_at
  FROM public.follows f
  JOIN public.users u ON u.user_id = f.follower_id
 WHERE f.followee_id = $1
 ORDER BY f.created_at DESC;

-- The people a user follows.
-- @name following_of_user @rate 100/s @cl LOCAL_ONE @page 100
SELECT u.user_id, u.username, u.display_name, f.created_at
  FROM public.follows f
  JOIN public.users u ON u.user_id = f.followee_id
 WHERE f.follower_id = $1
 ORDER BY f.created_at DESC;

-- Does the viewer follow this profile? (the Follow / Unfollow button)
-- @name is_following @rate 1000/s @cl LOCAL_ONE
SELECT created_at
  FROM public.follows
 WHERE follower_id = $1
   AND followee_id = $2;

-- The follower count on a profile.
-- @name follower_count @rate 1000/s @cl LOCAL_ONE
SELECT count(*) AS followers
  FROM public.follows
 WHERE followee_id = $1;

-- A profile.
-- @name user_by_id @rate 1000/s @cl LOCAL_ONE
SELECT user_id, username, display_name, bio, avatar_url, created_at
  FROM public.users
 WHERE user_id = $1;

-- A profile by its handle (/@alice).
-- @name user_by_username @rate 300/s @cl LOCAL_ONE
SELECT user_id, username, display_name, bio, avatar_url, created_at
  FROM public.users
 WHERE username = $1;

-- Mutations -----------------------------------------------------------------

-- Publishing a post: on Cassandra it also lands in every follower's timeline.
-- @name publish_post @rate 300/s @cl LOCAL_QUORUM
INSERT INTO public.posts (post_id, author_id, body, media_url, created_at)
VALUES ($1, $2, $3, $4, $5);

-- @name delete_post @rate 5/s @cl LOCAL_QUORUM
DELETE FROM public.posts
 WHERE post_id = $1;

-- @name follow_user @rate 50/s @cl LOCAL_QUORUM
INSERT INTO public.follows (follower_id, followee_id, created_at)
VALUES ($1, $2, $3);

-- @name unfollow_user @rate 10/s @cl LOCAL_QUORUM
DELETE FROM public.follows
 WHERE follower_id = $1
   AND followee_id = $2;

-- @name sign_up @rate 2/s @cl LOCAL_QUORUM
INSERT INTO public.users (user_id, username, display_name, bio, avatar_url, created_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- A display-name change is copied into every table that carries it.
-- @name edit_profile @rate 5/s @cl LOCAL_QUORUM
UPDATE public.users
   SET display_name = $2,
       bio = $3,
       avatar_url = $4
 WHERE user_id = $1;
