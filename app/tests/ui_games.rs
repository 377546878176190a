//! The four games without their own panel (JUNK-KEN, Rockman EXE, Space Junk, Yomi), each
//! started from the start screen and played through the opening of its example script
//! (`docs/examples/<game>-demo.script`) on the generic game panel, by clicking labelled widgets
//! with only the embedded font installed (a missing glyph panics).

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::path::Path;
use tableside::session::load_match;
use tableside::store::Store;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

type H = Harness<'static, TablesideApp>;

fn open(db: &Path) -> H {
    let app = TablesideApp::new(UiOptions {
        db_path: db.to_path_buf(),
        kiosk: false,
        tower: None,
    });
    Harness::builder()
        .with_size([1400.0, 1000.0])
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app)
}

/// Scrolls a widget into view and clicks it, as a player would.
#[track_caller]
fn click(h: &mut H, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

/// Clicks the one widget whose label contains `part` (a move's label is long).
#[track_caller]
fn click_part(h: &mut H, part: &str) {
    let labels: Vec<String> = h
        .query_all_by_label_contains(part)
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert_eq!(
        labels.len(),
        1,
        "one widget with `{part}`, found {labels:?}"
    );
    click(h, &labels[0]);
}

/// Replaces the text of a text field.
#[track_caller]
fn type_into(h: &mut H, label: &str, text: &str) {
    click(h, label);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Types a die into the dice panel and enters it.
#[track_caller]
fn type_die(h: &mut H, text: &str) {
    type_into(h, "Typed dice", text);
    click(h, "Enter typed dice");
}

/// True when a widget shows `label` as its text or carries it as its accessible name (the big
/// numbers are named "Aki's HP 体力: 3").
#[track_caller]
fn sees(h: &H, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
        || h.query_all_by(move |n| n.label().as_deref() == Some(label))
            .next()
            .is_some()
}

#[track_caller]
fn sees_part(h: &H, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

#[track_caller]
fn assert_sees(h: &H, label: &str) {
    assert!(sees(h, label), "the table shows `{label}`");
}

/// Picks the game, names the players and their decks (or characters), and starts.
fn start(h: &mut H, game: &str, players: &[(&str, &str)]) {
    click(h, game);
    assert!(sees_part(
        h,
        "house rules: the digest defaults; set them in the config file"
    ));
    for _ in 2..players.len() {
        click(h, "More players");
    }
    for (seat, (name, deck)) in players.iter().enumerate() {
        type_into(h, &format!("Player {} name", seat + 1), name);
        click(h, &format!("Player {} deck: {deck}", seat + 1));
    }
    click(h, "Start");
}

/// The number of entries stored for the only match of the store at `db`.
fn stored_entries(db: &Path) -> usize {
    let store = Store::open(db).unwrap();
    let id = store.unfinished().unwrap()[0].id;
    load_match(&store, id).unwrap().len()
}

#[test]
fn junk_ken_opening_turn_on_the_generic_panel() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let mut h = open(&db);
    start(
        &mut h,
        "JUNK-KEN JUNK-拳",
        &[("Aki", "junk-rush"), ("Ben", "clockwork")],
    );
    assert!(sees_part(&h, "set phase"), "the step is shown");
    assert_sees(&h, "Aki's Hand 手札: 4");
    assert_sees(&h, "Aki's Side サイド: 1");
    assert_sees(&h, "Aki's Deck 山札: 5");

    // Characters and their HP dice, typed into the dice panel.
    click(&mut h, "Aki places ネジ丸 (Screw-Maru) in the battle zone");
    assert!(
        sees_part(&h, "roll the HP die (d6)"),
        "the die is asked for"
    );
    type_die(&mut h, "d6 3");
    assert_sees(&h, "Aki's HP 体力: 3");
    click(
        &mut h,
        "Ben places ゼンマイ時計 (Wind-up Clock) in the battle zone",
    );
    type_die(&mut h, "d6 4");
    assert_sees(&h, "Ben's HP 体力: 4");
    assert_sees(&h, "Ben's Clockwise rotation (°): 90");

    // The battle zone holds one character: no second "places … in the battle zone" is offered.
    assert!(!sees(
        &h,
        "Aki places ブリキ兵 (Tin Soldier) in the battle zone"
    ));
    assert_sees(&h, "Aki's Hand 手札: 3");

    click(&mut h, "Ben places the field 雨の路地 (Rainy Alley)");
    click(&mut h, "Aki is done setting");
    click(&mut h, "Ben is done setting");
    // Janken: Aki wins with グー; ネジ丸 hits for 2.
    click(&mut h, "janken: Aki グー (rock) — Ben チョキ (scissors)");
    assert_sees(&h, "Ben's HP 体力: 2");
    assert_eq!(stored_entries(&db), 8, "every move and die is stored");
}

#[test]
fn rockman_exe_opening_turn_on_the_generic_panel() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let mut h = open(&db);
    start(
        &mut h,
        "Rockman EXE ロックマンエグゼ",
        &[("Aki", "aozora"), ("Ben", "kagaribi")],
    );
    click(
        &mut h,
        "Aki puts アオゾラ.EXE (Aozora.EXE) on the centre square",
    );
    click(
        &mut h,
        "Ben puts カガリビ.EXE (Kagaribi.EXE) on the centre square",
    );
    click(&mut h, "Aki wins the janken and goes first this turn");
    assert_sees(&h, "Aki's Hand 手札: 5");
    assert_sees(&h, "Aki's Deck 山札: 24");
    assert_sees(&h, "Aki's HP gauge ＨＰゲージ: 200");
    // The buttons offer each card on one square, (0,0); the script's (1,0) is not offered.
    click(&mut h, "Aki transfers ツララン (Tsuraran) to (0,0)");
    click(&mut h, "Aki places a chip face down");
    assert_sees(&h, "Aki's Hand 手札: 3");
    assert_sees(&h, "Aki's Chip zone チップ置き場: 1");
    click(&mut h, "Aki ends the transfer");
    click(&mut h, "Ben transfers カゲボウシ (Kageboushi) to (0,0)");
    click(&mut h, "Ben places a chip face down");
    click(&mut h, "Ben ends the transfer");
    assert_sees(&h, "Ben's Hand 手札: 3");
    assert_eq!(stored_entries(&db), 9);
}

#[test]
fn space_junk_opening_round_with_three_players() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let mut h = open(&db);
    start(
        &mut h,
        "Space Junk スペースジャンク",
        &[("Aki", "SJ01"), ("Ben", "SJ05"), ("Cho", "SJ03")],
    );
    assert_sees(&h, "Aki's Move: 3");
    assert_sees(&h, "Ben's Attack: 3");
    assert_sees(&h, "Junk deck: 72");
    click(&mut h, "Aki is the first player; round 1 begins");
    click(&mut h, "Aki flies in ring 2, 3 spaces clockwise");
    click(&mut h, "Ben flies in ring 3, 1 spaces clockwise");
    click(&mut h, "Cho flies in ring 1, 2 spaces clockwise");
    assert_sees(&h, "Aki's Ring: 2");
    assert_sees(&h, "Aki's Position: 3");
    assert_sees(&h, "Ben's Ring: 3");
    assert_sees(&h, "Cho's Position: 2");
    // The buttons offer ranges 0 and 3 only; the script's measured range 1 is not offered.
    click(&mut h, "Aki attacks Ben at range 0 (Attack 1)");
    assert!(sees_part(&h, "roll the attack die"), "the die is asked for");
    type_die(&mut h, "d6 4");
    // At range 0 the die hits: one hit-location die, typed too.
    assert!(sees_part(&h, "hit location die 1 of 1 on Ben's ship"));
    type_die(&mut h, "d6 5");
    assert!(sees_part(&h, "Ben may attack"), "the attack is resolved");
    assert_eq!(stored_entries(&db), 7);
}

