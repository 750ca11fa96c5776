//! The port of Cassandra's `StatementRestrictions`: the WHERE clause sorted into
//! partition key, clustering and other restrictions, merged relation by relation
//! in the order written (which is why the order of relations changes some
//! messages), then checked as a whole.

use std::collections::BTreeMap;

use cqlmodel_cql::ast::{Relation, RelationKind, Span};

use super::QueryError;
use super::merge::{index_supports, merge, merge_token};
use super::relation::{Op, Restriction, Values, to_restriction};
use crate::model::{ColumnKind, Index, IndexImpl, Table};

pub(crate) const REQUIRES_ALLOW_FILTERING: &str = "Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING";

/// The statement the restrictions belong to (`StatementType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StatementType {
    Select,
    Insert,
    Update,
    Delete,
}

impl StatementType {
    /// As Cassandra prints it in messages.
    pub fn name(self) -> &'static str {
        match self {
            StatementType::Select => "SELECT",
            StatementType::Insert => "INSERT",
            StatementType::Update => "UPDATE",
            StatementType::Delete => "DELETE",
        }
    }
    fn allows_partition_key_ranges(self) -> bool {
        self == StatementType::Select
    }
    fn allows_clustering_slices(self) -> bool {
        matches!(self, StatementType::Select | StatementType::Delete)
    }
    fn allows_non_primary_key_in_where(self) -> bool {
        self == StatementType::Select
    }
}

/// Options of the statement that change how restrictions are judged.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    pub statement: StatementType,
    pub allow_filtering: bool,
    pub selects_only_static: bool,
    pub for_view: bool,
}

/// The restrictions of one statement, after `StatementRestrictions`' constructor.
#[derive(Debug)]
pub(crate) struct Restrictions<'t> {
    pub table: &'t Table,
    pub list: Vec<Restriction>,
    /// Partition key position → restriction index (non-token restrictions).
    pub partition: BTreeMap<usize, usize>,
    /// Token restrictions on the partition key, merged into one.
    pub token: Option<usize>,
    /// Clustering position → restriction index (a multi-column restriction appears at each of its positions).
    pub clustering: BTreeMap<usize, usize>,
    /// Column index → restriction index, for static and regular columns.
    pub non_pk: BTreeMap<usize, usize>,
    pub is_key_range: bool,
    pub uses_index: bool,
    /// The index Cassandra would query, by name.
    pub index: Option<&'t Index>,
    /// Restrictions evaluated as a row filter after reading.
    pub filtered: bool,
    /// Whether the partition key / clustering restrictions joined the row filter.
    partition_in_filter: bool,
    clustering_in_filter: bool,
}

impl<'t> Restrictions<'t> {
    pub fn new(
        table: &'t Table,
        where_clause: &[Relation],
        settings: Settings,
    ) -> Result<Self, QueryError> {
        let mut r = Restrictions {
            table,
            list: Vec::new(),
            partition: BTreeMap::new(),
            token: None,
            clustering: BTreeMap::new(),
            non_pk: BTreeMap::new(),
            is_key_range: false,
            uses_index: false,
            index: None,
            filtered: false,
            partition_in_filter: false,
            clustering_in_filter: false,
        };
        for relation in where_clause {
            if let RelationKind::IsNotNull { .. } = relation.kind
                && !settings.for_view
            {
                return Err(QueryError {
                    message: format!("Unsupported restriction: {relation}"),
                    span: relation.span,
                });
            }
            let statement = match settings.statement {
                StatementType::Select => None,
                other => Some(other.name()),
            };
            let restriction = to_restriction(table, relation, statement)?;
            if matches!(restriction.op, Op::IsNotNull) {
                continue;
            }
            if matches!(restriction.op, Op::Like) && r.supporting_index(&restriction).is_none() {
                return Err(QueryError {
                    message: format!(
                        "LIKE restriction is only supported on properly indexed columns. {relation} is not valid."
                    ),
                    span: relation.span,
                });
            }
            r.add(restriction, settings)?;
        }
        r.validate(settings)?;
        Ok(r)
    }

