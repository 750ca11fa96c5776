#[test]
fn stack_probe() {
    let shapes: Vec<(&str, Box<dyn Fn(usize) -> String>)> = vec![
        ("list", Box::new(|n| format!("SELECT * FROM t WHERE k = {}1{}", "[".repeat(n), "]".repeat(n)))),
        ("tuple", Box::new(|n| format!("SELECT * FROM t WHERE k = {}1{}", "(".repeat(n), ")".repeat(n)))),
        ("hint", Box::new(|n| format!("SELECT * FROM t WHERE k = {}1", "(int) ".repeat(n)))),
        ("fn", Box::new(|n| format!("SELECT * FROM t WHERE k = {}1{}", "f(".repeat(n), ")".repeat(n)))),
        ("sel", Box::new(|n| format!("SELECT {}a{} FROM t", "f(".repeat(n), ")".repeat(n)))),
        ("rel", Box::new(|n| format!("SELECT * FROM t WHERE {}a = 1{}", "(".repeat(n), ")".repeat(n)))),
        ("udt", Box::new(|n| format!("SELECT * FROM t WHERE k = {}1{}", "{a: ".repeat(n), "}".repeat(n)))),
        ("type", Box::new(|n| format!("CREATE TABLE t (k {}int{} PRIMARY KEY)", "frozen<".repeat(n), ">".repeat(n)))),
    ];
    let want = std::env::var("SHAPE").unwrap_or_default();
    let kb: usize = std::env::var("KB").ok().and_then(|k| k.parse().ok()).unwrap_or(2048);
    for (name, make) in &shapes {
        if *name != want { continue; }
        {
            let src = make(127);
            let ok = std::thread::Builder::new().stack_size(kb * 1024).spawn(move || {
                let r = cqlmodel_cql::parse(&src);
                r.errors.len()
            }).unwrap().join().is_ok();
            println!("{name} depth 127 with {kb} KB: {ok}");
        }
    }
}
