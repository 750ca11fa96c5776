//! Where a query runs (`@path`): shared by the query rules so that none of them
//! imports another rule for it.

use crate::query::Query;

/// Where a query runs, from its `@path` annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryPath {
    /// `@path app`, or no annotation: a request path of the application.
    Application,
    /// `@path hot` (or `frequent`): on every request of a busy path, although its
    /// rate is not measured yet (no `@rate`).
    Hot,
    Admin,
    Analytics,
    Migration,
}

impl QueryPath {
    /// The values `@path` accepts.
    pub const VALUES: &'static str = "app, hot, admin, analytics, migration";

    /// True off the application's request path (admin, analytics, migration).
    pub fn is_offline(self) -> bool {
        !matches!(self, QueryPath::Application | QueryPath::Hot)
    }

    pub fn name(self) -> &'static str {
        match self {
            QueryPath::Application => "app",
            QueryPath::Hot => "hot",
            QueryPath::Admin => "admin",
            QueryPath::Analytics => "analytics",
            QueryPath::Migration => "migration",
        }
    }
}

/// The query's `@path`; an unknown value is an application path, returned as `Err`
/// with the value so the finding can say it was not understood.
pub fn query_path(q: &Query) -> Result<QueryPath, String> {
    match q
        .annotations
        .get("path")
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("app" | "application" | "") => Ok(QueryPath::Application),
        Some("hot" | "frequent") => Ok(QueryPath::Hot),
        Some("admin") => Ok(QueryPath::Admin),
        Some("analytics") => Ok(QueryPath::Analytics),
        Some("migration") => Ok(QueryPath::Migration),
        Some(other) => Err(other.to_string()),
    }
}
