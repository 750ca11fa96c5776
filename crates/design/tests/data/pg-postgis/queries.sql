-- @name shops_in_city @rate 30/s
SELECT shop_id, name, location FROM shops WHERE city = $1;

-- @name shops_near @rate 10/s
SELECT shop_id, name FROM shops WHERE ST_DWithin(location, ST_MakePoint($1, $2), $3);
