//! Relational models: 2–5 tables with single or composite primary keys,
//! foreign keys to earlier tables, columns of the documented type mapping
//! (`docs/design.md`), sometimes a UNIQUE constraint and an enum type; written
//! either with inline constraints or as `pg_dump` writes them.

use super::Draw;

/// What a predicate may do with a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Maps to `timestamp` or `date`: a time range, a time bucket.
    Time,
    /// An integer: ranges too.
    Integer,
    /// Any other scalar: equality and ORDER BY.
    Scalar,
    /// `T[]`: a `list<T>`, never in a key or a predicate.
    List,
}

#[derive(Debug, Clone)]
pub struct Column {
    pub name: String,
    pub pg_type: String,
    pub class: Class,
}

#[derive(Debug, Clone)]
pub struct ForeignKey {
    pub columns: Vec<String>,
    pub parent: usize,
    pub referenced: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    pub primary_key: Vec<String>,
    pub unique: Option<String>,
    pub foreign_keys: Vec<ForeignKey>,
}

impl Table {
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    pub fn non_key(&self) -> Vec<&Column> {
        self.columns
            .iter()
            .filter(|c| !self.primary_key.contains(&c.name))
            .collect()
    }
}

#[derive(Debug, Clone)]
pub struct Model {
    pub tables: Vec<Table>,
    /// `CREATE TYPE public.mood AS ENUM (…)` is declared.
    pub has_enum: bool,
}

const ENTITIES: &[&str] = &[
    "users",
    "posts",
    "orders",
    "devices",
    "sites",
    "readings",
    "products",
    "categories",
    "videos",
    "accounts",
    "comments",
    "payments",
];

/// Primary-key types (a `serial` is referenced as the integer it is).
const ID_TYPES: &[(&str, Class)] = &[
    ("bigint", Class::Integer),
    ("uuid", Class::Scalar),
    ("integer", Class::Integer),
    ("text", Class::Scalar),
    ("bigserial", Class::Integer),
    ("serial", Class::Integer),
    ("int8", Class::Integer),
    ("character varying(40)", Class::Scalar),
    ("int4", Class::Integer),
];

/// Every left-hand side of the type table, plus arrays.
const ATTRIBUTE_TYPES: &[(&str, Class)] = &[
    ("text", Class::Scalar),
    ("timestamp with time zone", Class::Time),
    ("integer", Class::Integer),
    ("bigint", Class::Integer),
    ("timestamptz", Class::Time),
    ("date", Class::Time),
    ("boolean", Class::Scalar),
    ("double precision", Class::Scalar),
    ("numeric(12,2)", Class::Scalar),
    ("smallint", Class::Integer),
    ("uuid", Class::Scalar),
    ("character varying(80)", Class::Scalar),
    ("timestamp", Class::Time),
    ("timestamp(3) without time zone", Class::Time),
    ("int2", Class::Integer),
    ("int", Class::Integer),
    ("int4", Class::Integer),
    ("int8", Class::Integer),
    ("real", Class::Scalar),
    ("float4", Class::Scalar),
    ("float8", Class::Scalar),
    ("decimal", Class::Scalar),
    ("money", Class::Scalar),
    ("bool", Class::Scalar),
    ("varchar", Class::Scalar),
    ("char(3)", Class::Scalar),
    ("character(2)", Class::Scalar),
    ("citext", Class::Scalar),
    ("json", Class::Scalar),
    ("jsonb", Class::Scalar),
    ("xml", Class::Scalar),
    ("interval", Class::Scalar),
    ("time", Class::Scalar),
    ("time with time zone", Class::Scalar),
    ("bytea", Class::Scalar),
    ("inet", Class::Scalar),
    ("cidr", Class::Scalar),
    ("text[]", Class::List),
    ("integer[]", Class::List),
];

const ATTRIBUTE_NAMES: &[&str] = &[
    "name",
    "status",
    "created_at",
    "title",
    "amount",
    "score",
    "quantity",
    "active",
    "payload",
    "labels",
    "updated_at",
    "born_on",
    "ip_address",
    "price",
    "ratio",
    "code",
    "email",
    "note",
    "kind",
    "weight",
    "region",
    "body",
];

/// Local parts of composite keys.
const DISCRIMINATORS: &[(&str, &str, Class)] = &[
    ("seq", "integer", Class::Integer),
    ("created_at", "timestamp with time zone", Class::Time),
    ("line_no", "smallint", Class::Integer),
    ("ts", "timestamptz", Class::Time),
    ("version", "bigint", Class::Integer),
];

