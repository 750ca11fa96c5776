//! The cluster flags, one definition for diagnose, migrate, review and size: each
//! command's `--help` lists the same nine flags with the same text, and the new
//! `review --cluster` / `size --cluster` fail like diagnose does on an unreachable
//! cluster or a contradictory command line.

use std::process::Command;
use std::time::{Duration, Instant};

use insta_cmd::get_cargo_bin;

fn cqlmodel() -> Command {
    let mut cmd = Command::new(get_cargo_bin("cqlmodel"));
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    cmd.env("NO_COLOR", "1");
    cmd.env_remove("CQLMODEL_USERNAME");
    cmd.env_remove("CQLMODEL_PASSWORD");
    cmd
}

const FLAGS: [&str; 9] = [
    "--cluster <HOST[:PORT]>",
    "--username <USERNAME>",
    "--password <PASSWORD>",
    "--ssl",
    "--ca-file <PEM>",
    "--cert <PEM>",
    "--key <PEM>",
    "--dc <DATACENTER>",
    "--connect-timeout <SECONDS>",
];

/// The lines of `--help` from each flag to the next option: the flag and its text.
fn flag_help(help: &str, flag: &str) -> String {
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(flag));
    let mut out: Vec<&str> = lines.next().into_iter().collect();
    out.extend(lines.take_while(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty()));
    out.join("\n")
}

#[test]
fn every_cluster_command_has_the_same_nine_flags() {
    let helps: Vec<(&str, String)> = ["diagnose", "migrate", "review", "size"]
        .into_iter()
        .map(|c| {
            let out = cqlmodel().args([c, "--help"]).output().expect("runs");
            assert_eq!(out.status.code(), Some(0), "{c} --help");
            (c, String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .collect();
    for flag in FLAGS {
        let first = flag_help(&helps[0].1, flag);
        assert!(!first.is_empty(), "diagnose --help lacks {flag}");
        for (command, help) in &helps[1..] {
            assert_eq!(
                flag_help(help, flag),
                first,
                "{command} --help words {flag} differently from diagnose"
            );
        }
    }
}

fn fails_fast(args: &[&str]) -> String {
    let start = Instant::now();
    let out = cqlmodel().args(args).output().expect("runs");
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn review_and_size_fail_within_the_connect_timeout() {
    for command in ["review", "size"] {
        let err = fails_fast(&[
            command,
            "--cluster",
            "127.0.0.1:1",
            "--connect-timeout",
            "2",
        ]);
        assert!(err.contains("127.0.0.1:1"), "{command}: {err}");
        assert!(err.contains("--connect-timeout"), "{command}: {err}");
    }
}

#[test]
fn schema_files_and_a_cluster_do_not_mix() {
    let err = fails_fast(&["review", "schema.cql", "--cluster", "127.0.0.1:1"]);
    assert!(err.contains("cannot be used with"), "{err}");
    let err = fails_fast(&["size", "schema.cql", "--cluster", "127.0.0.1:1"]);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn a_client_certificate_needs_its_key() {
    for command in ["diagnose", "migrate", "review", "size"] {
        let err = fails_fast(&[command, "--cluster", "127.0.0.1:1", "--cert", "client.pem"]);
        assert!(err.contains("--key"), "{command}: {err}");
    }
}

#[test]
fn size_needs_statistics_or_a_cluster() {
    let err = fails_fast(&["size", "crates/diagnose/tests/data/schema.cql"]);
    assert!(err.contains("--stats"), "{err}");
}
