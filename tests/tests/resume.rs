//! A match interrupted at any point and resumed from the store finishes exactly like the same
//! match played without a break (cards + the app's store and session).

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use tableside::session::Session;
use tableside::store::{MatchStatus, Store};
use tests::demo_match;

#[test]
fn a_match_resumed_at_every_point_ends_like_the_uninterrupted_one() {
    let (header, inputs) = demo_match().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");

    // The uninterrupted match.
    let mut whole = Session::start(Store::open(&db).unwrap(), header.clone()).unwrap();
    for v in &inputs {
        whole.submit(v).unwrap();
    }
    let final_state = whole.game().state_json();
    let final_log = whole.game().log();
    assert!(whole.game().outcome().is_some());
    drop(whole);

    // The same match, closed and resumed after every few inputs.
    let mut session = Session::start(Store::open(&db).unwrap(), header).unwrap();
    let id = session.id();
    for (i, v) in inputs.iter().enumerate() {
        session.submit(v).unwrap();
        if i % 7 == 3 {
            let before = session.game().state_json();
            drop(session);
            let store = Store::open(&db).unwrap();
            assert!(
                store.unfinished().unwrap().iter().any(|r| r.id == id),
                "input {i}: not offered for resuming"
            );
            session = Session::resume(store, id).unwrap();
            assert_eq!(
                session.game().state_json(),
                before,
                "input {i}: resumed state differs"
            );
        }
    }
    assert_eq!(session.game().state_json(), final_state);
    assert_eq!(session.game().log(), final_log);
    assert_eq!(
        session.store().get(id).unwrap().status,
        MatchStatus::Finished
    );
}