/// `orders` → `order`, `categories` → `category`.
pub fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        format!("{stem}y")
    } else {
        word.strip_suffix('s').unwrap_or(word).to_string()
    }
}

/// The type a foreign key column has for a referenced column of this type.
fn referencing_type(pg: &str) -> String {
    match pg {
        "serial" => "integer".into(),
        "bigserial" => "bigint".into(),
        other => other.into(),
    }
}

impl Model {
    pub fn generate(d: &mut Draw) -> Model {
        let n = 2 + d.below(4);
        let names: Vec<&str> = d
            .subset(ENTITIES.len(), n)
            .into_iter()
            .map(|i| ENTITIES[i])
            .collect();
        let has_enum = d.chance(30);
        let mut tables: Vec<Table> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let table = Self::table(d, name, &tables, i, has_enum);
            tables.push(table);
        }
        Model { tables, has_enum }
    }

    fn table(d: &mut Draw, name: &str, earlier: &[Table], i: usize, has_enum: bool) -> Table {
        let own = singular(name);
        let mut columns: Vec<Column> = Vec::new();
        let mut foreign_keys = Vec::new();
        let parents = if i == 0 {
            0
        } else {
            match d.below(10) {
                0..=1 => 0,
                2..=7 => 1,
                _ => 2,
            }
        };
        for parent in d.subset(i, parents) {
            let p = &earlier[parent];
            let ps = singular(&p.name);
            let mut fk = ForeignKey {
                columns: Vec::new(),
                parent,
                referenced: p.primary_key.clone(),
            };
            let mut fk_columns = Vec::new();
            for c in &p.primary_key {
                let name = if c == "id" {
                    format!("{ps}_id")
                } else if c.ends_with("_id") {
                    c.clone()
                } else {
                    format!("{ps}_{c}")
                };
                let Some(pc) = p.column(c) else { continue };
                fk_columns.push(Column {
                    name: name.clone(),
                    pg_type: referencing_type(&pc.pg_type),
                    class: pc.class,
                });
                fk.columns.push(name);
            }
            let clash = fk_columns
                .iter()
                .any(|c| columns.iter().any(|x: &Column| x.name == c.name));
            if !clash && !fk.columns.is_empty() {
                columns.extend(fk_columns);
                foreign_keys.push(fk);
            }
        }
        let mut primary_key = Vec::new();
        if d.chance(35) {
            // Composite: the first parent's key plus a discriminator, or an own
            // id plus a time (a reading of a device).
            match foreign_keys.first() {
                Some(fk) => primary_key.extend(fk.columns.iter().cloned()),
                None => {
                    let (ty, class) = *d.pick(ID_TYPES);
                    let id = format!("{own}_key");
                    columns.insert(
                        0,
                        Column {
                            name: id.clone(),
                            pg_type: ty.into(),
                            class,
                        },
                    );
                    primary_key.push(id);
                }
            }
            let (n, ty, class) = *d.pick(DISCRIMINATORS);
            if columns.iter().all(|c| c.name != n) {
                columns.push(Column {
                    name: n.into(),
                    pg_type: ty.into(),
                    class,
                });
                primary_key.push(n.into());
            }
        } else {
            let id = if d.chance(30) {
                "id".to_string()
            } else {
                format!("{own}_id")
            };
            let (ty, class) = *d.pick(ID_TYPES);
            columns.insert(
                0,
                Column {
                    name: id.clone(),
                    pg_type: ty.into(),
                    class,
                },
            );
            primary_key.push(id);
        }
        let attributes = d.below(5);
        for k in d.subset(ATTRIBUTE_NAMES.len(), attributes) {
            let name = ATTRIBUTE_NAMES[k];
            if columns.iter().any(|c| c.name == name) {
                continue;
            }
            let (pg_type, class) = if has_enum && d.chance(10) {
                (d.pick(&["public.mood", "mood"]).to_string(), Class::Scalar)
            } else {
                let (t, c) = *d.pick(ATTRIBUTE_TYPES);
                (t.to_string(), c)
            };
            columns.push(Column {
                name: name.into(),
                pg_type,
                class,
            });
        }
        let fk_columns: Vec<&String> = foreign_keys.iter().flat_map(|f| &f.columns).collect();
        let unique_candidates: Vec<&Column> = columns
            .iter()
            .filter(|c| {
                c.class != Class::List
                    && !primary_key.contains(&c.name)
                    && !fk_columns.contains(&&c.name)
            })
            .collect();
        let unique = if !unique_candidates.is_empty() && d.chance(25) {
            Some(d.pick(&unique_candidates).name.clone())
        } else {
            None
        };
        Table {
            name: name.into(),
            columns,
            primary_key,
            unique,
            foreign_keys,
        }
    }

    pub fn render(&self, d: &mut Draw) -> String {
        let qualified = d.chance(50);
        let q = |t: &str| {
            if qualified {
                format!("public.{t}")
            } else {
                t.to_string()
            }
        };
        let mut out = String::new();
        let dump = d.chance(50);
        if dump {
            out.push_str("--\n-- PostgreSQL database dump\n--\n\n\\restrict abc123\n\n");
            out.push_str("SET statement_timeout = 0;\nSET client_encoding = 'UTF8';\n");
            out.push_str("SELECT pg_catalog.set_config('search_path', '', false);\n\n");
        }
        if self.has_enum {
            out.push_str("CREATE TYPE public.mood AS ENUM (\n    'low',\n    'high'\n);\n\n");
        }
        for t in &self.tables {
            out.push_str(&format!("CREATE TABLE {} (\n", q(&t.name)));
            let inline_pk = !dump && t.primary_key.len() == 1 && d.chance(50);
            let mut lines: Vec<String> = Vec::new();
            for c in &t.columns {
                let mut line = format!("    {} {}", c.name, c.pg_type);
                if t.primary_key.contains(&c.name) {
                    line.push_str(" NOT NULL");
                }
                if inline_pk && t.primary_key.first() == Some(&c.name) {
                    line.push_str(" PRIMARY KEY");
                }
                lines.push(line);
            }
            if !dump {
                if !inline_pk {
                    lines.push(format!("    PRIMARY KEY ({})", t.primary_key.join(", ")));
                }
                if let Some(u) = &t.unique {
                    lines.push(format!("    UNIQUE ({u})"));
                }
                for fk in &t.foreign_keys {
                    let parent = &self.tables[fk.parent];
                    let named = if d.chance(30) {
                        format!("CONSTRAINT {}_{}_fkey ", t.name, parent.name)
                    } else {
                        String::new()
                    };
                    lines.push(format!(
                        "    {named}FOREIGN KEY ({}) REFERENCES {}({})",
                        fk.columns.join(", "),
                        q(&parent.name),
                        fk.referenced.join(", ")
                    ));
                }
            }
            out.push_str(&lines.join(",\n"));
            out.push_str("\n);\n\n");
            if dump {
                out.push_str(&format!(
                    "ALTER TABLE {} OWNER TO postgres;\n\n",
                    q(&t.name)
                ));
                if d.chance(30) {
                    out.push_str(&format!(
                        "COMMENT ON TABLE {} IS 'the {}; a comment with a ; in it';\n\n",
                        q(&t.name),
                        t.name
                    ));
                }
            }
        }
        if dump {
            for t in &self.tables {
                out.push_str(&format!(
                    "ALTER TABLE ONLY {}\n    ADD CONSTRAINT {}_pkey PRIMARY KEY ({});\n\n",
                    q(&t.name),
                    t.name,
                    t.primary_key.join(", ")
                ));
                if let Some(u) = &t.unique {
                    out.push_str(&format!(
                        "ALTER TABLE ONLY {}\n    ADD CONSTRAINT {}_{u}_key UNIQUE ({u});\n\n",
                        q(&t.name),
                        t.name
                    ));
                }
                if let Some(c) = t.columns.last().filter(|_| d.chance(30)) {
                    out.push_str(&format!(
                        "CREATE INDEX {}_{}_idx ON {} USING btree ({});\n\n",
                        t.name,
                        c.name,
                        q(&t.name),
                        c.name
                    ));
                }
            }
            for t in &self.tables {
                for fk in &t.foreign_keys {
                    let parent = &self.tables[fk.parent];
                    out.push_str(&format!(
                        "ALTER TABLE ONLY {}\n    ADD CONSTRAINT {}_{}_fkey FOREIGN KEY ({}) REFERENCES {}({}) ON DELETE CASCADE;\n\n",
                        q(&t.name),
                        t.name,
                        parent.name,
                        fk.columns.join(", "),
                        q(&parent.name),
                        fk.referenced.join(", ")
                    ));
                }
            }
            out.push_str("\\unrestrict abc123\n");
        }
        out
    }
}
