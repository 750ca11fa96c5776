//! Hostile inputs for every command. Each case asserts the exit code, a bound
//! on time and memory, no panic or abort, the inputs unchanged, and nothing
//! written outside the case's output directory. Fixtures are in
//! `tests/data/adversarial/`; the large inputs are generated here.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use insta_cmd::get_cargo_bin;

/// Generous for a debug build on a busy machine; the quadratic cases this
/// suite guards against took minutes.
const TIME_LIMIT: Duration = Duration::from_secs(30);
/// Virtual memory per run, in KiB (`ulimit -v`): 4 GiB.
const MEMORY_LIMIT_KIB: u64 = 4 << 20;

struct Case {
    name: &'static str,
    args: Vec<String>,
    stdin: Vec<u8>,
    /// The directory (relative to the work directory) the case may write.
    out: Option<&'static str>,
    code: i32,
    /// Text stderr (or stdout) must contain.
    says: Option<&'static str>,
    /// Virtual memory for this run, in KiB, when tighter than [`MEMORY_LIMIT_KIB`].
    memory_kib: u64,
}

fn case(name: &'static str, args: &str, code: i32) -> Case {
    Case {
        name,
        args: args.split_whitespace().map(String::from).collect(),
        stdin: Vec::new(),
        out: None,
        code,
        says: None,
        memory_kib: MEMORY_LIMIT_KIB,
    }
}

impl Case {
    fn says(mut self, text: &'static str) -> Self {
        self.says = Some(text);
        self
    }
    fn writes(mut self, dir: &'static str) -> Self {
        self.out = Some(dir);
        self
    }
    /// Bounds the run's virtual memory (`ulimit -v`) to `mib` MiB.
    fn within_mib(mut self, mib: u64) -> Self {
        self.memory_kib = mib << 10;
        self
    }
    fn stdin(mut self, bytes: Vec<u8>) -> Self {
        self.stdin = bytes;
        self
    }
}

