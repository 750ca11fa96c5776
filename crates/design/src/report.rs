//! `report.md`, the Chebotko diagrams and the JSON summary.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::chebotko::{self, DiagramColumn, TableDiagram};
use crate::derive::{Role, TableDesign};
use crate::plan::{Design, trim_float};
use crate::safe_names::{md_code, md_fence, md_line, md_text, unique_file_stems};

pub fn table_svg(t: &TableDesign) -> String {
    chebotko::render_svg(&TableDiagram {
        name: t.name.clone(),
        columns: t
            .columns
            .iter()
            .map(|c| DiagramColumn {
                name: c.name.clone(),
                cql_type: c.cql_type.clone(),
                role: c.role,
            })
            .collect(),
        queries: t.queries.clone(),
    })
}

pub fn flow_svg(d: &Design) -> String {
    let flows: Vec<(String, String)> = d
        .queries
        .iter()
        .filter_map(|q| q.table.as_ref().map(|t| (q.name.clone(), t.clone())))
        .collect();
    chebotko::render_flow_svg(&flows)
}

/// `--format json`.
pub fn json(d: &Design) -> Value {
    let tables: Vec<Value> = d
        .tables
        .iter()
        .map(|t| {
            let col = |p: &crate::derive::KeyPart| t.column_for(p).map(|c| c.name.clone()).unwrap_or_default();
            let mut v = json!({
                "name": t.name,
                "entity": t.entity,
                "grain": t.grain,
                "kind": match &t.kind {
                    crate::derive::TableKind::Table => json!("table"),
                    crate::derive::TableKind::Counter => json!("counter"),
                    crate::derive::TableKind::View { base } => json!({"view_of": base}),
                },
                "partition_key": t.partition_key.iter().map(col).collect::<Vec<_>>(),
                "clustering": t.clustering.iter().map(|(p, desc)| json!({"column": col(p), "order": if *desc { "DESC" } else { "ASC" }})).collect::<Vec<_>>(),
                "static": t.columns.iter().filter(|c| c.role == Role::Static).map(|c| c.name.clone()).collect::<Vec<_>>(),
                "columns": t.columns.iter().map(|c| json!({"name": c.name, "type": c.cql_type})).collect::<Vec<_>>(),
                "compaction": t.compaction,
                "default_time_to_live": t.ttl,
                "queries": t.queries,
            });
            // Why a table that is not an ordinary one exists (bookkeeping,
            // lookups, counters), by its marker.
            if !t.purpose.is_data() {
                v["purpose"] = json!(t.purpose);
            }
            v
        })
        .collect();
    let queries: Vec<Value> = d
        .queries
        .iter()
        .map(|q| {
            json!({
                "name": q.name,
                "table": q.table,
                "cql": q.cql,
                "partitions": q.partitions,
                "statements": q.statements,
                "rows_read": q.rows_read,
                "off_path": q.off_path,
                "notes": q.notes,
                "cost": crate::plan::cost_json(d, &q.name),
            })
        })
        .collect();
    json!({
        "keyspace": d.keyspace,
        "horizon": crate::plan::horizon_json(d),
        "foreign_key_growth": d.foreign_key_growth,
        "per_key": d.per_key,
        "verdict": crate::verdict::verdict_json(&crate::verdict::verdict(d)),
        "tables": tables,
        "queries": queries,
        "write_paths": d.write_paths,
        "placements": crate::placements::placements(&d.model, &d.tables),
        "warnings": d.warnings,
        "review": d.review,
        "errors": d.errors.iter().map(error_json).collect::<Vec<_>>(),
    })
}

/// A statement the designer could not translate, as JSON.
fn error_json(e: &crate::error::DesignError) -> Value {
    json!({
        "code": e.kind.code(),
        "file": e.source_file.label(),
        "line": e.line,
        "column": e.column,
        "message": e.message,
    })
}

/// The file stem of each table's diagram under `diagrams/`, in table order
/// (names from the input never reach a path as they are).
pub fn table_file_stems(d: &Design) -> Vec<String> {
    let names: Vec<&str> = d.tables.iter().map(|t| t.name.as_str()).collect();
    unique_file_stems(&names, &["flow"])
}

