//! One module per command's page; `findings` is shared by review and diagnose.

pub mod design;
pub mod design_sizing;
pub mod design_verdict;
pub mod design_writes;
pub mod diagnose;
pub mod diagnose_chart;
pub mod findings;
pub mod migrate;
pub mod review;
pub mod review_workload;
pub mod ring;
pub mod size;
pub mod units;