    fn kind_of(&self, column: usize) -> ColumnKind {
        self.table
            .columns
            .get(column)
            .map_or(ColumnKind::Regular, |c| c.kind)
    }

    fn name_of(&self, column: usize) -> String {
        self.table
            .columns
            .get(column)
            .map_or_else(String::new, |c| c.name.clone())
    }

    /// `StatementRestrictions.addRestriction`.
    fn add(&mut self, new: Restriction, settings: Settings) -> Result<(), QueryError> {
        let span = new.span;
        let err = |message: String| QueryError { message, span };
        if new.token {
            match self.token {
                None => {
                    self.list.push(new);
                    self.token = Some(self.list.len() - 1);
                }
                Some(existing) => {
                    let names = self.token_columns_text();
                    let merged = self
                        .list
                        .get(existing)
                        .map(|e| merge_token(e, &new, &names))
                        .transpose()
                        .map_err(err)?;
                    if let (Some(slot), Some(m)) = (self.list.get_mut(existing), merged) {
                        *slot = m;
                    }
                }
            }
            return Ok(());
        }
        match self.kind_of(new.first_column()) {
            ColumnKind::PartitionKey(pos) => {
                self.merge_into(Target::Partition, &[pos], new)
                    .map_err(err)?;
            }
            ColumnKind::Clustering(pos, _) => {
                self.add_clustering(pos, new, settings)?;
            }
            ColumnKind::Static | ColumnKind::Regular => {
                let col = new.first_column();
                self.merge_into(Target::NonPk, &[col], new).map_err(err)?;
            }
        }
        Ok(())
    }

    fn token_columns_text(&self) -> String {
        let names: Vec<String> = self.table.partition_key().map(|c| c.name.clone()).collect();
        names.join(", ")
    }

    /// `ClusteringColumnRestrictions.mergeWith`: the checks that depend on the
    /// restriction already present with the highest position.
    fn add_clustering(
        &mut self,
        pos: usize,
        new: Restriction,
        settings: Settings,
    ) -> Result<(), QueryError> {
        let span = new.span;
        let err = |message: String| QueryError { message, span };
        let positions: Vec<usize> = if new.multi {
            new.columns
                .iter()
                .filter_map(|c| match self.kind_of(*c) {
                    ColumnKind::Clustering(p, _) => Some(p),
                    _ => None,
                })
                .collect()
        } else {
            vec![pos]
        };
        let supported = self.supporting_index(&new).is_some();
        // The merge with a restriction on the same column comes first, so its error wins.
        let last = self
            .clustering
            .iter()
            .next_back()
            .and_then(|(_, i)| self.list.get(*i))
            .map(|r| (r.first_column(), r.op.is_slice()));
        let new_first = new.first_column();
        let new_is_slice = new.op.is_slice();
        let was_empty = self.clustering.is_empty();
        self.merge_into(Target::Clustering, &positions, new)
            .map_err(err)?;
        if !was_empty
            && !settings.allow_filtering
            && !supported
            && let Some((last_first, last_is_slice)) = last
        {
            let last_start = self.clustering_pos(last_first).unwrap_or(0);
            let last_name = self.name_of(last_first);
            if last_is_slice && pos > last_start {
                return Err(err(format!(
                    "Clustering column \"{}\" cannot be restricted (preceding column \"{}\" is restricted by a non-EQ relation)",
                    self.name_of(new_first),
                    last_name
                )));
            }
            if pos < last_start && new_is_slice {
                // The next restricted column after the new one.
                let next = self
                    .clustering
                    .range(pos + 1..)
                    .next()
                    .and_then(|(p, _)| self.table.clustering().nth(*p))
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                return Err(err(format!(
                    "PRIMARY KEY column \"{}\" cannot be restricted (preceding column \"{}\" is restricted by a non-EQ relation)",
                    next,
                    self.name_of(new_first)
                )));
            }
        }
        Ok(())
    }

