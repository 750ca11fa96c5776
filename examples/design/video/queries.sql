-- The video-sharing site's statements, as it runs them on PostgreSQL today. The
-- comment line right above each statement annotates it: its name in the design
-- report, its rate (executions per second, or per min, h, day), the consistency
-- level it needs on Cassandra and, for a query that pages, the page size.

-- Videos ---------------------------------------------------------------------

-- The watch page: a video with its channel and category.
-- @name video_by_id @rate 20000/s @cl LOCAL_ONE
SELECT v.video_id, v.title, v.description, v.duration_seconds, v.published_at, v.thumbnail_url,
       c.channel_id, c.handle, c.title AS channel_title, k.name AS category
  FROM public.videos v
  JOIN public.channels c ON c.channel_id = v.channel_id
  JOIN public.categories k ON k.category_id = v.category_id
 WHERE v.video_id = $1;

-- A channel's videos, newest first.
-- @name videos_of_channel @rate 2000/s @cl LOCAL_ONE @page 30
SELECT video_id, title, duration_seconds, published_at, thumbnail_url
  FROM public.videos
 WHERE channel_id = $1
   AND visibility = 'public'
 ORDER BY published_at DESC
 LIMIT 30;

-- The newest videos of a category (the category page).
-- @name recent_videos_of_category @rate 500/s @cl LOCAL_ONE @page 30
SELECT video_id, channel_id, title, duration_seconds, published_at, thumbnail_url
  FROM public.videos
 WHERE category_id = $1
   AND published_at > $2
 ORDER BY published_at DESC
 LIMIT 30;

-- The videos carrying a tag, newest first.
-- @name videos_by_tag @rate 300/s @cl LOCAL_ONE @page 30
SELECT v.video_id, v.title, v.published_at, v.thumbnail_url
  FROM public.tags t
  JOIN public.video_tags vt ON vt.tag_id = t.tag_id
  JOIN public.videos v ON v.video_id = vt.video_id
 WHERE t.name = $1
 ORDER BY v.published_at DESC
 LIMIT 30;

-- @name tags_of_video @rate 5000/s @cl LOCAL_ONE
SELECT t.tag_id, t.name
  FROM public.video_tags vt
  JOIN public.tags t ON t.tag_id = vt.tag_id
 WHERE vt.video_id = $1;

-- @name captions_of_video @rate 3000/s @cl LOCAL_ONE
SELECT language, url, auto_generated
  FROM public.captions
 WHERE video_id = $1;

-- @name caption_of_video_in_language @rate 1000/s @cl LOCAL_ONE
SELECT url, auto_generated
  FROM public.captions
 WHERE video_id = $1
   AND language = $2;

-- The category menu: about 40 rows, read on every page.
-- @name all_categories @rate 500/s @cl LOCAL_ONE
SELECT category_id, name
  FROM public.categories
 ORDER BY name;

-- Title search: a substring match over every video.
-- @name search_videos_by_title @rate 200/s @cl LOCAL_ONE @page 20
SELECT video_id, title, published_at
  FROM public.videos
 WHERE title LIKE $1
 ORDER BY published_at DESC
 LIMIT 20;

-- Trending: the most viewed videos of the last 24 hours.
-- @name trending_videos @rate 1/min @cl LOCAL_ONE
SELECT video_id, count(*) AS views
  FROM public.views
 WHERE viewed_at >= $1
 GROUP BY video_id
 ORDER BY views DESC
 LIMIT 50;

-- Comments -------------------------------------------------------------------

-- The comments under a video, newest first.
-- @name comments_of_video @rate 4000/s @cl LOCAL_ONE @page 20
SELECT c.comment_id, c.author_id, u.username, c.body, c.created_at
  FROM public.comments c
  JOIN public.users u ON u.user_id = c.author_id
 WHERE c.video_id = $1
   AND c.created_at < $2
 ORDER BY c.created_at DESC
 LIMIT 20;

-- The replies to a comment, oldest first.
-- @name replies_of_comment @rate 800/s @cl LOCAL_ONE @page 20
SELECT c.comment_id, c.author_id, u.username, c.body, c.created_at
  FROM public.comments c
  JOIN public.users u ON u.user_id = c.author_id
 WHERE c.parent_id = $1
 ORDER BY c.created_at ASC
 LIMIT 20;