/// The work directory: the fixtures, and the generated inputs.
fn workdir(root: &Path) -> PathBuf {
    let work = root.join("work/a/b");
    fs::create_dir_all(&work).unwrap_or_else(|e| panic!("{e}"));
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adversarial");
    for entry in fs::read_dir(&data)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
    {
        fs::copy(entry.path(), work.join(entry.file_name())).unwrap_or_else(|e| panic!("{e}"));
    }
    let write = |name: &str, bytes: &[u8]| {
        fs::write(work.join(name), bytes).unwrap_or_else(|e| panic!("{e}"));
    };
    let chain = |op: &str| {
        format!(
            "SELECT * FROM shop.orders WHERE customer_id = {};\n",
            vec!["1"; 30_000].join(op)
        )
    };
    write("chain-plus.cql", chain("+").as_bytes());
    // 5,000 rejected statements on one 165 KB line: each diagnostic's
    // excerpt was the whole line (quadratic: minutes), now a window.
    write(
        "one-line-rejected.cql",
        format!(
            "{}\n",
            "SELECT v FROM nowhere.t WHERE id = 1; ".repeat(5_000)
        )
        .as_bytes(),
    );
    write("chain-times.cql", chain("*").as_bytes());
    // 100,000 queries on one 3.4 MB line after the schema: the syntax trees
    // of all of them (and the tokens of the whole file) took 65 times the
    // input; statements are now parsed and dropped one at a time.
    write(
        "one-line-100k-selects.cql",
        format!(
            "CREATE KEYSPACE shop WITH replication = {{'class': 'NetworkTopologyStrategy', 'dc1': 3}}; \
             CREATE TABLE shop.t (k int, c int, v text, PRIMARY KEY (k, c)); {}\n",
            (0..100_000)
                .map(|i| format!("SELECT v FROM shop.t WHERE k = {}; ", i % 10))
                .collect::<String>()
        )
        .as_bytes(),
    );
    // 100,000 annotated queries, one a line: the syntax trees of all of
    // them were held at once (over 400 MiB of virtual memory in the debug
    // build); each is now parsed, explained, written and dropped.
    write(
        "queries-100k.cql",
        (0..100_000)
            .map(|i| {
                format!("-- @name q{i}\nSELECT total FROM shop.orders WHERE customer_id = ?;\n")
            })
            .collect::<String>()
            .as_bytes(),
    );
    // 5,000 tables on one line, each with a finding: each excerpt was the
    // whole line (quadratic: 56 s in release), now a window around it.
    write(
        "one-line-5k-tables.cql",
        format!(
            "CREATE KEYSPACE shop WITH replication = {{'class': 'NetworkTopologyStrategy', 'dc1': 3}}; {}\n",
            (0..5_000)
                .map(|i| format!(
                    "CREATE TABLE shop.t{i} (k int, c timestamp, v text, PRIMARY KEY (k, c)); "
                ))
                .collect::<String>()
        )
        .as_bytes(),
    );
    write(
        "chain-model.sql",
        b"CREATE TABLE t (id int PRIMARY KEY, v int);\n",
    );
    write(
        "chain-queries.sql",
        format!(
            "-- @name q\nSELECT v FROM t WHERE id = {};\n",
            vec!["1"; 30_000].join("+")
        )
        .as_bytes(),
    );
    write(
        "nul.cql",
        b"CREATE TABLE shop.t (k int PRIMARY KEY);\0\0\0SELECT\0;",
    );
    write(
        "latin1.cql",
        b"CREATE TABLE shop.caf\xe9 (k int PRIMARY KEY);",
    );
    write(
        "unclosed.cql",
        b"SELECT * FROM shop.orders WHERE status = 'open",
    );
    write(
        "deep.cql",
        format!(
            "SELECT * FROM shop.orders WHERE customer_id = {}1{};",
            "(".repeat(100_000),
            ")".repeat(100_000)
        )
        .as_bytes(),
    );
    write(
        "escape.cql",
        b"CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n\
          CREATE TABLE ks.t (k int PRIMARY KEY, \"evil\x1b[2J\x07\" text);\n",
    );
    write(
        "escape-query.cql",
        b"-- @name q\x1b[31m\nSELECT \"evil\x1b[2J\x07\" FROM ks.t WHERE k = 1;\n",
    );
    let mut dcs = String::from("num_tokens = 1\n");
    for i in 0..10_000 {
        dcs.push_str(&format!("[datacenter.dc{i}]\nrack.r1 = [\"n{i}\"]\n"));
    }
    write("topology-10k-dcs.toml", dcs.as_bytes());
    write("topology-garbage.toml", b"[datacenter.dc1\nrack = = [");
    write(
        "topology-escape.toml",
        b"[datacenter.\"dc\\u001b[31m\"]\nrack.r1 = [\"n\\u001b[2J1\", \"n\\u00072\", \"n3\"]\n",
    );
    fs::create_dir_all(work.join("empty-dir")).unwrap_or_else(|e| panic!("{e}"));
    fs::write(work.join("existing-file"), "keep me\n").unwrap_or_else(|e| panic!("{e}"));
    work
}

