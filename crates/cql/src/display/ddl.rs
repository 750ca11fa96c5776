//! Data definition statements.

use std::fmt::{self, Display, Formatter};

use super::{FunctionName, Sep, comma, write_string};
use crate::ast::{
    AlterKeyspace, AlterMaterializedView, AlterTable, AlterTableAction, AlterType, AlterTypeAction,
    ClusteringOrder, ColumnDef, ColumnMask, CreateAggregate, CreateFunction, CreateIndex,
    CreateKeyspace, CreateMaterializedView, CreateTable, CreateType, DropObject, FieldDef,
    FunctionArg, Ident, IndexTarget, IndexTargetKind, Order, PrimaryKey, Property, TableOptions,
};

pub(crate) fn if_exists(flag: bool) -> &'static str {
    if flag { "IF EXISTS " } else { "" }
}

pub(crate) fn if_not_exists(flag: bool) -> &'static str {
    if flag { "IF NOT EXISTS " } else { "" }
}

pub(super) fn write_drop(f: &mut Formatter<'_>, kind: &str, drop: &DropObject) -> fmt::Result {
    write!(f, "DROP {kind} {drop}")
}

/// What follows `DROP <kind>`: `[IF EXISTS] name[(types)]`.
impl Display for DropObject {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", if_exists(self.if_exists), self.name)?;
        if let Some(types) = &self.arg_types {
            write!(f, "({})", comma(types))?;
        }
        Ok(())
    }
}

impl Display for Property {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.name, self.value)
    }
}

impl Display for CreateKeyspace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE KEYSPACE {}{} WITH {}",
            if_not_exists(self.if_not_exists),
            self.name,
            Sep(&self.properties, " AND ")
        )
    }
}

impl Display for AlterKeyspace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER KEYSPACE {}{} WITH {}",
            if_exists(self.if_exists),
            self.name,
            Sep(&self.properties, " AND ")
        )
    }
}

impl Display for ColumnMask {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ColumnMask::Default => f.write_str("MASKED WITH DEFAULT"),
            ColumnMask::Function { name, args } => {
                write!(f, "MASKED WITH {}({})", FunctionName(name), comma(args))
            }
        }
    }
}

impl Display for ColumnDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.data_type)?;
        if self.is_static {
            f.write_str(" STATIC")?;
        }
        if let Some(mask) = &self.mask {
            write!(f, " {mask}")?;
        }
        if self.primary_key {
            f.write_str(" PRIMARY KEY")?;
        }
        Ok(())
    }
}

impl Display for PrimaryKey {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("PRIMARY KEY (")?;
        if self.parenthesized_partition || self.partition_key.len() != 1 {
            write!(f, "({})", comma(&self.partition_key))?;
        } else {
            write!(f, "{}", comma(&self.partition_key))?;
        }
        for column in &self.clustering {
            write!(f, ", {column}")?;
        }
        f.write_str(")")
    }
}

impl Display for Order {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

impl Display for ClusteringOrder {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.column, self.order.keyword())
    }
}

fn options_are_empty(options: &TableOptions) -> bool {
    options.clustering_order.is_empty() && !options.compact_storage && options.properties.is_empty()
}

/// ` WITH ...` when there is anything to say.
fn write_with(f: &mut Formatter<'_>, options: &TableOptions) -> fmt::Result {
    if options_are_empty(options) {
        Ok(())
    } else {
        write!(f, " WITH {options}")
    }
}

impl Display for TableOptions {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut sep = |f: &mut Formatter<'_>| {
            let s = if first { "" } else { " AND " };
            first = false;
            f.write_str(s)
        };
        if !self.clustering_order.is_empty() {
            sep(f)?;
            write!(f, "CLUSTERING ORDER BY ({})", comma(&self.clustering_order))?;
        }
        if self.compact_storage {
            sep(f)?;
            f.write_str("COMPACT STORAGE")?;
        }
        for property in &self.properties {
            sep(f)?;
            property.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for CreateTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE TABLE {}{} ({}",
            if_not_exists(self.if_not_exists),
            self.name,
            comma(&self.columns)
        )?;
        if let Some(primary_key) = &self.primary_key {
            let sep = if self.columns.is_empty() { "" } else { ", " };
            write!(f, "{sep}{primary_key}")?;
        }
        f.write_str(")")?;
        write_with(f, &self.options)
    }
}

/// `a TO b AND c TO d`.
fn write_renames(f: &mut Formatter<'_>, renames: &[(Ident, Ident)]) -> fmt::Result {
    for (i, (from, to)) in renames.iter().enumerate() {
        if i > 0 {
            f.write_str(" AND ")?;
        }
        write!(f, "{from} TO {to}")?;
    }
    Ok(())
}

impl Display for AlterTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER TABLE {}{} {}",
            if_exists(self.if_exists),
            self.name,
            self.action
        )
    }
}

