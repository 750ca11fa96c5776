-- @name sample @rate 10/s
SELECT whole, price, wait, host, span, words FROM samples WHERE sample_id = $1;

-- @name views_of_url @rate 20/s
SELECT viewed_at, referrer FROM page_views WHERE url = $1;

-- @name find_text @rate 2/s
SELECT sample_id FROM samples WHERE words @@ to_tsquery($1);