/// The report. Names and SQL come from the input: they are escaped for
/// Markdown (`md_text`, `md_code`, fences longer than any backtick run).
pub fn report_md(d: &Design) -> String {
    let mut s = format!(
        "# Cassandra design for keyspace {}\n\n",
        md_code(&d.keyspace)
    );
    s.push_str(&crate::verdict::verdict_md(&crate::verdict::verdict(d)));
    s.push_str("## Method\n\nQuery-driven modeling in four steps: (1) the queries, (2) a primary key per query, (3) tables with the same key structure merged, (4) a consistency story for every derived table.\n\n");
    queries_md(d, &mut s);
    tables_md(d, &mut s);
    write_paths_md(d, &mut s);
    placements_md(d, &mut s);
    errors_md(d, &mut s);
    self_review_md(d, &mut s);
    if !d.warnings.is_empty() {
        s.push_str("\n## Warnings\n\n");
        for w in &d.warnings {
            s.push_str(&format!("- {}\n", md_line(w)));
        }
    }
    s
}

/// "Queries": the table of reads, the cost per key, then each read's SQL,
/// CQL and notes (or why it has no table).
fn queries_md(d: &Design, s: &mut String) {
    s.push_str("![query → table flow](diagrams/flow.svg)\n\n## Queries\n\n| query | table | partitions | rows read | rate |\n|---|---|---|---|---|\n");
    for q in &d.queries {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            md_text(&q.name),
            q.table
                .as_deref()
                .map_or("— (off the OLTP path)".to_string(), md_code),
            q.partitions.map_or("—".into(), |p| p.to_string()),
            q.rows_read.map_or("—".into(), |r| trim_float(r.round())),
            q.rate
                .map_or("—".into(), |r| format!("{}/s", trim_float(r))),
        ));
    }
    s.push_str(&crate::plan::key_costs_md(d));
    // Each read's SQL by name, the first of a name as a search would find it;
    // a search per read made a 10,000-read report quadratic.
    let mut specs: HashMap<&str, &crate::querylist::QuerySpec> = HashMap::new();
    for spec in &d.specs {
        specs.entry(spec.name.as_str()).or_insert(spec);
    }
    for q in &d.queries {
        s.push_str(&format!("\n### {}\n\n", md_text(&q.name)));
        if let Some(spec) = specs.get(q.name.as_str()) {
            let fence = md_fence(&spec.sql);
            s.push_str(&format!(
                "SQL (line {}):\n\n{fence}sql\n{}\n{fence}\n\n",
                spec.line, spec.sql
            ));
        }
        match (&q.cql, &q.off_path) {
            (Some(cql), _) => served_md(q, cql, s),
            (None, Some(o)) => {
                s.push_str(&format!(
                    "Not given a table: {}.\n\nAlternative: {}.\n",
                    md_line(&o.reason),
                    md_line(&o.alternative)
                ));
            }
            _ => {}
        }
    }
}

/// A served read: its CQL, partitions, rows and notes.
fn served_md(q: &crate::reads::QueryPlan, cql: &str, s: &mut String) {
    let fence = md_fence(cql);
    s.push_str(&format!(
        "CQL on {}:\n\n{fence}sql\n{cql};\n{fence}\n\n",
        md_code(q.table.as_deref().unwrap_or(""))
    ));
    s.push_str(&format!(
        "- partitions per execution: {}{}\n",
        q.partitions.map_or("unknown".into(), |p| p.to_string()),
        if q.statements > 1 {
            format!(" ({} statements, one per partition)", q.statements)
        } else {
            String::new()
        }
    ));
    if let Some(r) = q.rows_read {
        s.push_str(&format!(
            "- estimated rows read: {}\n",
            trim_float(r.round())
        ));
    }
    for n in &q.notes {
        s.push_str(&format!("- {}\n", md_line(n)));
    }
}