impl Display for AlterTableAction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            AlterTableAction::Add {
                if_not_exists: ine,
                columns,
            } => match columns.as_slice() {
                [column] => write!(f, "ADD {}{column}", if_not_exists(*ine)),
                _ => write!(f, "ADD {}({})", if_not_exists(*ine), comma(columns)),
            },
            AlterTableAction::Drop {
                if_exists: ie,
                columns,
                timestamp,
            } => {
                match columns.as_slice() {
                    [column] => write!(f, "DROP {}{column}", if_exists(*ie))?,
                    _ => write!(f, "DROP {}({})", if_exists(*ie), comma(columns))?,
                }
                if let Some(timestamp) = timestamp {
                    write!(f, " USING TIMESTAMP {timestamp}")?;
                }
                Ok(())
            }
            AlterTableAction::Rename {
                if_exists: ie,
                renames,
            } => {
                write!(f, "RENAME {}", if_exists(*ie))?;
                write_renames(f, renames)
            }
            AlterTableAction::AlterColumnType { column, data_type } => {
                write!(f, "ALTER {column} TYPE {data_type}")
            }
            AlterTableAction::Mask {
                if_exists: ie,
                column,
                mask,
            } => match mask {
                Some(mask) => write!(f, "ALTER {}{column} {mask}", if_exists(*ie)),
                None => write!(f, "ALTER {}{column} DROP MASKED", if_exists(*ie)),
            },
            AlterTableAction::With(options) => write!(f, "WITH {options}"),
            AlterTableAction::DropCompactStorage => f.write_str("DROP COMPACT STORAGE"),
        }
    }
}

impl Display for FieldDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.data_type)
    }
}

impl Display for CreateType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE TYPE {}{} ({})",
            if_not_exists(self.if_not_exists),
            self.name,
            comma(&self.fields)
        )
    }
}

impl Display for AlterType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER TYPE {}{} {}",
            if_exists(self.if_exists),
            self.name,
            self.action
        )
    }
}

impl Display for AlterTypeAction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            AlterTypeAction::Add {
                if_not_exists: ine,
                field,
            } => write!(f, "ADD {}{field}", if_not_exists(*ine)),
            AlterTypeAction::Rename {
                if_exists: ie,
                renames,
            } => {
                write!(f, "RENAME {}", if_exists(*ie))?;
                write_renames(f, renames)
            }
            AlterTypeAction::AlterFieldType { field, data_type } => {
                write!(f, "ALTER {field} TYPE {data_type}")
            }
        }
    }
}

/// The function around the column (`KEYS`, ...); empty for a bare column.
impl Display for IndexTargetKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IndexTargetKind::Simple => "",
            IndexTargetKind::Keys => "KEYS",
            IndexTargetKind::Values => "VALUES",
            IndexTargetKind::Entries => "ENTRIES",
            IndexTargetKind::Full => "FULL",
        })
    }
}

impl Display for IndexTarget {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.kind {
            IndexTargetKind::Simple => self.column.fmt(f),
            kind => write!(f, "{kind}({})", self.column),
        }
    }
}

impl Display for CreateIndex {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.custom {
            "CREATE CUSTOM INDEX "
        } else {
            "CREATE INDEX "
        })?;
        f.write_str(if_not_exists(self.if_not_exists))?;
        if let Some(name) = &self.name {
            write!(f, "{name} ")?;
        }
        write!(f, "ON {} ({})", self.table, comma(&self.targets))?;
        if let Some(class) = &self.using {
            f.write_str(" USING ")?;
            write_string(f, class)?;
        }
        if !self.options.is_empty() {
            write!(f, " WITH {}", Sep(&self.options, " AND "))?;
        }
        Ok(())
    }
}

impl Display for CreateMaterializedView {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE MATERIALIZED VIEW {}{} AS SELECT {} FROM {}",
            if_not_exists(self.if_not_exists),
            self.name,
            self.selection,
            self.base_table
        )?;
        if !self.where_clause.is_empty() {
            write!(f, " WHERE {}", Sep(&self.where_clause, " AND "))?;
        }
        write!(f, " {}", self.primary_key)?;
        write_with(f, &self.options)
    }
}

impl Display for AlterMaterializedView {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER MATERIALIZED VIEW {}{} WITH {}",
            if_exists(self.if_exists),
            self.name,
            self.options
        )
    }
}

impl Display for FunctionArg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.data_type)
    }
}

impl Display for CreateFunction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE {}FUNCTION {}{}({}) {} RETURNS {} LANGUAGE {} AS ",
            if self.or_replace { "OR REPLACE " } else { "" },
            if_not_exists(self.if_not_exists),
            self.name,
            comma(&self.args),
            if self.called_on_null_input {
                "CALLED ON NULL INPUT"
            } else {
                "RETURNS NULL ON NULL INPUT"
            },
            self.returns,
            self.language
        )?;
        if self.dollar_quoted && !self.body.contains("$$") {
            write!(f, "$${}$$", self.body)
        } else {
            write_string(f, &self.body)
        }
    }
}

impl Display for CreateAggregate {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE {}AGGREGATE {}{}({}) SFUNC {} STYPE {}",
            if self.or_replace { "OR REPLACE " } else { "" },
            if_not_exists(self.if_not_exists),
            self.name,
            comma(&self.arg_types),
            self.state_function,
            self.state_type
        )?;
        if let Some(final_function) = &self.final_function {
            write!(f, " FINALFUNC {final_function}")?;
        }
        if let Some(init) = &self.init_condition {
            write!(f, " INITCOND {init}")?;
        }
        Ok(())
    }
}
