//! The match store on failing media, through the real `tableside` binary: an SD card remounted
//! read-only (a real read-only bind mount in a private mount namespace), a disk whose fsync
//! fails (an injected `fsync`/`fdatasync` that returns EIO, loaded with `LD_PRELOAD`), and a
//! damaged row. In each case the player is told the truth and nothing recorded is lost.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCRIPT: &str = include_str!("../../docs/examples/jaken-demo.script");

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `tableside --data-dir DATA ARGS…`.
fn tableside(data: &Path, args: &[&str]) -> Output {
    bin()
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .output()
        .unwrap()
}

/// A folder with the demo script in it and a data folder beside it.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let script = dir.path().join("match.script");
    std::fs::write(&script, SCRIPT).unwrap();
    let data = dir.path().join("data");
    (dir, script, data)
}

fn play(data: &Path, script: &Path) -> Output {
    let script = script.to_str().unwrap();
    tableside(
        data,
        &["play", "--game", "jaken", "--progress", "--script", script],
    )
}

/// The `committed <seq>` lines `play --progress` printed.
fn committed(stderr: &str) -> Vec<u64> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("committed "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

/// The error line `tableside` printed (its last line on stderr).
fn error_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("tableside: "))
        .unwrap_or_else(|| panic!("no error line in {stderr}"))
}

