//! Expressions: terms (values), WHERE relations and IF conditions, and SELECT
//! selectors.

mod relation;
mod selector;
mod term;
