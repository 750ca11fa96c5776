//! Applying an emitted schema to the node, statement by statement, recording every verdict.

use cqlmodel_cql::ast::StatementKind;

use crate::{LiveError, Node, ScriptStatement, Verdict, statements_of};

/// The replication every test keyspace gets when the emitted one names datacenters the
/// node does not have (one node: `datacenter1`).
pub const SINGLE_NODE_REPLICATION: &str = "{'class': 'SimpleStrategy', 'replication_factor': 1}";

/// One statement of the schema and what the node said.
#[derive(Debug, Clone)]
pub struct Applied {
    pub statement: ScriptStatement,
    pub verdict: Verdict,
    /// When the node refused a CREATE KEYSPACE (datacenters it does not have), the
    /// statement run in its place so the rest of the schema can be checked.
    pub substitute: Option<String>,
}

/// Runs every statement of `source`. A keyspace the script creates is dropped first (the
/// tests own the keyspaces they create), and a refused CREATE KEYSPACE is replaced by one
/// with [`SINGLE_NODE_REPLICATION`], recorded in [`Applied::substitute`].
pub async fn apply_schema(node: &Node, source: &str) -> Result<Vec<Applied>, LiveError> {
    let parsed = cqlmodel_cql::parse(source);
    let statements = statements_of(source)?;
    let mut applied = Vec::with_capacity(statements.len());
    for (statement, ast) in statements.into_iter().zip(&parsed.statements) {
        let keyspace = match &ast.kind {
            StatementKind::CreateKeyspace(create) => Some(create.name.value.clone()),
            _ => None,
        };
        if let Some(name) = &keyspace {
            node.must_run(&format!("DROP KEYSPACE IF EXISTS {name}"))
                .await?;
        }
        let verdict = node.run(&statement.text).await?;
        let mut substitute = None;
        if let (Some(name), Verdict::Rejected(_)) = (&keyspace, &verdict) {
            let cql =
                format!("CREATE KEYSPACE {name} WITH replication = {SINGLE_NODE_REPLICATION}");
            node.must_run(&cql).await?;
            substitute = Some(cql);
        }
        applied.push(Applied {
            statement,
            verdict,
            substitute,
        });
    }
    Ok(applied)
}
