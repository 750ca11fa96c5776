//! The mechanism that keeps each table of a write path in step.

use super::{Step, WriteStatement};

/// The mechanism that keeps each table in step, and why: counters on their
/// own (a batch cannot mix them with other writes, and a retried increment may
/// count twice); fan-out rows written by the application from a queue; a few
/// plain statements in one logged batch; more than five as dual writes.
pub(super) fn assign_mechanisms(statements: &mut [WriteStatement]) {
    let plain = statements
        .iter()
        .filter(|s| s.repeat.is_none() && !s.counter && !s.lwt)
        .count();
    let mut first = true;
    for s in statements.iter_mut() {
        if s.step == Step::Release {
            s.mechanism = "lightweight transaction, last".into();
            s.reason = "releases the old value only if it is still this row's (LOCAL_SERIAL); a claimed partition is written only with conditions: LWT and plain writes on one partition do not order safely".into();
        } else if s.step == Step::Conditional {
            s.mechanism = "lightweight transaction, first".into();
            s.reason = "a conditional write on a partition claimed with a lightweight transaction (LOCAL_SERIAL): it applies only while the value is still this row's; LWT and plain writes on one partition do not order safely".into();
        } else if s.lwt {
            s.mechanism = "lightweight transaction, first".into();
            s.reason = "claims the UNIQUE value (Paxos, LOCAL_SERIAL): when it is not applied the value is taken and nothing else is written (release the claims this mutation already made, DELETE … IF <id> = ?); a conditional statement cannot share a batch with other partitions; a retry that finds the value claimed by this same row has succeeded".into();
        } else if s.step == Step::Increment {
            s.mechanism = "counter update".into();
            s.reason = "outside any batch (a batch cannot mix counter and non-counter writes); not idempotent: retry only when the write certainly failed, a timed-out increment may have applied".into();
        } else if s.counter {
            s.mechanism = "counter update".into();
            s.reason = "outside any batch (a batch cannot mix counter and non-counter writes); not idempotent: retry only when the write certainly failed, or a timeout may count twice; and count only new rows: a repeated INSERT is an upsert in Cassandra (the relational primary key rejected it), so guard the increment (INSERT … IF NOT EXISTS on the write of record, or a read)".into();
        } else if s.repeat.is_some() {
            s.mechanism = "application write with retry from a queue".into();
            s.reason = "one row per related row: too many partitions for a batch; the write of record enqueues the work (Kafka, or a table polled by a worker) and a worker writes every row, retrying until all are written, with USING TIMESTAMP of the source mutation so that a retry cannot resurrect a row a later delete removed".into();
        } else if plain == 1 {
            s.mechanism = "single statement".into();
            s.reason = "one partition of one table: atomic and isolated".into();
        } else if plain <= 5 {
            s.mechanism = "logged batch".into();
            s.reason = if first {
                "the write of record; the batchlog makes every statement of the batch apply eventually (all or nothing), at the cost of a batchlog write".into()
            } else {
                "kept in step with the write of record in the same LOGGED BATCH".into()
            };
            first = false;
        } else {
            s.mechanism = "application dual write with retry from a queue".into();
            s.reason = "more than five partitions: too many for a logged batch; written after the write of record, a failure is queued and retried so the table converges".into();
        }
    }
}
