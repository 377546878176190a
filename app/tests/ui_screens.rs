//! The language switch, the history screen (win rates, replay, export) and the kiosk keys,
//! driven headless with `egui_kittest` (only the embedded Japanese font: a missing glyph panics).

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;
use std::process::Command;
use tableside::ui::i18n::Lang;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

mod common;
use common::*;

fn open(db: &Path, kiosk: bool) -> H {
    let app = TablesideApp::new(UiOptions {
        db_path: db.to_path_buf(),
        kiosk,
        tower: None,
    });
    Harness::builder()
        .with_size([1400.0, 1000.0])
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app)
}

fn key(h: &mut H, key: Key) {
    h.key_press(key);
    h.run();
}

/// Stores a whole match (docs/examples/jaken-demo.script: Ben wins 12 to 8) with the CLI.
fn store_demo_match(data: &Path) {
    play_script(data, "docs/examples/jaken-demo.script");
}

/// Plays the Jaken `script` (a path in the repo, or an absolute one) with the CLI into `data`;
/// the match stays unfinished when the script stops before the end.
fn play_script(data: &Path, script: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(script);
    let out = Command::new(env!("CARGO_BIN_EXE_tableside"))
        .args(["play", "--game", "jaken", "--script"])
        .arg(&script)
        .arg("--data-dir")
        .arg(data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tableside play: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_language_switches_and_a_match_is_played_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"), false);
    assert!(sees(&h, "New match"));
    click(&mut h, "日本語");
    assert_eq!(h.state().lang(), Lang::Ja);
    assert!(sees(&h, "新しい対戦"), "the start screen is in Japanese");
    assert!(sees(&h, "JUNK-KEN JUNK-拳"), "every game is listed");
    assert!(
        sees_part(&h, "カード認識がありません"),
        "no camera, said plainly"
    );
    type_into(&mut h, "プレイヤー 1 の名前", "Aki");
    type_into(&mut h, "プレイヤー 2 の名前", "Ben");
    click(&mut h, "プレイヤー 1 のデッキ: lantern");
    click(&mut h, "プレイヤー 2 のデッキ: gale");
    click(&mut h, "開始");

    // The table in Japanese: battle, steps, moves, card names.
    assert!(sees(&h, "第1バトル / 10"));
    assert!(sees_part(&h, "じゃんけんで最初の親を決める"));
    click(&mut h, "Akiがじゃんけんに勝って親になる");
    assert!(sees(&h, "親 · OB"));
    click(&mut h, "AkiはBGを宣言しない");
    click(&mut h, "Akiがモンスターを裏向きに置く");
    click(&mut h, "Benがモンスターを裏向きに置く");
    assert!(sees(&h, "Aki: モンスターを公開"));
    click(&mut h, "Akiが灯り小僧を公開");
    click(&mut h, "Benが風切りを公開");
    click(&mut h, "攻撃力・守備力を比べてSBを移す");
    assert!(sees(&h, "Aki: 9 SB"));
    assert!(sees(&h, "Ben: 11 SB"));
    assert!(sees_part(&h, "第1バトル: Aki 攻撃力 2 / 守備力 1 対 Ben"));
    // Undo, in Japanese.
    click(&mut h, "最後を取り消す");
    assert!(sees(&h, "Aki: 10 SB"));
    assert!(sees(&h, "   (取り消し済み)"));
    // A correction, in Japanese.
    click(&mut h, "Akiの SB 魂玉 を訂正");
    type_into(&mut h, "新しい値", "11");
    type_into(&mut h, "訂正の理由", "数え直し");
    click(&mut h, "訂正を保存");
    assert!(sees(&h, "Aki: 11 SB"));

    // Back to English, remembered across screens.
    click(&mut h, "English");
    assert!(sees(&h, "Undo last"));
    assert!(sees(&h, "Compare ATK/DEF and move SB"));
    click(&mut h, "Leave table");
    assert!(sees(&h, "An unfinished match is waiting"));
    assert_eq!(h.state().lang(), Lang::En);
}

#[test]
fn the_history_shows_win_rates_replays_step_by_step_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    store_demo_match(dir.path());
    store_demo_match(dir.path());
    let mut h = open(&dir.path().join("tableside.sqlite3"), false);
    click(&mut h, "History");
    assert!(sees(&h, "By player"));
    // Ben won both stored matches, with the Gale Riders deck.
    assert!(sees(&h, "Jaken ジャケン Ben: 100 %"));
    assert!(sees(&h, "Jaken ジャケン Aki: 0 %"));
    assert!(sees(&h, "Jaken ジャケン jaken-demo/gale: 100 %"));
    assert!(sees(&h, "Jaken ジャケン jaken-demo/lantern: 0 %"));

    // Replay match #1 step by step.
    click(&mut h, "Replay #1");
    assert!(sees_part(&h, "Step 0 / "));
    assert!(sees(&h, "before the first entry"));
    assert!(sees(&h, "Aki's SB 魂玉: 10"));
    click(&mut h, "Step forward »");
    click(&mut h, "Step forward »");
    assert!(sees_part(&h, "Step 2 / "));
    assert!(sees_part(&h, "Aki declares no BG"), "the entry at step 2");
    click(&mut h, "End »|");
    assert!(sees(&h, "Aki's SB 魂玉: 8"));
    assert!(sees(&h, "Ben's SB 魂玉: 12"));
    click(&mut h, "« Step back");
    assert!(sees_part(&h, "battle 10 end"), "one step before the end");
    click(&mut h, "|« Start");
    assert!(sees_part(&h, "Step 0 / "));

    // Export, as `tableside log export` writes it.
    click(&mut h, "Export JSON #2");
    let json = dir.path().join("exports/match-2.json");
    assert!(sees_part(&h, "Written to"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["match"]["id"], 2);
    assert!(doc["entries"].as_array().unwrap().len() > 40);
    click(&mut h, "Export CSV #2");
    let csv = std::fs::read_to_string(dir.path().join("exports/match-2.csv")).unwrap();
    assert!(csv.starts_with("seq,at_ms,kind,text,undone,input_json\n"));

    click(&mut h, "Back");
    assert!(sees(&h, "New match"));
}

#[test]
fn kiosk_keys_drive_the_table_and_touch_targets_are_large() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"), true);
    assert!(sees(&h, "Start"));
    key(&mut h, Key::Space);
    assert!(sees(&h, "Battle 1 / 10"), "Space starts the match");

    // Space: the primary move (never a BG declaration); 2: the second move shown.
    assert!(sees(&h, "Player 1 wins the janken and becomes the parent"));
    key(&mut h, Key::Num2);
    assert!(
        sees_part(&h, "Player 2 declares no BG"),
        "2 made Player 2 the parent"
    );
    key(&mut h, Key::Space);
    key(&mut h, Key::Space);
    key(&mut h, Key::Space);
    assert!(sees(&h, "Player 1: reveal your monster"), "both placed");
    // U undoes, R rolls a virtual d6 (a free roll, logged).
    key(&mut h, Key::U);
    assert!(
        sees(&h, "Player 2 places a monster face down"),
        "U undid it"
    );
    key(&mut h, Key::R);
    assert!(
        sees_part(&h, "free roll: d6 = "),
        "R rolled a virtual d6, logged"
    );
    // L switches the language; the keys keep working.
    key(&mut h, Key::L);
    assert!(sees(&h, "最後を取り消す"));
    key(&mut h, Key::Space);
    assert!(sees(&h, "Player 1: モンスターを公開"));

    // Touch targets of at least 48 px.
    for label in [
        "最後を取り消す",
        "English",
        "卓を離れる",
        "Player 1の SB 魂玉 を訂正",
    ] {
        let rect = h.get_by_label(label).rect();
        assert!(rect.height() >= 47.9, "{label}: {} px high", rect.height());
    }
    // Y/N confirm in a dialog: a refusal is dismissed with N.
    h.get_by_label("Player 1が鬼火王を公開").click();
    h.run();
    assert!(sees(&h, "拒否: この手はルールに反します"));
    key(&mut h, Key::N);
    assert!(!sees(&h, "拒否: この手はルールに反します"));
    // Idle, the kiosk asks for no further frame.
    assert_eq!(h.run(), 1, "an idle table keeps repainting");
}

