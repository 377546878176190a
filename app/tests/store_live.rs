//! The match store while it is being written: readers during a live match never contradict
//! themselves, and two Tableside processes creating a new data folder at once never take each
//! other's half-made file for a foreign one. Threads with separate connections stand in for
//! processes (SQLite and the folder lock see separate file descriptors either way).

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};

use cards::script::{Script, Step};
use serde_json::Value;
use tableside::export::{Format, export_match, show_json};
use tableside::session::{Session, catalogue_for, replay_stored};
use tableside::store::{DB_FILE_NAME, MatchId, MatchStatus, Store};

const SCRIPT: &str = include_str!("../../docs/examples/jaken-demo.script");

/// The demo match with `extra` free rolls logged right after its first move: a long match
/// that still ends with a winner.
fn long_script(extra: usize) -> Script {
    let mut text = String::new();
    let mut inserted = false;
    for line in SCRIPT.lines() {
        text.push_str(line);
        text.push('\n');
        if !inserted && line.starts_with("move ") {
            for i in 0..extra {
                text.push_str(&format!("roll d6 {}\n", i % 6 + 1));
            }
            inserted = true;
        }
    }
    Script::parse(&text).unwrap()
}

/// Plays `script` into the store at `path`, one durable input at a time.
fn write_match(path: &std::path::Path, script: &Script) -> MatchId {
    let catalogue = catalogue_for(script.game, script.catalogue.as_deref().unwrap()).unwrap();
    let header = script.header(&catalogue).unwrap();
    let mut session = Session::start(Store::open(path).unwrap(), header).unwrap();
    for (_, step) in &script.steps {
        if let Step::Input(v) = step {
            session.submit(v).unwrap();
        }
    }
    assert!(
        session.game().outcome().is_some(),
        "the long match should end"
    );
    session.id()
}

/// What one read saw that it should not have, or `None`.
fn contradiction(store: &Store, id: MatchId, kind: usize, total: u64) -> Option<String> {
    match kind % 3 {
        0 => {
            let text = export_match(store, id, Format::Json).unwrap();
            let doc: Value = serde_json::from_str(&text).unwrap();
            let record = doc["match"]["entries"].as_u64().unwrap();
            let exported = doc["entries"].as_array().unwrap().len() as u64;
            let finished = doc["match"]["status"] == "finished";
            if record != exported {
                return Some(format!("export: record says {record}, {exported} exported"));
            }
            if finished && (exported != total || doc["match"]["outcome"].is_null()) {
                return Some(format!(
                    "export: finished with {exported} of {total} entries"
                ));
            }
            if !finished && doc["match"]["in_progress"] != true {
                return Some("export: an open match not marked in progress".into());
            }
        }
        1 => {
            let doc = show_json(store, id).unwrap();
            let record = doc["match"]["entries"].as_u64().unwrap();
            let lines = doc["log"].as_array().unwrap().len() as u64;
            if record != lines {
                return Some(format!("show: record says {record}, {lines} lines"));
            }
        }
        _ => match replay_stored(store, id) {
            Err(e) => return Some(format!("replay: {e}")),
            Ok(replayed) => {
                let len = replayed.game.len() as u64;
                if len != replayed.record.entries {
                    return Some(format!(
                        "replay: {len} entries replayed, record says {}",
                        replayed.record.entries
                    ));
                }
                if replayed.record.status == MatchStatus::Finished
                    && replayed.game.outcome().is_none()
                {
                    return Some("replay: finished but no outcome replayed".into());
                }
            }
        },
    }
    None
}

/// Readers during a live match: 500 reads (exports, `log show --json` documents, replays) on
/// three threads with their own connections, while a fourth appends a 600-entry match.
/// Every read is one snapshot: 0 contradictions.
#[test]
fn readers_during_a_live_match_never_contradict_themselves() {
    const READS: usize = 500;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let path = dir.path().join(DB_FILE_NAME);
    let script = long_script(600);
    let total = script
        .steps
        .iter()
        .filter(|(_, s)| matches!(s, Step::Input(_)))
        .count() as u64;
    // The file exists before the readers start; the match is match 1.
    drop(Store::open(&path).unwrap());
    let done = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let during = Arc::new(AtomicUsize::new(0));
    let readers: Vec<_> = (0..3)
        .map(|r| {
            let (path, done, reads, during) =
                (path.clone(), done.clone(), reads.clone(), during.clone());
            std::thread::Builder::new()
                .name(format!("reader-{r}"))
                .spawn(move || {
                    let store = Store::open_read_only(&path).unwrap();
                    let mut found = Vec::new();
                    let mut kind = r;
                    loop {
                        let writing = !done.load(Ordering::SeqCst);
                        if !writing && reads.load(Ordering::SeqCst) >= READS {
                            break;
                        }
                        if store.get(MatchId(1)).is_err() {
                            // Not created yet.
                            std::thread::sleep(std::time::Duration::from_millis(1));
                            continue;
                        }
                        if let Some(c) = contradiction(&store, MatchId(1), kind, total) {
                            found.push(c);
                        }
                        kind += 1;
                        reads.fetch_add(1, Ordering::SeqCst);
                        if writing {
                            during.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    found
                })
                .unwrap()
        })
        .collect();
    let id = write_match(&path, &script);
    done.store(true, Ordering::SeqCst);
    assert_eq!(id, MatchId(1));
    let found: Vec<String> = readers
        .into_iter()
        .flat_map(|r| r.join().unwrap())
        .collect();
    let reads = reads.load(Ordering::SeqCst);
    let during = during.load(Ordering::SeqCst);
    assert!(reads >= READS, "{reads} reads");
    assert!(
        during >= 50,
        "only {during} reads happened while the match was written"
    );
    assert!(
        found.is_empty(),
        "{} contradictions in {reads} reads ({during} during the writing), e.g. {:?}",
        found.len(),
        &found[..found.len().min(5)]
    );
}

/// Two Tableside processes start at once on a fresh data folder: both open it, neither calls
/// the other's half-made file foreign (or damaged). 200 trials, 0 false refusals.
#[test]
fn two_creators_at_once_never_refuse_each_other() {
    const TRIALS: usize = 200;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let mut refusals = Vec::new();
    for trial in 0..TRIALS {
        let path = dir.path().join(format!("t{trial}")).join(DB_FILE_NAME);
        let barrier = Arc::new(Barrier::new(2));
        let creators: Vec<_> = (0..2)
            .map(|c| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::Builder::new()
                    .name(format!("creator-{c}"))
                    .spawn(move || {
                        barrier.wait();
                        let mut store = Store::open(&path)?;
                        store.create_match("jaken", "{}", 1)?;
                        Ok::<_, tableside::store::StoreError>(())
                    })
                    .unwrap()
            })
            .collect();
        for c in creators {
            if let Err(e) = c.join().unwrap() {
                refusals.push(format!("trial {trial}: {e}"));
            }
        }
        if refusals.is_empty() {
            let store = Store::open_read_only(&path).unwrap();
            assert_eq!(store.matches().unwrap().len(), 2, "trial {trial}");
        }
    }
    assert!(
        refusals.is_empty(),
        "{} false refusals in {TRIALS} trials, e.g. {:?}",
        refusals.len(),
        &refusals[..refusals.len().min(3)]
    );
}
