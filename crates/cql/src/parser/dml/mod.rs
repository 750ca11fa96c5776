//! Data manipulation statements: SELECT, INSERT, UPDATE, DELETE and BATCH.

mod batch;
mod delete;
mod insert;
mod select;
mod update;