    fn clustering_pos(&self, column: usize) -> Option<usize> {
        match self.kind_of(column) {
            ColumnKind::Clustering(p, _) => Some(p),
            _ => None,
        }
    }

    /// `RestrictionSet.addRestriction`: merges with any restriction already on one of the columns.
    fn merge_into(
        &mut self,
        target: Target,
        keys: &[usize],
        new: Restriction,
    ) -> Result<(), String> {
        let map = match target {
            Target::Partition => &self.partition,
            Target::Clustering => &self.clustering,
            Target::NonPk => &self.non_pk,
        };
        let existing: Option<usize> = keys.iter().find_map(|k| map.get(k).copied());
        let idx = match existing {
            Some(e) => {
                let merged = {
                    let current = self.list.get(e).ok_or_else(String::new)?;
                    merge(current, &new, |c| self.name_of(c))?
                };
                if let Some(slot) = self.list.get_mut(e) {
                    *slot = merged;
                }
                e
            }
            None => {
                self.list.push(new);
                self.list.len() - 1
            }
        };
        let map = match target {
            Target::Partition => &mut self.partition,
            Target::Clustering => &mut self.clustering,
            Target::NonPk => &mut self.non_pk,
        };
        for k in keys {
            map.insert(*k, idx);
        }
        Ok(())
    }

