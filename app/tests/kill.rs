//! Kills `tableside play` with SIGKILL at random points (after a random number of committed
//! inputs and a random part of the next), 200 times, and checks after each kill
//! that the database is intact, that every entry the process reported as committed is there,
//! that the stored log is exactly a prefix of the script's inputs, and that the match resumes
//! to the same state as the same inputs applied in memory.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::matches::new_match;
use cards::script::{Script, StepResult, run_step};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tableside::session::load_match;
use tableside::store::{MatchId, Store};

const SCRIPT: &str = include_str!("../../docs/examples/jaken-demo.script");
const KILLS: usize = 200;

/// The inputs the script produces, as the store keeps them, and the match after each prefix.
fn expected_inputs() -> Vec<String> {
    let script = Script::parse(SCRIPT).unwrap();
    let cat = Catalogue::jaken_demo().unwrap();
    let mut m = new_match(script.header(&cat).unwrap(), &cat).unwrap();
    let mut out = Vec::new();
    for (line, step) in &script.steps {
        if let StepResult::Applied(p) = run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap()
        {
            out.push(p.json);
        }
    }
    out
}

/// A small deterministic generator (the test must be repeatable; the seed is printed).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

fn spawn(data: &Path, script: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(data)
        .args(["play", "--game", "jaken", "--progress", "--script"])
        .arg(script)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tableside")
}

fn integrity(db: &Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get::<_, String>(0))
        .unwrap()
}

#[test]
fn sigkill_at_random_points_loses_nothing_committed() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let data = dir.path().join("data");
    let script = dir.path().join("match.script");
    std::fs::write(&script, SCRIPT).unwrap();
    let db = data.join("tableside.sqlite3");
    let expected = expected_inputs();

    // One whole run first: it sets the time range of the kills.
    let start = Instant::now();
    let status = spawn(&data, &script).wait().unwrap();
    assert!(status.success());
    let full = start.elapsed();

    let seed = 0x7AB1E51DE;
    println!("seed {seed:#x}, a full run takes {full:?}");
    let mut rng = Lcg(seed);
    let mut known: Vec<(MatchId, u64)> = Vec::new();
    {
        let store = Store::open_read_only(&db).unwrap();
        for r in store.matches().unwrap() {
            known.push((r.id, r.entries));
        }
    }
    // A kill lands after a random number of committed inputs (none, some, or after the end)
    // and a random part of one input's time more: between two commits or in the middle of
    // one. Counting commits, not the clock, keeps the kills spread over the match however
    // loaded the machine is (a clock-only window lands mostly before the first input there).
    let inputs = expected.len() as u64;
    let gap_us = (full.as_micros() as u64 / inputs.max(1)).max(1);
    let mut killed_mid_match = 0;
    for round in 0..KILLS {
        let mut child = spawn(&data, &script);
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<u64>();
        let reader = std::thread::spawn(move || {
            let mut committed = Vec::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(seq) = line
                    .strip_prefix("committed ")
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|s| s.parse::<u64>().ok())
                {
                    committed.push(seq);
                    let _ = tx.send(seq);
                }
            }
            committed
        });
        let after = rng.next() % (inputs + 2);
        for _ in 0..after {
            if rx.recv_timeout(Duration::from_secs(60)).is_err() {
                break; // the run ended (or stalled: the kill below ends it)
            }
        }
        std::thread::sleep(Duration::from_micros(rng.next() % gap_us));
        let _ = child.kill(); // SIGKILL on Unix
        let _ = child.wait();
        let committed = reader.join().unwrap();

        assert_eq!(integrity(&db), "ok", "round {round}: integrity check");
        // Opening read-write, as the app does on start, must accept the file.
        let store = Store::open(&db).unwrap_or_else(|e| panic!("round {round}: {e}"));
        let records = store.matches().unwrap();
        // Every earlier match is untouched.
        for (id, entries) in &known {
            let r = records
                .iter()
                .find(|r| r.id == *id)
                .unwrap_or_else(|| panic!("round {round}: match {id} lost"));
            assert_eq!(r.entries, *entries, "round {round}: match {id} changed");
        }
        let new: Vec<_> = records
            .iter()
            .filter(|r| !known.iter().any(|(id, _)| *id == r.id))
            .collect();
        assert!(
            new.len() <= 1,
            "round {round}: one run made {} matches",
            new.len()
        );
        match new.first() {
            None => assert!(
                committed.is_empty(),
                "round {round}: entries reported but no match stored"
            ),
            Some(r) => {
                let entries = store.entries(r.id).unwrap();
                let max_reported = committed.iter().max().map_or(0, |s| s + 1);
                assert!(
                    entries.len() as u64 >= max_reported,
                    "round {round}: {} stored < {max_reported} reported",
                    entries.len()
                );
                for (i, e) in entries.iter().enumerate() {
                    assert_eq!(e.seq, i as u64);
                    assert_eq!(
                        e.input_json, expected[i],
                        "round {round}: entry {i} differs from the script"
                    );
                }
                // Resuming gives the state of the same inputs applied in memory.
                let resumed = load_match(&store, r.id).unwrap();
                let script = Script::parse(SCRIPT).unwrap();
                let cat = Catalogue::jaken_demo().unwrap();
                let mut reference = new_match(script.header(&cat).unwrap(), &cat).unwrap();
                for json in &expected[..entries.len()] {
                    reference.commit_json(json).unwrap();
                }
                assert_eq!(
                    resumed.state_json(),
                    reference.state_json(),
                    "round {round}"
                );
                if !entries.is_empty() && entries.len() < expected.len() {
                    killed_mid_match += 1;
                }
                known.push((r.id, entries.len() as u64));
            }
        }
    }
    println!("{KILLS} kills, {killed_mid_match} in the middle of a match");
    assert!(
        killed_mid_match >= KILLS / 4,
        "too few kills landed mid-match ({killed_mid_match})"
    );
}