/// After a crash, Resume offers the match that was being played (the one written last, not
/// the one made last); a match can be discarded by touch (asked again, kept in the history as
/// abandoned, never deleted); matches left before their first entry do not pile up.
#[test]
fn resume_offers_the_match_written_last_and_discard_keeps_it_as_abandoned() {
    use tableside::store::{MatchId, MatchStatus, Store};
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // #1 and #2 stopped in battle 3; #3 and #4 left before their first entry.
    play_script(&data, "scripts/mid-match.script");
    play_script(&data, "scripts/mid-match.script");
    let header_only = dir.path().join("header.script");
    std::fs::write(
        &header_only,
        "game jaken\ncatalogue jaken-demo\nplayer Aki deck=lantern\nplayer Ben deck=gale\n",
    )
    .unwrap();
    play_script(&data, header_only.to_str().unwrap());
    play_script(&data, header_only.to_str().unwrap());
    let db = data.join("tableside.sqlite3");
    {
        let mut store = Store::open(&db).unwrap();
        let unfinished: Vec<_> = store
            .unfinished()
            .unwrap()
            .iter()
            .map(|r| (r.id, r.entries))
            .collect();
        assert_eq!(
            unfinished.len(),
            4,
            "four unfinished matches: {unfinished:?}"
        );
        assert!(unfinished.iter().filter(|(_, n)| *n == 0).count() == 2);
        // The table goes on playing #1 after #2 was made: #1 is written last.
        let one = store.get(MatchId(1)).unwrap();
        let latest = store
            .matches()
            .unwrap()
            .iter()
            .map(|r| r.updated_ms)
            .max()
            .unwrap();
        let roll = r#"{"input":"roll","roll":{"sides":6,"value":4,"source":{"kind":"virtual"}}}"#;
        store
            .append(MatchId(1), one.entries, roll, latest + 1_000)
            .unwrap();
    }

    let mut h = open(&db, true);
    assert!(sees(&h, "An unfinished match is waiting"));
    // The big Resume button (Space on the kiosk) is #1's, the match written last.
    assert!(sees(&h, "Resume match #1"));
    assert!(sees(&h, "Resume match #2"));
    {
        let store = Store::open(&db).unwrap();
        let mut empty: Vec<_> = store
            .matches()
            .unwrap()
            .into_iter()
            .filter(|r| r.entries == 0)
            .map(|r| (r.id, r.status, r.outcome_json.unwrap_or_default()))
            .collect();
        empty.sort_by_key(|e| e.0);
        // Of the two empty ones only the newest is still offered; the other is kept, marked
        // abandoned.
        assert_eq!(empty.len(), 2, "{empty:?}");
        assert_eq!(empty[0].1, MatchStatus::Finished, "{empty:?}");
        assert!(empty[0].2.contains("abandoned"), "{empty:?}");
        assert_eq!(empty[1].1, MatchStatus::Open, "{empty:?}");
    }
    assert!(!sees(&h, "Resume match #3"));
    assert!(sees(&h, "Resume match #4"));
    // Space resumes the one written last.
    key(&mut h, Key::Space);
    assert_eq!(
        h.state().session().map(|s| s.id()),
        Some(MatchId(1)),
        "Space resumed the wrong match"
    );
    drop(h);

    // Discard #2 by touch: asked again first, then kept as abandoned.
    let mut h = open(&db, true);
    click(&mut h, "Discard #2…");
    assert!(sees_part(&h, "It stays in the history as abandoned"));
    assert!(
        sees(&h, "Resume match #2"),
        "discarded before the second tap"
    );
    click(&mut h, "Yes, discard #2");
    assert!(!sees(&h, "Resume match #2"));
    assert!(sees(&h, "Resume match #1"));
    let store = Store::open(&db).unwrap();
    let two = store.get(MatchId(2)).unwrap();
    assert_eq!(two.status, MatchStatus::Finished);
    assert!(two.outcome_json.unwrap_or_default().contains("abandoned"));
    assert!(two.entries > 20, "its log is kept: {} entries", two.entries);
    assert_eq!(store.matches().unwrap().len(), 4, "nothing was deleted");
}
