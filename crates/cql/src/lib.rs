//! CQL syntax: lexer, parser and abstract syntax tree. Syntax only; meaning lives in
//! `cqlmodel-schema`.
pub mod ast;