/// "Tables": each table's diagram, the reads it serves, its decisions and CQL.
fn tables_md(d: &Design, s: &mut String) {
    s.push_str("\n## Tables\n");
    for (t, stem) in d.tables.iter().zip(table_file_stems(d)) {
        s.push_str(&format!(
            "\n### {}\n\n![{}](diagrams/{stem}.svg)\n\n",
            md_code(&t.name),
            md_text(&t.name)
        ));
        s.push_str(&format!(
            "Serves: {}.\n\n",
            if t.queries.is_empty() && t.grain.is_empty() {
                "the write paths (bookkeeping: it holds no entity's rows)".into()
            } else if t.queries.is_empty() {
                "the write paths (lookups by primary key)".into()
            } else {
                t.queries
                    .iter()
                    .map(|q| md_text(q))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
        for dcs in &t.decisions {
            s.push_str(&format!("- {}\n", md_line(dcs)));
        }
        s.push_str(&format!(
            "- compaction: {} — {}\n",
            t.compaction, t.compaction_reason
        ));
        let cql = crate::schema_out::table_cql(&d.keyspace, t);
        let fence = md_fence(&cql);
        s.push_str(&format!("\n{fence}sql\n{cql}{fence}\n"));
    }
}

/// "Write paths": each mutation's statements with mechanism and reason.
fn write_paths_md(d: &Design, s: &mut String) {
    s.push_str("\n## Write paths\n");
    for w in &d.write_paths {
        s.push_str(&format!(
            "\n### {} ({} on {}{})\n\n",
            md_text(&w.name),
            w.kind.verb(),
            md_code(&w.entity),
            if w.inferred {
                ", inferred: the query list has no mutation"
            } else {
                ""
            }
        ));
        for n in &w.notes {
            s.push_str(&format!("- {}\n", md_line(n)));
        }
        if w.statements.is_empty() {
            if w.notes.is_empty() {
                s.push_str("No designed table holds this entity's attributes.\n");
            }
            continue;
        }
        for (i, st) in w.statements.iter().enumerate() {
            statement_md(i, st, s);
        }
        if let Some(a) = w.write_amplification {
            s.push_str(&format!(
                "\nWrite amplification: about {} fan-out rows per mutation, besides one row per other table.\n",
                trim_float(a.round())
            ));
        }
        s.push_str(&format!("\nNot atomic: {}.\n", w.not_atomic));
    }
}

/// One numbered statement of a write path.
fn statement_md(i: usize, st: &crate::writes::WriteStatement, s: &mut String) {
    s.push_str(&format!(
        "{}. {} on {} — **{}**: {}.",
        i + 1,
        md_code(&st.cql),
        md_code(&st.table),
        st.mechanism,
        md_line(st.reason.trim_end_matches('.'))
    ));
    if let Some(r) = &st.repeat {
        s.push_str(&format!(" Repeated {r}."));
    }
    if let Some(r) = &st.reads_first {
        s.push_str(&format!(" First: {r}."));
    }
    if let Some(w) = &st.only_when {
        s.push_str(&format!(" Only when {w}."));
    }
    s.push('\n');
}

/// "Statements not translated", when the query list had any.
fn errors_md(d: &Design, s: &mut String) {
    if d.errors.is_empty() {
        return;
    }
    s.push_str("\n## Statements not translated\n\nThe design above leaves these statements of the query list out: rewrite them (or serve them off the OLTP path) and run `design` again.\n\n");
    for e in &d.errors {
        s.push_str(&format!(
            "- queries line {}, column {}: error[{}] {}\n",
            e.line,
            e.column,
            e.kind.code(),
            md_line(&e.message)
        ));
    }
}

/// What `cqlmodel review` says of the design's own schema and queries.
fn self_review_md(d: &Design, s: &mut String) {
    let errors = d.review.iter().filter(|f| f.is_error()).count();
    s.push_str(&format!(
        "\n## The design's own review\n\n`cqlmodel review` on the schema, queries and statistics above: {} error(s), {} other finding(s).{}\n\n",
        errors,
        d.review.len() - errors,
        if errors > 0 {
            " The design is not ready: fix the model or the query list where an error points (`design` exits 1)."
        } else {
            ""
        }
    ));
    for f in &d.review {
        let at = match (&f.table, &f.query) {
            (_, Some(q)) => format!(" ({})", md_code(q)),
            (Some(t), None) => format!(" ({})", md_code(t)),
            (None, None) => String::new(),
        };
        s.push_str(&format!(
            "- {} {}{}{}: {}\n",
            f.severity,
            md_code(&f.code),
            f.rule
                .as_deref()
                .map_or(String::new(), |r| format!(" {}", md_code(r))),
            at,
            md_line(&f.message)
        ));
    }
}

/// Per entity, the tables and columns that store each attribute.
fn placements_md(d: &Design, s: &mut String) {
    s.push_str("\n## Where each column lives\n\n| entity | column | stored in |\n|---|---|---|\n");
    for e in crate::placements::placements(&d.model, &d.tables) {
        for c in &e.columns {
            s.push_str(&format!(
                "| {} | {} | {} |\n",
                md_text(&e.entity),
                md_text(&c.column),
                if c.stored_in.is_empty() {
                    "**nowhere** (no statement writes it)".to_string()
                } else {
                    c.stored_in
                        .iter()
                        .map(|x| md_code(x))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ));
        }
    }
}
