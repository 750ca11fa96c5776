//! What a SELECT of the query list asks for, reduced to what the design needs.

use crate::sql_scope::ColRef;

/// The number of values assumed for `= ANY($n)` (an array of unknown length)
/// when counting partitions: the read notes it.
pub const ANY_VALUES: usize = 10;

/// What a SELECT asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectSpec {
    /// The entities in FROM/JOIN order; the first is the one whose rows are returned.
    pub entities: Vec<String>,
    /// Equalities of the join conditions.
    pub joins: Vec<(ColRef, ColRef)>,
    pub projection: Vec<ColRef>,
    /// `count(*)`, `sum(total)`, …: the function and its column (`None` for `*`).
    pub aggregates: Vec<(String, Option<ColRef>)>,
    /// Attributes bound by `=` (or `IN`, with the number of values).
    pub equalities: Vec<(ColRef, usize)>,
    /// Attributes bound by `= ANY($n)`: an array parameter, CQL's `IN ?` (a
    /// list bound as one value); counted as `ANY_VALUES` values in `equalities`.
    pub any_of: Vec<ColRef>,
    /// A row-value comparison `(a, b) < ($1, $2)` (keyset pagination): the
    /// columns in order and the operator, CQL's multi-column slice.
    pub keyset: Option<(Vec<ColRef>, String)>,
    /// Attributes bound by `<`, `<=`, `>`, `>=`, `BETWEEN`.
    pub ranges: Vec<ColRef>,
    /// The range operators per attribute, as CQL writes them (`>=`, `<`).
    pub range_ops: Vec<(ColRef, String)>,
    /// ORDER BY, with `true` for DESC.
    pub order: Vec<(ColRef, bool)>,
    pub limit: Option<u64>,
    pub group_by: Vec<ColRef>,
    /// Filters no key can serve (OR, LIKE, `<>`, functions of columns), as written.
    pub ad_hoc: Vec<String>,
    /// ORDER BY terms that are not attributes (an aggregate's alias): sorted by the application.
    pub app_order: Vec<String>,
    /// The vector column of a pgvector `ORDER BY col <-> $n LIMIT k`, when
    /// the design serves it as `ORDER BY col ANN OF ? LIMIT k` (crate::ann).
    pub ann: Option<Box<ColRef>>,
    /// `count(DISTINCT x)` by key: served by a set of the distinct `x` per key
    /// whose partition is counted (decided in crate::meaning).
    pub count_distinct: Option<Box<ColRef>>,
}

pub(crate) fn push_unique(v: &mut Vec<ColRef>, c: ColRef) {
    if !v.contains(&c) {
        v.push(c);
    }
}
