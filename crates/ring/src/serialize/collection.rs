//! List, set and map literals (`CollectionSerializer.pack`): an `int32` element count,
//! then each element as an `int32` length and its bytes. Sets and maps are written in
//! the element (key) type's comparator order with duplicates dropped, as
//! `SetType`/`MapType.filterSortAndValidateElements` do with a `TreeSet`/`TreeMap`.

use std::cmp::Ordering;

use cqlmodel_cql::ast::{Literal, Term, TermKind};
use cqlmodel_schema::types::CqlType;

use crate::compare::compare;
use crate::error::{ValueError, ValueErrorKind};

use super::{serialize_term, type_mismatch, write_length};

pub(super) fn serialize_list(
    ty: &CqlType,
    element: &CqlType,
    term: &Term,
) -> Result<Vec<u8>, ValueError> {
    let TermKind::List(items) = &term.kind else {
        return Err(type_mismatch(ty, term));
    };
    let values = items
        .iter()
        .map(|item| serialize_element(element, item))
        .collect::<Result<Vec<_>, _>>()?;
    pack(&values, term)
}

pub(super) fn serialize_set(
    ty: &CqlType,
    element: &CqlType,
    term: &Term,
) -> Result<Vec<u8>, ValueError> {
    let items: &[Term] = match &term.kind {
        TermKind::Set(items) => items,
        // `{}` parses as an empty map; Cassandra accepts it for a set.
        TermKind::Map(entries) if entries.is_empty() => &[],
        _ => return Err(type_mismatch(ty, term)),
    };
    let mut values = items
        .iter()
        .map(|item| serialize_element(element, item))
        .collect::<Result<Vec<_>, _>>()?;
    // A stable sort then dropping later equals keeps the first occurrence, as
    // TreeSet.add does.
    values.sort_by(|a, b| compare(element, a, b));
    values.dedup_by(|later, earlier| compare(element, earlier, later) == Ordering::Equal);
    pack(&values, term)
}

pub(super) fn serialize_map(
    ty: &CqlType,
    key: &CqlType,
    value: &CqlType,
    term: &Term,
) -> Result<Vec<u8>, ValueError> {
    let TermKind::Map(entries) = &term.kind else {
        return Err(type_mismatch(ty, term));
    };
    let mut pairs = entries
        .iter()
        .map(|(k, v)| Ok((serialize_element(key, k)?, serialize_element(value, v)?)))
        .collect::<Result<Vec<_>, ValueError>>()?;
    pairs.sort_by(|a, b| compare(key, &a.0, &b.0));
    // TreeMap.put keeps the first key it saw and the last value given for it.
    let mut merged: Vec<(Vec<u8>, Vec<u8>)> = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        match merged.last_mut() {
            Some(last) if compare(key, &last.0, &k) == Ordering::Equal => last.1 = v,
            _ => merged.push((k, v)),
        }
    }
    let flat: Vec<Vec<u8>> = merged.into_iter().flat_map(|(k, v)| [k, v]).collect();
    let mut out = Vec::new();
    write_length(&mut out, flat.len() / 2, term)?;
    for item in &flat {
        write_length(&mut out, item.len(), term)?;
        out.extend_from_slice(item);
    }
    Ok(out)
}

fn serialize_element(ty: &CqlType, term: &Term) -> Result<Vec<u8>, ValueError> {
    if matches!(term.kind, TermKind::Literal(Literal::Null)) {
        return Err(ValueError::new(ValueErrorKind::NullInCollection, term.span));
    }
    serialize_term(ty, term)
}

fn pack(values: &[Vec<u8>], term: &Term) -> Result<Vec<u8>, ValueError> {
    let mut out = Vec::with_capacity(4 + values.iter().map(|v| v.len() + 4).sum::<usize>());
    write_length(&mut out, values.len(), term)?;
    for value in values {
        write_length(&mut out, value.len(), term)?;
        out.extend_from_slice(value);
    }
    Ok(out)
}