/// The `log show --json` document of match `id`.
fn show_json(data: &Path, id: &str) -> serde_json::Value {
    let out = tableside(data, &["log", "show", id, "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Builds the fsync fault shim (tests/fixtures/failsync.c) with the system C compiler.
fn failsync_library() -> PathBuf {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libfailsync.so");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/failsync.c");
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&out)
        .arg(&source)
        .arg("-ldl")
        .status()
        .expect("the C compiler (cc) builds the fsync fault shim");
    assert!(status.success(), "cc failed on {}", source.display());
    out
}

fn play_with_failing_fsync(data: &Path, script: &Path, after: u32, always: bool) -> Output {
    let mut cmd = bin();
    cmd.arg("--data-dir")
        .arg(data)
        .args(["play", "--game", "jaken", "--progress", "--script"])
        .arg(script)
        .env("LD_PRELOAD", failsync_library())
        .env("FAILSYNC_AFTER", after.to_string());
    if always {
        cmd.env("FAILSYNC_ALWAYS", "1");
    }
    cmd.output().unwrap()
}

/// One failed fsync of the WAL while an input is saved: `play` says the input was not saved,
/// and after a restart it is indeed not in the log, while every input reported as committed
/// is. A player who enters it again records it once.
#[test]
fn an_input_whose_fsync_failed_is_undone_and_reported_as_not_saved() {
    let (_dir, script, data) = setup();
    // Syncs 0..8 succeed: the creation, the header and the first inputs.
    let out = play_with_failing_fsync(&data, &script, 8, false);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let done = committed(&stderr);
    assert!(!done.is_empty(), "{stderr}");
    let line = error_line(&stderr);
    assert!(line.contains("was not saved"), "{line}");
    assert!(line.contains(&format!("entry {}", done.len())), "{line}");
    // Printed once, not "X: X".
    assert_eq!(line.matches("tableside.sqlite3").count(), 1, "{line}");

    let doc = show_json(&data, "1");
    let log = doc["log"].as_array().unwrap();
    assert_eq!(log.len(), done.len(), "{doc}");
    assert_eq!(doc["match"]["entries"].as_u64(), Some(done.len() as u64));
    for (i, seq) in done.iter().enumerate() {
        assert_eq!(log[i]["seq"].as_u64(), Some(*seq));
    }
}

/// A disk whose fsync keeps failing: `play` cannot confirm either way and says exactly that
/// (never "not saved" for an input that then comes back), names the entry in doubt, and
/// writes nothing more. After a restart every committed input is there, and what the log holds
/// for the entry in doubt agrees with what was said.
#[test]
fn a_disk_whose_fsync_keeps_failing_is_reported_without_a_false_claim() {
    let (_dir, script, data) = setup();
    let out = play_with_failing_fsync(&data, &script, 8, true);
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let done = committed(&stderr);
    let line = error_line(&stderr);
    assert!(line.contains(&format!("entry {}", done.len())), "{line}");
    assert_eq!(line.matches("tableside.sqlite3").count(), 1, "{line}");

    let doc = show_json(&data, "1");
    let kept = doc["log"].as_array().unwrap().len();
    assert!(kept == done.len() || kept == done.len() + 1, "{kept} {doc}");
    if kept > done.len() {
        assert!(
            !line.contains("was not saved"),
            "the entry came back after being reported as not saved: {line}"
        );
        assert!(line.contains("may have been saved"), "{line}");
    }
    // The disk works again: the next match is stored whole.
    let again = play(&data, &script);
    assert!(again.status.success(), "{}", text(&again.stderr));
}

/// Runs `tableside ARGS…` with the data folder bind-mounted read-only over itself in a private
/// mount namespace: to the process, it is an SD card the kernel remounted read-only (EROFS,
/// even for root).
fn tableside_read_only(data: &Path, args: &[&str]) -> Output {
    let data = data.to_str().unwrap();
    let mut cmd = Command::new("unshare");
    cmd.args(["--mount", "--propagation", "private", "sh", "-c"])
        .arg(r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#)
        .arg("sh")
        .arg(data)
        .arg(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .args(args);
    let out = cmd
        .output()
        .expect("unshare (util-linux) runs the read-only mount");
    assert!(
        !text(&out.stderr).contains("mount:") && !text(&out.stderr).contains("unshare:"),
        "the read-only mount could not be made: {}",
        text(&out.stderr)
    );
    out
}

/// The usual Pi failure: the SD card is remounted read-only. The history stays readable (list,
/// show, export, replay), each command says the folder is read-only and why, and `play`
/// refuses with "the SD card is read-only: matches cannot be saved".
#[test]
fn a_read_only_data_folder_keeps_the_history_readable_and_says_so() {
    let (_dir, script, data) = setup();
    let out = play(&data, &script);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let files_before = std::fs::read_dir(&data).unwrap().count();

    let list = tableside_read_only(&data, &["log", "list"]);
    assert!(list.status.success(), "{}", text(&list.stderr));
    assert!(
        text(&list.stdout).contains("Aki vs Ben"),
        "{}",
        text(&list.stdout)
    );
    assert!(
        text(&list.stderr).contains("read-only"),
        "{}",
        text(&list.stderr)
    );
    for args in [
        &["log", "show", "1"][..],
        &["log", "export", "1"],
        &["replay", "1"],
    ] {
        let out = tableside_read_only(&data, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
    let refused = tableside_read_only(
        &data,
        &[
            "play",
            "--game",
            "jaken",
            "--script",
            script.to_str().unwrap(),
        ],
    );
    assert!(!refused.status.success());
    let line = text(&refused.stderr);
    assert!(
        line.contains("read-only: matches cannot be saved"),
        "{line}"
    );
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), files_before);
}

/// A Tableside killed in the middle of a match leaves its `-wal` (holding the newest entries)
/// and `-shm` beside the log; then the card goes read-only. The history still shows every
/// committed entry, read from the WAL without writing anything.
#[test]
fn a_read_only_folder_with_a_live_wal_shows_the_newest_entries() {
    let (_dir, script, data) = setup();
    let mut child = bin()
        .arg("--data-dir")
        .arg(&data)
        .args(["play", "--game", "jaken", "--progress", "--script"])
        .arg(&script)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Kill it once it has committed a few entries.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut seen = 0;
    let mut line = String::new();
    while seen < 5 {
        line.clear();
        assert!(std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() > 0);
        if line.starts_with("committed ") {
            seen += 1;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let wal = data.join("tableside.sqlite3-wal");
    assert!(std::fs::metadata(&wal).unwrap().len() > 0, "no live WAL");

    let out = tableside_read_only(&data, &["log", "show", "1", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = doc["log"].as_array().unwrap().len();
    assert!(entries >= 5, "{entries} entries: {doc}");
    assert_eq!(doc["match"]["entries"].as_u64(), Some(entries as u64));
}

/// One match row with a damaged field (invalid UTF-8): `log list` lists every other match and
/// names the damaged one; the others show and replay; the damaged one is refused by number.
#[test]
fn a_damaged_row_is_named_and_every_other_match_stays_readable() {
    let (_dir, script, data) = setup();
    for _ in 0..3 {
        let out = play(&data, &script);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let db = data.join("tableside.sqlite3");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "PRAGMA ignore_check_constraints = ON;
         UPDATE matches SET game = CAST(X'6A616B656EFF' AS TEXT) WHERE id = 2;",
    )
    .unwrap();
    drop(conn);

    let list = tableside(&data, &["log", "list"]);
    let (stdout, stderr) = (text(&list.stdout), text(&list.stderr));
    assert!(list.status.success(), "{stderr}");
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("1 ")),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("3 ")),
        "{stdout}"
    );
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("match 2") && all.contains("damaged"), "{all}");

    let json = tableside(&data, &["log", "list", "--json"]);
    assert!(json.status.success(), "{}", text(&json.stderr));
    let docs: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let ids: Vec<i64> = docs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [3, 2, 1], "{docs}");
    assert!(docs[1]["damaged"].is_string(), "{docs}");

    for id in ["1", "3"] {
        for args in [&["log", "show", id][..], &["replay", id]] {
            let out = tableside(&data, args);
            assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        }
    }
    let refused = tableside(&data, &["log", "show", "2"]);
    assert!(!refused.status.success());
    let line = text(&refused.stderr);
    assert!(
        line.contains("match 2") || line.contains("match #2"),
        "{line}"
    );
    // The next match still goes in.
    let out = play(&data, &script);
    assert!(out.status.success(), "{}", text(&out.stderr));
}