fn cases() -> Vec<Case> {
    vec![
        // explain
        case(
            "explain a 30,000-term + chain",
            "explain schema.cql --queries chain-plus.cql",
            2,
        )
        .says("nest deeper"),
        case(
            "explain a 30,000-term * chain",
            "explain schema.cql --queries chain-times.cql",
            2,
        )
        .says("nest deeper"),
        case(
            "explain 5,000 rejected statements on one line",
            "explain schema.cql --queries one-line-rejected.cql",
            2,
        )
        .says("keyspace nowhere does not exist"),
        case(
            "explain 100,000 annotated queries",
            "explain schema.cql --queries queries-100k.cql",
            0,
        )
        .says("100000 statements: 100000 valid")
        // Under 100 MiB since each query is dropped once written; 400 before.
        .within_mib(150),
        case(
            "explain 100,000 annotated queries in JSON",
            "explain schema.cql --queries queries-100k.cql --format json",
            0,
        )
        // The rows wait as text for the document's shape (known at the end):
        // under 200 MiB; over 400 with the syntax trees.
        .within_mib(300),
        case(
            "explain 100,000 parentheses",
            "explain schema.cql --queries deep.cql",
            2,
        ),
        case(
            "explain NUL bytes",
            "explain nul.cql --queries schema.cql",
            2,
        ),
        case(
            "explain Latin-1 bytes",
            "explain latin1.cql --queries schema.cql",
            2,
        )
        .says("UTF-8"),
        case(
            "explain an unclosed string",
            "explain schema.cql --queries unclosed.cql",
            2,
        )
        .says("unterminated"),
        case(
            "explain a schema as the queries",
            "explain schema.cql --queries schema.cql",
            2,
        )
        .says("nothing to explain"),
        case(
            "explain a Python file",
            "explain script.py --queries schema.cql",
            2,
        )
        .says("looks like Python"),
        case(
            "explain control characters",
            "explain escape.cql --queries escape-query.cql",
            0,
        ),
        // review
        case("review an empty directory", "review empty-dir", 2).says("no *.cql"),
        case("review a DML-only schema", "review dml-only.cql", 2).says("--queries"),
        case("review a Python file", "review script.py", 2).says("looks like Python"),
        case("review a JSON file", "review document.json", 2).says("looks like JSON"),
        case("review a pg_dump", "review dump.sql", 2).says("cqlmodel design"),
        case(
            "review misspelled annotations",
            "review schema.cql --queries misspelled-annotations.cql --fail-on error",
            0,
        )
        .says("did you mean `@name`"),
        case(
            "review cqlsh commands without ;",
            "review schema.cql --queries cqlsh-without-semicolons.cql --format json",
            1,
        )
        .says("unserved-query"),
        case(
            "review a broken statement's suppression",
            "review schema.cql --queries broken-annotated.cql --format json",
            2,
        )
        .says("open_orders"),
        case(
            "review 100,000 queries on one line",
            "review one-line-100k-selects.cql",
            0,
        )
        // Under 60 MiB since statements are parsed one at a time; over 300 before.
        .within_mib(150),
        case(
            "review 5,000 tables with a finding each on one line",
            "review one-line-5k-tables.cql",
            0,
        )
        .says("grow without bound")
        // The report (9 MB) is written as it is rendered: the debug build
        // runs within 70 MiB; it needed 100 MiB when the text was built whole.
        .within_mib(85),
        case(
            "review a 30,000-term chain",
            "review schema.cql --queries chain-plus.cql",
            2,
        ),
        // design
        case(
            "design into an existing file",
            "design dump.sql --out existing-file",
            2,
        )
        .says("not a directory"),
        case(
            "design into /dev/null",
            "design dump.sql --out /dev/null --force",
            2,
        )
        .says("not a directory"),
        case(
            "design hostile names",
            "design hostile-names.sql --out out",
            0,
        )
        .writes("out"),
        case(
            "design a 30,000-term SQL chain",
            "design chain-model.sql --queries chain-queries.sql --out out2",
            // One statement the designer cannot take is its own error; the
            // rest of the design is still written (exit 1).
            1,
        )
        .writes("out2")
        .says("operators"),
        case("design a Python file", "design script.py --out out3", 2),
        // ring
        case("ring 4 million nodes", "ring --nodes 4194304 --vnodes 1", 2).says("at most"),
        case(
            "ring 10,000 datacenters",
            "ring --topology topology-10k-dcs.toml",
            2,
        )
        .says("datacenters"),
        case(
            "ring a garbage topology",
            "ring --topology topology-garbage.toml",
            2,
        ),
        case(
            "ring control characters",
            "ring --topology topology-escape.toml",
            0,
        ),
        // token
        case("token a 3 MB line", "token --hex -", 2)
            .stdin(",".repeat(3 << 20).into_bytes())
            .says("longer than"),
        case("token invalid hex", "token --hex -", 2)
            .stdin(b"zz\n".to_vec())
            .says("invalid hex"),
        case("token a bad type", "token --type nosuchtype 1", 2),
        // size and rules
        case(
            "size numbers past any cluster",
            "size schema.cql --stats stats-huge.toml",
            2,
        )
        .says("at most 1e18"),
        case(
            "size a garbage stats file",
            "size schema.cql --stats topology-garbage.toml",
            2,
        ),
        case("rules an unknown rule", "rules no-such-rule", 2),
    ]
}

