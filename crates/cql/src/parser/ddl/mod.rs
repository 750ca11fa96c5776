//! Data definition statements, one module per object kind.

mod function;
mod index;
mod keyspace;
mod table;
mod type_;
mod view;
