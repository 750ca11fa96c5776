//! Node headers: how several nodes' outputs share one input. Two spellings are
//! read: the `==> NAME <==` line `head`/`tail` print between files
//! (`tail -n +1 node*.txt > all.txt`), and a `# node: NAME` comment line.

/// The node a header line names, if the line is one.
pub(crate) fn node_header(line: &str) -> Option<&str> {
    // Most lines are neither: decide on the first byte before trimming.
    let lead = line.trim_start();
    if !(lead.starts_with("==>") || lead.starts_with('#')) {
        return None;
    }
    let t = lead.trim_end();
    if let Some(inner) = t.strip_prefix("==>").and_then(|r| r.strip_suffix("<==")) {
        let name = inner.trim();
        return (!name.is_empty()).then_some(name);
    }
    let rest = t.strip_prefix('#')?.trim_start();
    let name = rest
        .strip_prefix("node:")
        .or_else(|| rest.strip_prefix("Node:"))?
        .trim();
    (!name.is_empty()).then_some(name)
}

/// A comment line (`# ...`) that is not a node header: fixtures' provenance
/// notes. nodetool never starts a line with `#`.
pub(crate) fn is_comment(line: &str) -> bool {
    let lead = line.trim_start();
    lead.starts_with('#') && node_header(lead).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_header_spellings_name_the_node() {
        assert_eq!(node_header("==> 10.0.0.1.txt <=="), Some("10.0.0.1.txt"));
        assert_eq!(node_header("# node: 10.0.0.2"), Some("10.0.0.2"));
        assert_eq!(node_header("# written from TableStatsPrinter"), None);
        assert_eq!(node_header("==>  <=="), None);
        assert!(is_comment("# written from TableStatsPrinter"));
        assert!(!is_comment("# node: a"));
    }
}
