use cqlmodel_cql::ast::*;
#[test]
fn sizes() {
    println!("Term {}", std::mem::size_of::<Term>());
    println!("TermKind {}", std::mem::size_of::<TermKind>());
    println!("Selector {}", std::mem::size_of::<Selector>());
    println!("Relation {}", std::mem::size_of::<Relation>());
    println!("DataType {}", std::mem::size_of::<DataType>());
    println!("ParseError {}", std::mem::size_of::<cqlmodel_cql::ParseError>());
    println!("Result<Term> {}", std::mem::size_of::<Result<Term, cqlmodel_cql::ParseError>>());
    println!("Statement {}", std::mem::size_of::<Statement>());
}
