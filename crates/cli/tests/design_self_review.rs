//! `cqlmodel design` exits 1 when its own review finds an error in what it
//! wrote (issue 20): here a scan image the statistics size at 40 MB, which
//! Cassandra's max_mutation_size (16 MiB) would reject on every write. The
//! design is still written, and the error is in the summary and the report.

use cqlmodel_cli::design_cmd::run;

const MODEL: &str = "
CREATE TABLE public.scans (
    scan_id uuid NOT NULL,
    patient_id uuid NOT NULL,
    taken_at timestamp with time zone NOT NULL,
    image bytea NOT NULL
);
ALTER TABLE ONLY public.scans ADD CONSTRAINT scans_pkey PRIMARY KEY (scan_id);
";

const QUERIES: &str = "
-- @name scan @rate 20/s
SELECT patient_id, taken_at, image FROM scans WHERE scan_id = $1;

-- @name store_scan @rate 2/s
INSERT INTO scans (scan_id, patient_id, taken_at, image) VALUES ($1, $2, $3, $4);
";

const STATS: &str = "
[table.scans]
rows = 1_000_000

[table.scans.column.image]
avg_size = 40_000_000
";

#[test]
fn an_error_of_the_designs_own_review_exits_1_with_the_design_written() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, text: &str| {
        let p = tmp.path().join(name);
        std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
        p
    };
    let (model, queries, stats) = (
        write("model.sql", MODEL),
        write("queries.sql", QUERIES),
        write("stats.toml", STATS),
    );
    let out = tmp.path().join("out");
    let (stdout, stderr, code) = run(&model, Some(&queries), Some(&stats), &out, false, false);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("own review: 1 errors"),
        "{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("review error CQL013 large-value: `image` of `")
            && stdout.contains("holds values up to 40 MB"),
        "{stdout}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap_or_default();
    assert!(
        report.contains("## The design's own review") && report.contains("CQL013"),
        "{report}"
    );
    assert!(out.join("schema.cql").is_file());
}