-- A user's comments, newest first (their history page).
-- @name comments_of_user @rate 50/s @cl LOCAL_ONE @page 20
SELECT comment_id, video_id, body, created_at
  FROM public.comments
 WHERE author_id = $1
 ORDER BY created_at DESC
 LIMIT 20;

-- @name comment_like_count @rate 4000/s @cl LOCAL_ONE
SELECT count(*) AS likes
  FROM public.comment_likes
 WHERE comment_id = $1;

-- Likes ----------------------------------------------------------------------

-- The like count under the player.
-- @name like_count_of_video @rate 20000/s @cl LOCAL_ONE
SELECT count(*) AS likes
  FROM public.video_likes
 WHERE video_id = $1
   AND is_dislike = false;

-- Whether the viewer liked the video (the highlighted thumb).
-- @name like_of_user_for_video @rate 15000/s @cl LOCAL_ONE
SELECT is_dislike, created_at
  FROM public.video_likes
 WHERE video_id = $1
   AND user_id = $2;

-- The "Liked videos" playlist.
-- @name liked_videos_of_user @rate 100/s @cl LOCAL_ONE @page 50
SELECT l.video_id, v.title, v.thumbnail_url, l.created_at
  FROM public.video_likes l
  JOIN public.videos v ON v.video_id = l.video_id
 WHERE l.user_id = $1
   AND l.is_dislike = false
 ORDER BY l.created_at DESC
 LIMIT 50;

-- Channels and subscriptions -------------------------------------------------

-- @name channel_by_id @rate 3000/s @cl LOCAL_ONE
SELECT channel_id, owner_id, handle, title, description, created_at
  FROM public.channels
 WHERE channel_id = $1;

-- A channel by its handle (/@handle).
-- @name channel_by_handle @rate 1000/s @cl LOCAL_ONE
SELECT channel_id, owner_id, title, description, created_at
  FROM public.channels
 WHERE handle = $1;

