mod common;
#[test]
fn dump() {
    for path in common::cql_files("ok") {
        let source = common::read(&path);
        let r = cqlmodel_cql::parse(&source);
        println!("== {} ({} stmts, {} comments)", path.display(), r.statements.len(), r.comments.len());
        for s in &r.statements { println!("{s}"); }
    }
}
