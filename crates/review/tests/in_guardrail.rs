//! `scatter-gather` with the cluster's `partition_keys_in_select` guardrail
//! given in the configuration: Cassandra's own messages, error over the fail
//! threshold, warning over the warn threshold, and the plain rule otherwise.

use cqlmodel_diagnostics::{Severity, SourceFile, SourceMap};
use cqlmodel_review::{Config, ReviewInput, load_queries, review};
use cqlmodel_schema::SchemaBuilder;

const SCHEMA: &str =
    "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.orders (order_id uuid PRIMARY KEY, total decimal);";

fn ids(n: usize) -> String {
    (0..n)
        .map(|i| format!("{:08x}-0000-4000-8000-000000000000", i))
        .collect::<Vec<_>>()
        .join(", ")
}

fn findings(config: &Config, n: usize) -> Vec<(Severity, String)> {
    let queries = format!(
        "-- @name batch_lookup\nSELECT total FROM shop.orders WHERE order_id IN ({});",
        ids(n)
    );
    let mut sources = SourceMap::new();
    let schema_file = sources.add(SourceFile::new("schema.cql", SCHEMA));
    let query_file = sources.add(SourceFile::new("queries.cql", queries.as_str()));
    let mut builder = SchemaBuilder::new();
    builder.add_statements(schema_file, &cqlmodel_cql::parse(SCHEMA).statements);
    let schema = builder.finish().schema;
    let parsed = cqlmodel_cql::parse(&queries);
    let (queries, _) = load_queries(&schema, query_file, &parsed, Some("shop"), 1);
    let input = ReviewInput {
        schema: &schema,
        queries: &queries,
        sources: &sources,
        suppressions: &[],
        has_queries: true,
        stats: None,
    };
    review(&input, config)
        .into_iter()
        .filter(|d| d.name.as_deref() == Some("scatter-gather"))
        .map(|d| (d.severity, d.message))
        .collect()
}

#[test]
fn the_clusters_in_guardrail_speaks_with_cassandras_messages() {
    let mut config = Config::default();
    config.thresholds.partition_keys_in_select_warn_threshold = Some(20);
    config.thresholds.partition_keys_in_select_fail_threshold = Some(100);
    assert_eq!(
        findings(&config, 120),
        [(
            Severity::Error,
            "Aborting query with partition keys in IN clause on table orders, number of partition keys 120 exceeds fail threshold of 100.".to_string()
        )]
    );
    assert_eq!(
        findings(&config, 30),
        [(
            Severity::Warning,
            "Query with partition keys in IN clause on table orders, with number of partition keys 30 exceeds warning threshold of 20.".to_string()
        )]
    );
    // Under the guardrail, the review's own threshold (10) still speaks.
    let own = findings(&config, 15);
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].0, Severity::Warning);
    assert!(own[0].1.contains("15 partitions in one request"), "{own:?}");
    // Cassandra 5.0's default: the guardrail is off.
    let plain = findings(&Config::default(), 120);
    assert_eq!(plain.len(), 1);
    assert!(
        plain[0].1.contains("120 partitions in one request"),
        "{plain:?}"
    );
}