#[test]
fn yomi_opening_turn_on_the_generic_panel() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let mut h = open(&db);
    start(&mut h, "Yomi", &[("Aki", "akane"), ("Ben", "gou")]);
    assert_sees(&h, "Aki's Hand 手札: 7");
    assert_sees(&h, "Aki's Deck 山札: 47");
    assert_sees(&h, "Ben's HP 体力: 95");
    click(&mut h, "Aki places a combat card face down");
    click(&mut h, "Ben places a combat card face down");
    click(
        &mut h,
        "Aki reveals Quick Jab (2 of Spades) (小突き（スペードの2）): Quick Jab (attack)",
    );
    click(
        &mut h,
        "Ben reveals Stone Jab (2 of Diamonds) (石突き（ダイヤの2）): Stone Jab (attack)",
    );
    click(&mut h, "Ben puts no escape card");
    click_part(&mut h, "Aki combos into Quick Jab (3 of Spades)");
    click_part(&mut h, "Aki combos into Quick Jab (4 of Spades)");
    click(&mut h, "Aki ends the combo");
    assert_sees(&h, "Ben's HP 体力: 87");
    assert_sees(&h, "Aki's Ace searches open: 1");
    assert_eq!(stored_entries(&db), 8);
}

#[test]
fn every_game_is_startable_and_the_setup_reads_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"));
    click(&mut h, "日本語");
    click(&mut h, "Space Junk スペースジャンク");
    assert!(sees_part(&h, "ハウスルール: ルール要約の既定値"));
    assert!(sees_part(&h, "キャラクター"));
    click(&mut h, "人数を増やす");
    assert!(sees(&h, "3人"));
    click(&mut h, "人数を減らす");
    click(&mut h, "人数を減らす");
    assert!(sees(&h, "2人"), "never fewer than two");
    click(&mut h, "Yomi");
    assert!(sees(&h, "2人"));
    click(&mut h, "開始");
    assert!(sees_part(&h, "ターン 1"), "the generic panel in Japanese");
}
