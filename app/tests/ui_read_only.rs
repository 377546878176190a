//! The window on a read-only SD card: instead of carrying on, the kiosk says "the SD card is
//! read-only: matches cannot be saved" in Japanese and English, and still shows the history,
//! read-only, with the same words. The card is a real read-only bind mount: the test runs its
//! window half in a private mount namespace (`unshare`), re-running this test binary there.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::*;

/// Set (to the read-only data folder) for the half that runs inside the mount namespace.
const INNER_ENV: &str = "TABLESIDE_TEST_READ_ONLY_DATA";

fn open(db: &Path) -> H {
    open_window(db, [800.0, 480.0], true)
}

/// The window half: the data folder named by [`INNER_ENV`] is read-only here.
#[test]
#[ignore = "run by the_kiosk_on_a_read_only_card_says_so_and_shows_the_history, inside a read-only mount"]
fn inner_kiosk_on_the_read_only_card() {
    let data = PathBuf::from(std::env::var_os(INNER_ENV).expect("run by the outer test"));
    let mut h = open(&data.join("tableside.sqlite3"));
    h.run();
    assert!(sees_part(&h, "SDカード"), "no Japanese read-only message");
    assert!(
        sees_part(&h, "is read-only: matches cannot be saved"),
        "no English read-only message"
    );
    click(&mut h, "History (read-only)");
    assert!(
        sees_part(&h, "Aki vs Ben"),
        "the stored match is not listed"
    );
    assert!(
        sees_part(&h, "read-only media"),
        "the history does not say why"
    );
}

/// Stores a match, then runs the window half with the data folder mounted read-only.
#[test]
fn the_kiosk_on_a_read_only_card_says_so_and_shows_the_history() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let data = dir.path().join("data");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/jaken-demo.script");
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .arg("--data-dir")
        .arg(&data)
        .args(["play", "--game", "jaken", "--script"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c"])
        .arg(r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#)
        .arg("sh")
        .arg(&data)
        .arg(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "inner_kiosk_on_the_read_only_card",
            "--ignored",
            "--test-threads=1",
        ])
        .env(INNER_ENV, &data)
        .output()
        .expect("unshare (util-linux) runs the read-only mount");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
