-- The activity log's statements, as the application runs them on PostgreSQL
-- today. The comment line right above each statement annotates it: its name in
-- the design report, its rate (executions per second, or per min, h, day), the
-- consistency level it needs on Cassandra and, for a query that pages, the page
-- size.

-- Query 1 of seed 001: a user's 20 latest activities.
-- @name latest_activities_of_user @rate 1000/s @cl LOCAL_ONE
SELECT activity_id, occurred_at, activity_type, details
  FROM public.activities
 WHERE user_id = $1
 ORDER BY occurred_at DESC
 LIMIT 20;

-- Query 2 of seed 001: everything a user did on one day ($2 = the day's start,
-- $3 = the next day's start, in the user's time zone).
-- @name activities_of_user_on_day @rate 100/s @cl LOCAL_ONE @page 100
SELECT activity_id, occurred_at, activity_type, details, source_ip
  FROM public.activities
 WHERE user_id = $1
   AND occurred_at >= $2
   AND occurred_at < $3
 ORDER BY occurred_at DESC;

-- One activity, from a link in a security e-mail.
-- @name activity_by_id @rate 10/s @cl LOCAL_ONE
SELECT a.activity_id, a.user_id, u.email, a.occurred_at, a.activity_type, a.details, a.source_ip
  FROM public.activities a
  JOIN public.users u ON u.user_id = a.user_id
 WHERE a.activity_id = $1;

-- @name user_by_id @rate 500/s @cl LOCAL_ONE
SELECT user_id, email, name, country, created_at
  FROM public.users
 WHERE user_id = $1;

-- @name user_by_email @rate 50/s @cl LOCAL_QUORUM
SELECT user_id, name, country
  FROM public.users
 WHERE email = $1;

-- Activity counts per type for a user over a range (the "your week" summary).
-- @name activity_summary_of_user @rate 2/s @cl LOCAL_ONE
SELECT activity_type, count(*) AS times
  FROM public.activities
 WHERE user_id = $1
   AND occurred_at >= $2
 GROUP BY activity_type
 ORDER BY times DESC;

-- Sign-ins from one address in the last hour, across all users (fraud check).
-- @name activities_from_ip @rate 1/min @cl LOCAL_ONE
SELECT user_id, occurred_at, activity_type
  FROM public.activities
 WHERE source_ip = $1
   AND occurred_at >= $2;

-- Mutations -----------------------------------------------------------------

-- @name record_activity @rate 5000/s @cl LOCAL_ONE
INSERT INTO public.activities (activity_id, user_id, occurred_at, activity_type, details, source_ip)
VALUES ($1, $2, $3, $4, $5, $6);

-- @name register_user @rate 5/s @cl LOCAL_QUORUM
INSERT INTO public.users (user_id, email, name, country, created_at)
VALUES ($1, $2, $3, $4, $5);

-- @name rename_user @rate 1/s @cl LOCAL_QUORUM
UPDATE public.users
   SET name = $2
 WHERE user_id = $1;

-- Right to erasure: a user's whole history goes.
-- @name erase_user_activities @rate 20/h @cl LOCAL_QUORUM
DELETE FROM public.activities
 WHERE user_id = $1;

-- @name delete_user @rate 20/h @cl LOCAL_QUORUM
DELETE FROM public.users
 WHERE user_id = $1;
