//! Every rule has a documentation page in `docs/rules/NAME.md`, generated from
//! its doc comment, with the fixed sections; the pages on disk are up to date.
//! Regenerate them with `CQLMODEL_BLESS=1 cargo test -p cqlmodel-review --test rule_docs`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use cqlmodel_review::{RULES, rule_page};

const SECTIONS: [&str; 6] = [
    "## What it does",
    "## Evidence",
    "## Why is this bad?",
    "## Example",
    "## Use instead",
    "## References",
];

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let mut codes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for rule in RULES {
        assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
        assert!(names.insert(rule.name), "duplicate name {}", rule.name);
        assert!(
            rule.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{} is not kebab-case",
            rule.name
        );
        assert!(
            rule.code.starts_with("CQL") && rule.code.len() == 6,
            "{}",
            rule.code
        );
    }
}

#[test]
fn every_rule_documents_every_section_in_order() {
    for rule in RULES {
        let mut last = 0;
        for section in SECTIONS {
            let pos = rule
                .doc
                .find(section)
                .unwrap_or_else(|| panic!("{}: missing {section}", rule.name));
            assert!(pos >= last, "{}: {section} out of order", rule.name);
            last = pos;
        }
    }
}

#[test]
fn docs_pages_are_up_to_date() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules"));
    let bless = std::env::var_os("CQLMODEL_BLESS").is_some();
    let mut stale = Vec::new();
    for rule in RULES {
        let path = dir.join(format!("{}.md", rule.name));
        let page = rule_page(rule);
        if bless {
            std::fs::write(&path, &page).expect("write docs page");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(page.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    let mut index = String::from(
        "# Review rules\n\n| code | rule | default | what it finds |\n|---|---|---|---|\n",
    );
    for rule in RULES {
        index.push_str(&format!(
            "| {} | [{}]({}.md) | {} | {} |\n",
            rule.code, rule.name, rule.name, rule.default_severity, rule.summary
        ));
    }
    let index_path = dir.join("README.md");
    if bless {
        std::fs::write(&index_path, &index).expect("write index");
    } else if std::fs::read_to_string(&index_path).ok().as_deref() != Some(index.as_str()) {
        stale.push(index_path.display().to_string());
    }
    assert!(
        stale.is_empty(),
        "stale rule docs (run CQLMODEL_BLESS=1 cargo test -p cqlmodel-review --test rule_docs): {stale:?}"
    );
}