/// Every file under `root` with its bytes.
fn snapshot(root: &Path, skip: Option<&Path>) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
        {
            let path = entry.path();
            if Some(path.as_path()) == skip {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap_or_else(|e| panic!("{e}"));
            if meta.is_dir() {
                out.insert(path.clone(), Vec::new());
                stack.push(path);
            } else {
                out.insert(path.clone(), fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

fn run(work: &Path, c: &Case) -> (Option<i32>, String, String, Duration) {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", c.memory_kib))
        .arg(get_cargo_bin("cqlmodel"))
        .args(&c.args)
        .current_dir(work)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdin = child.stdin.take();
    let bytes = c.stdin.clone();
    let feeder = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            // The program may stop reading early (that is what some cases test).
            let _ = stdin.write_all(&bytes);
        }
    });
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let _ = feeder.join();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        start.elapsed(),
    )
}

#[test]
fn hostile_inputs_get_clean_answers() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let work = workdir(tmp.path());
    let mut failures = Vec::new();
    for c in cases() {
        let out_dir = c.out.map(|o| work.join(o));
        let before = snapshot(tmp.path(), out_dir.as_deref());
        let (code, stdout, stderr, elapsed) = run(&work, &c);
        let after = snapshot(tmp.path(), out_dir.as_deref());
        let mut problems = Vec::new();
        if code != Some(c.code) {
            problems.push(format!("exit {code:?}, expected {}", c.code));
        }
        if elapsed > TIME_LIMIT {
            problems.push(format!("took {elapsed:?}"));
        }
        for bad in [
            "panicked",
            "overflow",
            "RUST_BACKTRACE",
            "memory allocation",
        ] {
            if stderr.contains(bad) {
                problems.push(format!("stderr mentions `{bad}`"));
            }
        }
        if let Some(text) = c.says
            && !stderr.contains(text)
            && !stdout.contains(text)
        {
            problems.push(format!("does not say `{text}`"));
        }
        if stdout.contains('\u{1b}') || stdout.contains('\u{7}') {
            problems.push("raw control characters on stdout".into());
        }
        if before != after {
            let changed: Vec<_> = before
                .keys()
                .chain(after.keys())
                .filter(|k| before.get(*k) != after.get(*k))
                .collect();
            problems.push(format!("changed outside its output: {changed:?}"));
        }
        if !problems.is_empty() {
            let tail: String = stderr.chars().take(600).collect();
            failures.push(format!(
                "{}: {}\n  stderr: {tail}",
                c.name,
                problems.join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_broken_statements_suppression_does_not_hide_the_next_finding() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let work = workdir(tmp.path());
    let c = case(
        "",
        "review schema.cql --queries broken-annotated.cql --format json",
        2,
    );
    let (_, stdout, _, _) = run(&work, &c);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    let rules: Vec<&str> = json["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert!(rules.contains(&"allow-filtering"), "{stdout}");
}

#[test]
fn cqlsh_commands_do_not_swallow_the_next_statement() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let work = workdir(tmp.path());
    let c = case(
        "",
        "explain schema.cql --queries cqlsh-without-semicolons.cql --format json",
        1,
    );
    let (_, stdout, _, _) = run(&work, &c);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_default();
    let statements = json["statements"]
        .as_array()
        .or(json.as_array())
        .map_or(0, Vec::len);
    assert_eq!(statements, 2, "{stdout}");
}
