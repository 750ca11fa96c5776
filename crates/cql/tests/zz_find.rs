mod strategies;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::io::Write;
#[test]
fn find() {
    let mut runner = TestRunner::deterministic();
    let strat = strategies::statements::statement();
    let mut texts = Vec::new();
    for _ in 0..4000 {
        let v = strat.new_tree(&mut runner).unwrap().current();
        texts.push(v.to_string());
    }
    std::thread::Builder::new().stack_size(2 << 20).spawn(move || {
        for t in texts {
            let mut e = std::io::stderr();
            writeln!(e, "CASE {}", t).unwrap();
            e.flush().unwrap();
            let _ = cqlmodel_cql::parse_statement(&t);
        }
    }).unwrap().join().unwrap();
}