-- The channels a user owns (the studio's channel switcher).
-- @name channels_of_owner @rate 20/s @cl LOCAL_ONE
SELECT channel_id, handle, title
  FROM public.channels
 WHERE owner_id = $1;

-- The channels a user subscribes to, newest first.
-- @name subscriptions_of_user @rate 300/s @cl LOCAL_ONE @page 100
SELECT c.channel_id, c.handle, c.title, s.subscribed_at
  FROM public.subscriptions s
  JOIN public.channels c ON c.channel_id = s.channel_id
 WHERE s.user_id = $1
 ORDER BY s.subscribed_at DESC;

-- The subscribers of a channel (the studio's audience page).
-- @name subscribers_of_channel @rate 20/s @cl LOCAL_ONE @page 100
SELECT u.user_id, u.username, s.subscribed_at
  FROM public.subscriptions s
  JOIN public.users u ON u.user_id = s.user_id
 WHERE s.channel_id = $1
 ORDER BY s.subscribed_at DESC;

-- @name subscriber_count @rate 3000/s @cl LOCAL_ONE
SELECT count(*) AS subscribers
  FROM public.subscriptions
 WHERE channel_id = $1;

-- @name is_subscribed @rate 15000/s @cl LOCAL_ONE
SELECT notify, subscribed_at
  FROM public.subscriptions
 WHERE user_id = $1
   AND channel_id = $2;

-- The subscriptions feed: new videos of the channels a user subscribes to.
-- @name subscription_feed @rate 3000/s @cl LOCAL_ONE @page 30
SELECT v.video_id, v.channel_id, c.title AS channel_title, v.title, v.thumbnail_url, v.published_at
  FROM public.subscriptions s
  JOIN public.videos v ON v.channel_id = s.channel_id
  JOIN public.channels c ON c.channel_id = v.channel_id
 WHERE s.user_id = $1
   AND v.published_at < $2
 ORDER BY v.published_at DESC
 LIMIT 30;

-- Playlists ------------------------------------------------------------------

-- @name playlist_by_id @rate 800/s @cl LOCAL_ONE
SELECT p.playlist_id, p.owner_id, u.username, p.title, p.is_public, p.created_at
  FROM public.playlists p
  JOIN public.users u ON u.user_id = p.owner_id
 WHERE p.playlist_id = $1;

-- @name playlists_of_user @rate 200/s @cl LOCAL_ONE @page 50
SELECT playlist_id, title, is_public, created_at
  FROM public.playlists
 WHERE owner_id = $1
 ORDER BY created_at DESC;

-- A playlist's videos in playlist order.
-- @name items_of_playlist @rate 800/s @cl LOCAL_ONE @page 50
SELECT i."position", v.video_id, v.title, v.duration_seconds, v.thumbnail_url
  FROM public.playlist_items i
  JOIN public.videos v ON v.video_id = i.video_id
 WHERE i.playlist_id = $1
 ORDER BY i."position"
 LIMIT 50;

-- Users, history, notifications ----------------------------------------------

-- @name user_by_id @rate 5000/s @cl LOCAL_ONE
SELECT user_id, username, display_name, country, created_at
  FROM public.users
 WHERE user_id = $1;

-- @name user_by_username @rate 300/s @cl LOCAL_ONE
SELECT user_id, display_name, country, created_at
  FROM public.users
 WHERE username = $1;

-- Sign-in.
-- @name user_by_email @rate 100/s @cl LOCAL_QUORUM
SELECT user_id, username, display_name
  FROM public.users
 WHERE email = $1;

-- The history page: what a user watched, most recent first.
-- @name watch_history_of_user @rate 300/s @cl LOCAL_ONE @page 50
SELECT h.video_id, v.title, v.thumbnail_url, h.last_watched_at, h.position_seconds
  FROM public.watch_history h
  JOIN public.videos v ON v.video_id = h.video_id
 WHERE h.user_id = $1
 ORDER BY h.last_watched_at DESC
 LIMIT 50;

-- Where to resume playback.
-- @name resume_position @rate 10000/s @cl LOCAL_ONE
SELECT position_seconds, last_watched_at
  FROM public.watch_history
 WHERE user_id = $1
   AND video_id = $2;

-- The bell: a user's notifications since a time, newest first.
-- @name notifications_of_user @rate 4000/s @cl LOCAL_ONE @page 20
SELECT notification_id, kind, video_id, message, created_at, read_at
  FROM public.notifications
 WHERE user_id = $1
   AND created_at > $2
 ORDER BY created_at DESC
 LIMIT 20;

-- Views and moderation -------------------------------------------------------

-- A video's views over a range, per day, for its creator's analytics page.
-- @name daily_views_of_video @rate 50/s @cl LOCAL_ONE
SELECT date_trunc('day', viewed_at) AS day, count(*) AS views, sum(watch_seconds) AS watch_seconds
  FROM public.views
 WHERE video_id = $1
   AND viewed_at >= $2
   AND viewed_at < $3
 GROUP BY date_trunc('day', viewed_at)
 ORDER BY day;

-- The view count under the player.
-- @name view_count_of_video @rate 20000/s @cl LOCAL_ONE
SELECT count(*) AS views
  FROM public.views
 WHERE video_id = $1;

-- The moderation queue: reports in a status, oldest first.
-- @name reports_by_status @rate 5/s @cl LOCAL_QUORUM @page 50
SELECT r.report_id, r.video_id, v.title, r.reason, r.created_at
  FROM public.reports r
  JOIN public.videos v ON v.video_id = r.video_id
 WHERE r.status = $1
 ORDER BY r.created_at ASC
 LIMIT 50;

-- @name reports_of_video @rate 2/s @cl LOCAL_QUORUM
SELECT report_id, reporter_id, reason, status, created_at, resolved_at
  FROM public.reports
 WHERE video_id = $1
 ORDER BY created_at DESC;

-- Mutations ------------------------------------------------------------------

-- @name sign_up @rate 20/s @cl LOCAL_QUORUM
INSERT INTO public.users (user_id, username, email, display_name, country, created_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- @name create_channel @rate 1/s @cl LOCAL_QUORUM
INSERT INTO public.channels (channel_id, owner_id, handle, title, description, created_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- @name rename_channel @rate 10/min @cl LOCAL_QUORUM
UPDATE public.channels
   SET title = $2
 WHERE channel_id = $1;

-- Publishing a video also notifies the subscribers who asked to be.
-- @name publish_video @rate 10/s @cl LOCAL_QUORUM
INSERT INTO public.videos (video_id, channel_id, category_id, title, description, duration_seconds,
                           visibility, published_at, thumbnail_url)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- @name edit_video_title @rate 1/s @cl LOCAL_QUORUM
UPDATE public.videos
   SET title = $2,
       description = $3
 WHERE video_id = $1;

-- @name delete_video @rate 1/min @cl LOCAL_QUORUM
DELETE FROM public.videos
 WHERE video_id = $1;

-- @name tag_video @rate 50/s @cl LOCAL_QUORUM
INSERT INTO public.video_tags (video_id, tag_id)
VALUES ($1, $2);

-- @name add_caption @rate 20/s @cl LOCAL_QUORUM
INSERT INTO public.captions (video_id, language, url, auto_generated)
VALUES ($1, $2, $3, $4);

-- @name post_comment @rate 500/s @cl LOCAL_QUORUM
INSERT INTO public.comments (comment_id, video_id, author_id, parent_id, body, created_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- @name delete_comment @rate 5/s @cl LOCAL_QUORUM
DELETE FROM public.comments
 WHERE comment_id = $1;

-- @name like_comment @rate 800/s @cl LOCAL_ONE
INSERT INTO public.comment_likes (comment_id, user_id, created_at)
VALUES ($1, $2, $3);

-- @name like_video @rate 2000/s @cl LOCAL_ONE
INSERT INTO public.video_likes (video_id, user_id, is_dislike, created_at)
VALUES ($1, $2, $3, $4);

-- @name unlike_video @rate 100/s @cl LOCAL_ONE
DELETE FROM public.video_likes
 WHERE video_id = $1
   AND user_id = $2;

-- @name subscribe @rate 300/s @cl LOCAL_QUORUM
INSERT INTO public.subscriptions (user_id, channel_id, notify, subscribed_at)
VALUES ($1, $2, $3, $4);

-- @name unsubscribe @rate 30/s @cl LOCAL_QUORUM
DELETE FROM public.subscriptions
 WHERE user_id = $1
   AND channel_id = $2;

-- @name create_playlist @rate 5/s @cl LOCAL_QUORUM
INSERT INTO public.playlists (playlist_id, owner_id, title, is_public, created_at)
VALUES ($1, $2, $3, $4, $5);

-- @name add_to_playlist @rate 50/s @cl LOCAL_QUORUM
INSERT INTO public.playlist_items (playlist_id, "position", video_id, added_at)
VALUES ($1, $2, $3, $4);

-- @name remove_from_playlist @rate 5/s @cl LOCAL_QUORUM
DELETE FROM public.playlist_items
 WHERE playlist_id = $1
   AND "position" = $2;

-- Every playback start.
-- @name record_view @rate 20000/s @cl LOCAL_ONE
INSERT INTO public.views (view_id, video_id, user_id, viewed_at, watch_seconds, client_ip)
VALUES ($1, $2, $3, $4, $5, $6);

-- The player saves the position every 30 seconds.
-- @name save_watch_position @rate 8000/s @cl LOCAL_ONE
UPDATE public.watch_history
   SET position_seconds = $3,
       last_watched_at = $4
 WHERE user_id = $1
   AND video_id = $2;

-- @name notify_user @rate 6000/s @cl LOCAL_ONE
INSERT INTO public.notifications (notification_id, user_id, kind, video_id, message, created_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- @name mark_notification_read @rate 500/s @cl LOCAL_ONE
UPDATE public.notifications
   SET read_at = $2
 WHERE notification_id = $1;

-- @name report_video @rate 1/s @cl LOCAL_QUORUM
INSERT INTO public.reports (video_id, reporter_id, reason, status, created_at)
VALUES ($1, $2, $3, 'open', $4);

-- status is a key of the moderation queue: on Cassandra a change moves the row.
-- @name resolve_report @rate 1/s @cl LOCAL_QUORUM
UPDATE public.reports
   SET status = $2,
       resolved_at = $3
 WHERE report_id = $1;
