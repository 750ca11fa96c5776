//! SARIF 2.1.0 output, shaped for GitHub code scanning.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::{Region, file_of};
use crate::{Diagnostic, Label, RuleMeta, Severity, SourceFile, SourceMap};

/// The `id` of the OASIS schema the output conforms to.
const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
const TOOL_NAME: &str = "cqlmodel";
/// Versioned so that a change of the fingerprint recipe can be told apart.
const FINGERPRINT_KEY: &str = "cqlmodel/v1";
const SOURCE_ROOT: &str = "%SRCROOT%";

/// Renders one SARIF 2.1.0 log with a single run.
///
/// - Every code seen gets a `tool.driver.rules` entry: those in `rules` first (in
///   order), then codes not described there (such as `parse-error`), so every
///   result carries a valid `ruleIndex`.
/// - GitHub rejects a whole upload if any result lacks a location, so
///   diagnostics not tied to a file become tool execution notifications of the
///   run's invocation instead of results. The invocation counts as failed when
///   one of them is an error.
/// - Relative paths are resolved against `%SRCROOT%`; columns count Unicode code
///   points (`columnKind`), regions end exclusively.
/// - `partialFingerprints` hash the rule, file, table, query and the labelled
///   text rather than positions, so an alert survives lines moving.
pub fn render_sarif(
    diags: &[Diagnostic],
    sources: &SourceMap,
    tool_version: &str,
    rules: &[RuleMeta],
) -> Value {
    let catalog = RuleCatalog::new(rules, diags);
    let mut fingerprints = Fingerprints::default();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for diag in diags {
        let rule_index = catalog.index_of(&diag.code);
        match file_of(diag, sources) {
            Some(file) => results.push(result(diag, file, rule_index, &mut fingerprints)),
            None => notifications.push(notification(diag, rule_index)),
        }
    }

    let mut driver = Map::new();
    driver.insert("name".into(), TOOL_NAME.into());
    let information_uri = env!("CARGO_PKG_REPOSITORY");
    if !information_uri.is_empty() {
        driver.insert("informationUri".into(), information_uri.into());
    }
    driver.insert("version".into(), tool_version.into());
    driver.insert("rules".into(), Value::Array(catalog.descriptors));

    let execution_successful = !diags
        .iter()
        .any(|d| d.severity == Severity::Error && file_of(d, sources).is_none());
    let mut invocation = Map::new();
    invocation.insert("executionSuccessful".into(), execution_successful.into());
    if !notifications.is_empty() {
        invocation.insert(
            "toolExecutionNotifications".into(),
            Value::Array(notifications),
        );
    }

    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver },
            "invocations": [invocation],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// `tool.driver.rules`, and where each code sits in it.
struct RuleCatalog {
    descriptors: Vec<Value>,
    indexes: HashMap<String, usize>,
}

impl RuleCatalog {
    fn new(rules: &[RuleMeta], diags: &[Diagnostic]) -> Self {
        let mut catalog = Self {
            descriptors: Vec::new(),
            indexes: HashMap::new(),
        };
        for rule in rules {
            catalog.insert(&rule.code, || described_rule(rule));
        }
        for diag in diags {
            catalog.insert(&diag.code, || undescribed_rule(diag));
        }
        catalog
    }

    fn insert(&mut self, code: &str, descriptor: impl FnOnce() -> Value) {
        if !self.indexes.contains_key(code) {
            self.indexes.insert(code.to_owned(), self.descriptors.len());
            self.descriptors.push(descriptor());
        }
    }

    fn index_of(&self, code: &str) -> Option<usize> {
        self.indexes.get(code).copied()
    }
}

fn described_rule(rule: &RuleMeta) -> Value {
    let mut descriptor = json!({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": { "text": rule.short },
        "fullDescription": { "text": rule.full },
        // GitHub shows `help` on the alert page.
        "help": { "text": rule.full },
        "defaultConfiguration": { "level": level(rule.default_severity) },
    });
    if let (Some(uri), Some(object)) = (&rule.help_uri, descriptor.as_object_mut()) {
        object.insert("helpUri".into(), uri.as_str().into());
    }
    descriptor
}

/// A rule entry for a code the caller did not describe, built from its first use.
fn undescribed_rule(diag: &Diagnostic) -> Value {
    let name = diag.name.as_deref().unwrap_or(&diag.code);
    json!({
        "id": diag.code,
        "name": name,
        "shortDescription": { "text": name },
        "defaultConfiguration": { "level": level(diag.severity) },
    })
}

fn result(
    diag: &Diagnostic,
    file: &SourceFile,
    rule_index: Option<usize>,
    fingerprints: &mut Fingerprints,
) -> Value {
    let (uri, base) = artifact_uri(&file.name);
    let mut result = Map::new();
    result.insert("ruleId".into(), diag.code.as_str().into());
    if let Some(index) = rule_index {
        result.insert("ruleIndex".into(), index.into());
    }
    result.insert("level".into(), level(diag.severity).into());
    result.insert("message".into(), message(diag));
    let primary_location = physical_location(&uri, base, file, diag.primary.as_ref());
    result.insert(
        "locations".into(),
        json!([{ "physicalLocation": primary_location }]),
    );
    if !diag.secondary.is_empty() {
        let related: Vec<Value> = diag
            .secondary
            .iter()
            .zip(1..)
            .map(|(label, id): (&Label, usize)| {
                json!({
                    "id": id,
                    "physicalLocation": physical_location(&uri, base, file, Some(label)),
                    "message": { "text": label.message },
                })
            })
            .collect();
        result.insert("relatedLocations".into(), Value::Array(related));
    }
    result.insert(
        "partialFingerprints".into(),
        json!({ FINGERPRINT_KEY: fingerprints.next(diag, &uri, file) }),
    );
    let mut properties = Map::new();
    if let Some(table) = &diag.table {
        properties.insert("table".into(), table.as_str().into());
    }
    if let Some(query) = &diag.query {
        properties.insert("query".into(), query.as_str().into());
    }
    if !properties.is_empty() {
        result.insert("properties".into(), Value::Object(properties));
    }
    Value::Object(result)
}

