-- @name document @rate 50/s
SELECT title, body, embedding FROM documents WHERE doc_id = $1;

-- @name in_collection @rate 20/s
SELECT doc_id, title FROM documents WHERE collection = $1;

-- @name search_text @rate 5/s
SELECT doc_id, title FROM documents WHERE tsv @@ plainto_tsquery('english', $1);

-- @name similar_in_collection @rate 10/s
SELECT doc_id, title FROM documents WHERE collection = $1 ORDER BY embedding <-> $2 LIMIT 5;
