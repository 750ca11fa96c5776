//! The synthetic application of the core bench's design group and of the
//! `design_scale` example: one generator, so both measure the same input.

/// A model of `n` tables in chains of five (each table a child of the one
/// before, a natural UNIQUE code, a version and a counter-like column), and
/// five statements per table: a point read, a child list, an insert that
/// claims its code, an optimistic-locking update and an increment.
pub fn synthetic_application(n: usize) -> (String, String) {
    let mut model = String::new();
    let mut queries = String::new();
    for i in 0..n {
        let parent = (i % 5 != 0).then(|| i - 1);
        model.push_str(&format!(
            "CREATE TABLE t{i} (\n    id bigint PRIMARY KEY,\n    code text NOT NULL UNIQUE,\n    name text,\n    version integer NOT NULL,\n    hits bigint NOT NULL,\n    created_at timestamptz NOT NULL{}\n);\n",
            parent.map_or(String::new(), |p| format!(",\n    parent_id bigint NOT NULL REFERENCES t{p} (id)"))
        ));
        queries.push_str(&format!(
            "-- @name get_{i} @rate 100/s\nSELECT code, name, hits FROM t{i} WHERE id = $1;\n"
        ));
        match parent {
            Some(_) => queries.push_str(&format!(
                "-- @name list_{i} @rate 50/s @page 20\nSELECT id, name, created_at FROM t{i} WHERE parent_id = $1 ORDER BY created_at DESC LIMIT 20;\n"
            )),
            None => queries.push_str(&format!(
                "-- @name by_code_{i} @rate 50/s\nSELECT id, name FROM t{i} WHERE code = $1;\n"
            )),
        }
        let (cols, vals) = match parent {
            Some(_) => (
                "id, code, name, version, hits, created_at, parent_id",
                "$1, $2, $3, 1, 0, $4, $5",
            ),
            None => (
                "id, code, name, version, hits, created_at",
                "$1, $2, $3, 1, 0, $4",
            ),
        };
        queries.push_str(&format!(
            "-- @name add_{i} @rate 10/s\nINSERT INTO t{i} ({cols}) VALUES ({vals});\n-- @name rename_{i} @rate 5/s\nUPDATE t{i} SET name = $3, version = version + 1 WHERE id = $1 AND version = $2;\n-- @name hit_{i} @rate 200/s\nUPDATE t{i} SET hits = hits + 1 WHERE id = $1;\n"
        ));
    }
    (model, queries)
}