    /// The index that can serve a restriction (`Restriction.hasSupportingIndex`).
    pub fn supporting_index(&self, r: &Restriction) -> Option<&'t Index> {
        if r.token || r.multi || r.columns.len() != 1 {
            return None;
        }
        let col = self.table.columns.get(r.first_column())?;
        self.table
            .indexes
            .iter()
            .find(|i| i.column == col.name && index_supports(i, &col.ty, &r.op, r.operator))
    }

    fn restrictions_of<'a>(
        &'a self,
        map: &'a BTreeMap<usize, usize>,
    ) -> impl Iterator<Item = &'a Restriction> {
        let mut seen = Vec::new();
        map.values().filter_map(move |i| {
            if seen.contains(i) {
                None
            } else {
                seen.push(*i);
                self.list.get(*i)
            }
        })
    }

    fn partition_has_unrestricted_components(&self) -> bool {
        self.partition.len() < self.table.partition_key_len()
    }

    /// `PartitionKeySingleRestrictionSet.needFiltering`.
    fn partition_needs_filtering(&self) -> bool {
        if self.partition.is_empty() {
            return false;
        }
        self.partition_has_unrestricted_components()
            || self
                .restrictions_of(&self.partition)
                .any(|r| !r.op.is_eq_or_in())
    }

    /// `ClusteringColumnRestrictions.needFiltering`.
    pub fn clustering_needs_filtering(&self) -> bool {
        let mut position = 0;
        for r in self.restrictions_of(&self.clustering) {
            let first = self.clustering_pos(r.first_column()).unwrap_or(0);
            if r.op.is_contains()
                || matches!(r.op, Op::Like | Op::Neq | Op::NotIn | Op::NotContains)
                || first != position
            {
                return true;
            }
            if !r.op.is_slice() {
                let last = r
                    .columns
                    .last()
                    .and_then(|c| self.clustering_pos(*c))
                    .unwrap_or(first);
                position = last + 1;
            }
        }
        false
    }

    fn has_queriable_index(&self) -> bool {
        self.list.iter().any(|r| self.supporting_index(r).is_some())
    }

    fn first_index(&self) -> Option<&'t Index> {
        // Cassandra picks the most selective index by estimated rows; offline we
        // take the first indexed restriction in WHERE order among non-key columns,
        // then clustering, then partition key.
        self.restrictions_of(&self.non_pk)
            .chain(self.restrictions_of(&self.clustering))
            .chain(self.restrictions_of(&self.partition))
            .find_map(|r| self.supporting_index(r))
    }

    /// The checks at the end of `StatementRestrictions`' constructor, in its
    /// order: partition key, static-only selection, clustering columns, other
    /// columns, then the index.
    fn validate(&mut self, s: Settings) -> Result<(), QueryError> {
        let has_queriable_index = self.has_queriable_index();
        self.process_partition_key(s, has_queriable_index)?;
        self.partition_in_filter = self.uses_index || self.partition_needs_filtering();
        self.check_static_only(s)?;
        self.process_clustering(s, has_queriable_index)?;
        if self.is_key_range
            && self
                .restrictions_of(&self.clustering)
                .any(|r| self.supporting_index(r).is_some())
        {
            self.uses_index = true;
        }
        self.clustering_in_filter = self.uses_index || self.clustering_needs_filtering();

        self.process_non_primary_key(s, has_queriable_index)?;
        self.choose_index()?;
        self.filtered = if self.uses_index {
            self.need_filtering()
        } else {
            !self.filter_list().is_empty() || (self.is_key_range && !self.clustering.is_empty())
        };
        Ok(())
    }

    /// `processPartitionKeyRestrictions`.
    fn process_partition_key(
        &mut self,
        s: Settings,
        has_queriable_index: bool,
    ) -> Result<(), QueryError> {
        let err = QueryError::whole;
        if !s.statement.allows_partition_key_ranges() {
            if let Some(t) = self.token.and_then(|i| self.list.get(i)) {
                return Err(QueryError {
                    message: format!(
                        "The token function cannot be used in WHERE clauses for {} statements",
                        s.statement.name()
                    ),
                    span: t.span,
                });
            }
            if self.partition_has_unrestricted_components() {
                let missing: Vec<String> = self
                    .table
                    .partition_key()
                    .enumerate()
                    .filter(|(i, _)| !self.partition.contains_key(i))
                    .map(|(_, c)| c.name.clone())
                    .collect();
                return Err(err(format!(
                    "Some partition key parts are missing: {}",
                    missing.join(", ")
                )));
            }
            if let Some(r) = self
                .restrictions_of(&self.partition)
                .find(|r| r.op.is_slice())
            {
                return Err(QueryError {
                    message: format!(
                        "Only EQ and IN relation are supported on the partition key (unless you use the token() function) for {} statements",
                        s.statement.name()
                    ),
                    span: r.span,
                });
            }
        } else {
            // A token restriction makes a range read unless the other partition key
            // restrictions name whole keys (`TokenFilter.isOnToken`).
            if self.token.is_some()
                && (self.partition.is_empty() || self.partition_needs_filtering())
            {
                self.is_key_range = true;
            }
            if self.partition.is_empty() && self.token.is_none() {
                self.is_key_range = true;
                self.uses_index = has_queriable_index;
            }
            if self.partition_needs_filtering() {
                if !s.allow_filtering && !s.for_view && !has_queriable_index {
                    return Err(err(REQUIRES_ALLOW_FILTERING.into()));
                }
                self.is_key_range = true;
                self.uses_index = has_queriable_index;
            }
        }
        Ok(())
    }

    /// Selecting (or modifying) only static columns leaves no clustering column to restrict.
    fn check_static_only(&self, s: Settings) -> Result<(), QueryError> {
        if s.selects_only_static && !self.clustering.is_empty() {
            return Err(QueryError::whole(match s.statement {
                StatementType::Select => {
                    "Cannot restrict clustering columns when selecting only static columns".into()
                }
                other => format!(
                    "Invalid restrictions on clustering columns since the {} statement modifies only static columns",
                    other.name()
                ),
            }));
        }
        Ok(())
    }

    /// `processClusteringColumnsRestrictions`.
    fn process_clustering(
        &mut self,
        s: Settings,
        has_queriable_index: bool,
    ) -> Result<(), QueryError> {
        let whole = Span::default();
        let err = QueryError::whole;
        if !s.statement.allows_clustering_slices()
            && let Some(r) = self
                .restrictions_of(&self.clustering)
                .find(|r| r.op.is_slice())
        {
            return Err(QueryError {
                message: format!(
                    "Slice restrictions are not supported on the clustering columns in {} statements",
                    s.statement.name()
                ),
                span: r.span,
            });
        }
        if !s.statement.allows_clustering_slices() {
            if !s.selects_only_static && self.clustering.len() < self.table.clustering_len() {
                let missing: Vec<String> = self
                    .table
                    .clustering()
                    .enumerate()
                    .filter(|(i, _)| !self.clustering.contains_key(i))
                    .map(|(_, c)| c.name.clone())
                    .collect();
                return Err(err(format!(
                    "Some clustering keys are missing: {}",
                    missing.join(", ")
                )));
            }
        } else {
            if self
                .restrictions_of(&self.clustering)
                .any(|r| r.op.is_contains())
                && !has_queriable_index
                && !s.allow_filtering
            {
                return Err(err(
                    "Clustering columns can only be restricted with CONTAINS with a secondary index or filtering".into(),
                ));
            }
            if !self.clustering.is_empty() && self.clustering_needs_filtering() {
                if has_queriable_index || s.for_view {
                    self.uses_index = true;
                } else if !s.allow_filtering {
                    let restricted: Vec<usize> = self.clustering.keys().copied().collect();
                    for (i, pos) in restricted.iter().enumerate() {
                        if *pos != i {
                            let restricted_name = self
                                .table
                                .clustering()
                                .nth(*pos)
                                .map(|c| c.name.clone())
                                .unwrap_or_default();
                            let preceding = self
                                .table
                                .clustering()
                                .nth(i)
                                .map(|c| c.name.clone())
                                .unwrap_or_default();
                            let span = self
                                .clustering
                                .get(pos)
                                .and_then(|r| self.list.get(*r))
                                .map_or(whole, |r| r.span);
                            return Err(QueryError {
                                message: format!(
                                    "PRIMARY KEY column \"{restricted_name}\" cannot be restricted as preceding column \"{preceding}\" is not restricted"
                                ),
                                span,
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Restrictions on regular and static columns: an index or ALLOW FILTERING.
    fn process_non_primary_key(
        &mut self,
        s: Settings,
        has_queriable_index: bool,
    ) -> Result<(), QueryError> {
        let whole = Span::default();
        let err = QueryError::whole;
        if !self.non_pk.is_empty() {
            if !s.statement.allows_non_primary_key_in_where() {
                let names: Vec<String> = self.non_pk.keys().map(|c| self.name_of(*c)).collect();
                return Err(err(format!(
                    "Non PRIMARY KEY columns found in where clause: {} ",
                    names.join(", ")
                )));
            }
            if has_queriable_index {
                self.uses_index = true;
            } else if !s.allow_filtering {
                let span = self
                    .restrictions_of(&self.non_pk)
                    .next()
                    .map_or(whole, |r| r.span);
                return Err(QueryError {
                    message: REQUIRES_ALLOW_FILTERING.into(),
                    span,
                });
            }
        }
        Ok(())
    }

    /// The index a query that uses one reads through.
    fn choose_index(&mut self) -> Result<(), QueryError> {
        if self.uses_index {
            if self.key_is_in_relation() {
                return Err(QueryError::whole(
                    "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported".into(),
                ));
            }
            self.index = self.chosen_index();
        }
        Ok(())
    }

    /// The restrictions Cassandra evaluates as a row filter (`filterRestrictions`).
    fn filter_list(&self) -> Vec<&Restriction> {
        let mut out: Vec<&Restriction> = Vec::new();
        if self.partition_in_filter {
            out.extend(self.restrictions_of(&self.partition));
        }
        if self.clustering_in_filter {
            out.extend(self.restrictions_of(&self.clustering));
        }
        out.extend(self.restrictions_of(&self.non_pk));
        out
    }

    /// Index groups: every legacy (or SASI, or custom) index alone; all SAI indexes of the table together.
    fn index_groups(&self) -> Vec<Vec<&'t Index>> {
        let mut groups: Vec<Vec<&'t Index>> = Vec::new();
        let sai: Vec<&'t Index> = self
            .table
            .indexes
            .iter()
            .filter(|i| i.implementation == IndexImpl::Sai)
            .collect();
        if !sai.is_empty() {
            groups.push(sai);
        }
        for i in self
            .table
            .indexes
            .iter()
            .filter(|i| i.implementation != IndexImpl::Sai)
        {
            groups.push(vec![i]);
        }
        groups
    }

    fn group_supports(&self, group: &[&Index], r: &Restriction) -> bool {
        if r.token || r.columns.len() != 1 {
            return false;
        }
        let Some(col) = self.table.columns.get(r.first_column()) else {
            return false;
        };
        group.iter().any(|i| {
            i.column == col.name
                && index_supports(i, &col.ty, &r.op, r.operator)
                && !(i.implementation != IndexImpl::Sai
                    && matches!(r.op, Op::Contains { values, keys, entries } if values + keys + entries > 1))
        })
    }

    /// The index the read goes through: from a group that serves the whole row
    /// filter if there is one, else the first index serving any filter restriction
    /// (Cassandra chooses by estimated selectivity at execution; offline, WHERE order decides).
    fn chosen_index(&self) -> Option<&'t Index> {
        let filter = self.filter_list();
        let groups = self.index_groups();
        let full = groups
            .iter()
            .find(|g| !filter.is_empty() && filter.iter().all(|r| self.group_supports(g, r)));
        let pick = |g: &Vec<&'t Index>| -> Option<&'t Index> {
            filter.iter().find_map(|r| {
                let col = self.table.columns.get(r.first_column())?;
                g.iter()
                    .find(|i| i.column == col.name && index_supports(i, &col.ty, &r.op, r.operator))
                    .copied()
            })
        };
        full.and_then(pick)
            .or_else(|| groups.iter().find_map(pick))
            .or_else(|| self.first_index())
    }

    /// `StatementRestrictions.needFiltering`: the row filter holds something that
    /// no single index group serves, or only clustering restrictions narrow a range.
    pub fn need_filtering(&self) -> bool {
        let filter = self.filter_list();
        if filter.is_empty() {
            return !self.clustering.is_empty();
        }
        !self
            .index_groups()
            .iter()
            .any(|g| filter.iter().all(|r| self.group_supports(g, r)))
    }

    /// Number of partitions named by the partition key restrictions (product of IN sizes).
    pub fn partition_count(&self) -> Values {
        self.restrictions_of(&self.partition)
            .fold(Values::Known(1), |acc, r| {
                acc.times(match r.op {
                    Op::In(v) => v,
                    _ => Values::Known(1),
                })
            })
    }

    /// True when `column` is restricted by `=` (or by a one-value IN), as `isColumnRestrictedByEq`.
    pub fn restricted_by_eq(&self, column: usize) -> bool {
        let r = match self.kind_of(column) {
            ColumnKind::PartitionKey(p) => self.partition.get(&p),
            ColumnKind::Clustering(p, _) => self.clustering.get(&p),
            _ => self.non_pk.get(&column),
        };
        r.and_then(|i| self.list.get(*i))
            .is_some_and(|r| matches!(r.op, Op::Eq))
    }

    /// True when `column` is restricted by `=` or IN (`hasOnlyEqualityRestrictions`).
    pub fn restricted_by_eq_or_in(&self, column: usize) -> bool {
        let r = match self.kind_of(column) {
            ColumnKind::PartitionKey(p) => self.partition.get(&p),
            ColumnKind::Clustering(p, _) => self.clustering.get(&p),
            _ => self.non_pk.get(&column),
        };
        r.and_then(|i| self.list.get(*i))
            .is_some_and(|r| r.op.is_eq_or_in())
    }

    /// Whether the partition key is restricted by IN (`keyIsInRelation`).
    pub fn key_is_in_relation(&self) -> bool {
        self.restrictions_of(&self.partition)
            .any(|r| matches!(r.op, Op::In(_)))
    }

    pub fn clustering_restrictions(&self) -> impl Iterator<Item = &Restriction> {
        self.restrictions_of(&self.clustering)
    }
}

#[derive(Clone, Copy)]
enum Target {
    Partition,
    Clustering,
    NonPk,
}