fn notification(diag: &Diagnostic, rule_index: Option<usize>) -> Value {
    let mut rule = Map::new();
    rule.insert("id".into(), diag.code.as_str().into());
    if let Some(index) = rule_index {
        rule.insert("index".into(), index.into());
    }
    json!({
        "level": level(diag.severity),
        "message": message(diag),
        "associatedRule": rule,
    })
}

fn physical_location(
    uri: &str,
    base: Option<&str>,
    file: &SourceFile,
    label: Option<&Label>,
) -> Value {
    let mut artifact = Map::new();
    artifact.insert("uri".into(), uri.into());
    if let Some(base) = base {
        artifact.insert("uriBaseId".into(), base.into());
    }
    let mut location = Map::new();
    location.insert("artifactLocation".into(), Value::Object(artifact));
    if let Some(label) = label {
        let region = Region::of(file, label);
        location.insert(
            "region".into(),
            json!({
                "startLine": region.start_line,
                "startColumn": region.start_column,
                "endLine": region.end_line,
                "endColumn": region.end_column,
            }),
        );
    }
    Value::Object(location)
}

/// SARIF messages are plain text; the notes, help and fix ride along so that the
/// alert page explains itself.
fn message(diag: &Diagnostic) -> Value {
    let mut text = diag.message.clone();
    for note in &diag.notes {
        text.push_str("\nnote: ");
        text.push_str(note);
    }
    if let Some(help) = &diag.help {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    if let Some(fix) = &diag.fix {
        text.push_str("\nfix: ");
        text.push_str(&fix.description);
    }
    json!({ "text": text })
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as a URI reference: relative paths (resolved against `%SRCROOT%`) with
/// forward slashes, absolute ones as `file://` URIs without a base.
fn artifact_uri(path: &str) -> (String, Option<&'static str>) {
    let path = path.replace('\\', "/");
    if path.starts_with('/') {
        return (format!("file://{}", percent_encode(&path)), None);
    }
    let bytes = path.as_bytes();
    let has_drive = bytes.len() >= 3
        && bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.get(1) == Some(&b':')
        && bytes.get(2) == Some(&b'/');
    if has_drive {
        let (drive, rest) = path.split_at(2);
        return (format!("file:///{drive}{}", percent_encode(rest)), None);
    }
    let mut relative = path.as_str();
    while let Some(rest) = relative.strip_prefix("./") {
        relative = rest;
    }
    (percent_encode(relative), Some(SOURCE_ROOT))
}

/// Escapes everything but unreserved characters and `/`; `:` is escaped too,
/// since in a relative reference it would read as a scheme.
fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Position-free fingerprints; identical ones are told apart by an occurrence
/// count, as GitHub does for its own line hashes.
#[derive(Default)]
struct Fingerprints {
    seen: HashMap<u64, usize>,
}

impl Fingerprints {
    fn next(&mut self, diag: &Diagnostic, uri: &str, file: &SourceFile) -> String {
        let labelled = diag
            .primary
            .as_ref()
            .and_then(|label| file.text.get(file.clamp_span(label.span.clone())))
            .unwrap_or_default();
        let labelled: Vec<&str> = labelled.split_whitespace().collect();
        let parts = [
            diag.code.as_str(),
            uri,
            diag.table.as_deref().unwrap_or_default(),
            diag.query.as_deref().unwrap_or_default(),
            &labelled.join(" "),
        ];
        // A 0xff separator (never part of UTF-8) keeps ("ab", "c") and ("a", "bc") apart.
        let hash = fnv1a(parts.iter().flat_map(|part| part.bytes().chain([0xff])));
        let count = self.seen.entry(hash).or_insert(0);
        *count += 1;
        format!("{hash:016x}:{count}")
    }
}

/// FNV-1a (64-bit), because std's hasher is not stable across Rust releases and
/// fingerprints must be.
fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_use_forward_slashes_and_the_source_root() {
        assert_eq!(
            artifact_uri(r"schema\ks\tables.cql"),
            ("schema/ks/tables.cql".to_owned(), Some(SOURCE_ROOT))
        );
        assert_eq!(
            artifact_uri("./././a.cql"),
            ("a.cql".to_owned(), Some(SOURCE_ROOT))
        );
        assert_eq!(
            artifact_uri("my dir/a:b.cql"),
            ("my%20dir/a%3Ab.cql".to_owned(), Some(SOURCE_ROOT))
        );
        assert_eq!(
            artifact_uri("dir/é.cql"),
            ("dir/%C3%A9.cql".to_owned(), Some(SOURCE_ROOT))
        );
    }

    #[test]
    fn absolute_paths_become_file_uris() {
        assert_eq!(
            artifact_uri("/home/u/a.cql"),
            ("file:///home/u/a.cql".to_owned(), None)
        );
        assert_eq!(
            artifact_uri(r"C:\work\a b.cql"),
            ("file:///C:/work/a%20b.cql".to_owned(), None)
        );
    }

    #[test]
    fn fnv1a_matches_published_test_vectors() {
        assert_eq!(fnv1a(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(*b"foobar"), 0x8594_4171_f739_67e8);
    }
}
