//! The Tableside window, driven headless with `egui_kittest` by clicking labelled widgets.
//!
//! The harness uses only the embedded Japanese font (no system font) and, as egui_kittest does
//! by default, panics on any character no font can draw: every screen shown here therefore
//! proves that the embedded subset covers what it displays.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;
use tableside::session::load_match;
use tableside::store::{MatchStatus, Store};
use tableside::ui::{FontChoice, prepare_context};

mod common;
mod own_sets;
use common::*;

fn open(db: &Path) -> H {
    open_window(db, [1400.0, 1000.0], false)
}

#[track_caller]
fn assert_sb(h: &H, aki: i32, ben: i32) {
    assert!(
        sees(h, &format!("Aki: {aki} SB")),
        "expected Aki at {aki} SB"
    );
    assert!(
        sees(h, &format!("Ben: {ben} SB")),
        "expected Ben at {ben} SB"
    );
}

fn start_match(h: &mut H) {
    type_into(h, "Player 1 name", "Aki");
    type_into(h, "Player 2 name", "Ben");
    click(h, "Player 1 deck: lantern");
    click(h, "Player 2 deck: gale");
    click(h, "Start");
    assert!(
        sees(h, "Aki wins the janken and becomes the parent"),
        "the table screen shows the janken choice"
    );
}

/// P3–P5: no BG (unless `parent_bg`), both place a monster face down.
fn plan(h: &mut H, parent: &str, child: &str, parent_bg: Option<&str>) {
    match parent_bg {
        Some(bg) => {
            click(h, &format!("{parent} declares BG {bg}"));
            click(h, &format!("{child} declares no BG"));
        }
        None => click(h, &format!("{parent} declares no BG")),
    }
    click(h, "Aki places a monster face down");
    click(h, "Ben places a monster face down");
}

fn reveal(h: &mut H, aki: &str, ben: &str) {
    click(h, &format!("Aki reveals {aki}"));
    click(h, &format!("Ben reveals {ben}"));
}

/// Taps a stepper button `times` times.
fn step(h: &mut H, name: &str, times: usize) {
    for _ in 0..times {
        click(h, name);
    }
}

fn compare(h: &mut H, aki: i32, ben: i32) {
    click(h, "Compare ATK/DEF and move SB");
    assert_sb(h, aki, ben);
}

#[test]
fn a_whole_jaken_match_is_played_by_clicking() {
    let dir = tempfile::tempdir().unwrap();
    whole_match(&dir.path().join("tableside.sqlite3"), None);
}

#[test]
fn a_whole_jaken_match_with_an_own_set_is_played_replayed_and_exported() {
    // A table's own Jaken cards (not built in): the same names under their own ids.
    let own = own_sets::own(cards::core::GameId::Jaken);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let (_, version) = own_sets::add_to(&db, &own);
    whole_match(&db, Some(&own.set_id));
    let store = Store::open_read_only(&db).unwrap();
    let played = load_match(&store, store.matches().unwrap()[0].id).unwrap();
    drop(store);
    own_sets::replay_and_export(dir.path(), &own, &version, played.as_ref());
}

/// The whole demo match, clicked from the start screen on the store at `db`, with the cards of
/// library set `set` (else the demo set).
fn whole_match(db: &Path, set: Option<&str>) {
    let mut h = open(db);

    // Start screen: defaults, then a new match.
    assert!(sees(&h, "New match"));
    assert!(sees(&h, "Jaken ジャケン"));
    if let Some(set) = set {
        click(&mut h, &format!("Set: {set}"));
    }
    start_match(&mut h);
    assert_sb(&h, 10, 10);
    assert!(sees(&h, "Battle 1 / 10"));
    // Idle, the table asks for no further frame: egui repaints on input only.
    assert_eq!(h.run(), 1, "an idle table keeps repainting");

    // Battle 1: Aki is the parent.
    click(&mut h, "Aki wins the janken and becomes the parent");
    assert!(sees(&h, "親 Parent · OB"));
    assert!(sees(&h, "Aki's Hand 手札: 6"), "both drew in battle 1");
    plan(&mut h, "Aki", "Ben", None);

    // 鬼火王 costs 6: refused in battle 1, with the rule's sentence, id and reference.
    click(&mut h, "Aki reveals 鬼火王 (King of Will-o'-Wisps)");
    assert!(sees(&h, "Refused: this move breaks a rule"));
    assert!(sees_part(
        &h,
        "summon cost must be at most the battle number: 鬼火王 (King of Will-o'-Wisps) costs 6"
    ));
    assert!(sees_part(
        &h,
        "rule jaken.summon-cost · rulebook: 召喚コスト「召喚したい時のターン数とコストの数字が同じか"
    ));
    // "Undo at the table" dismisses: nothing was logged, the monster is still face down.
    click(&mut h, "Undo at the table");
    assert!(!sees(&h, "Refused: this move breaks a rule"));
    assert!(sees(&h, "Aki: reveal your monster"));
    // Again, and this time override with a reason.
    click(&mut h, "Aki reveals 鬼火王 (King of Will-o'-Wisps)");
    click(&mut h, "Override…");
    // No reason yet: "Apply" says what is missing instead of doing nothing.
    click(&mut h, "Apply with override");
    assert!(sees_part(&h, "Choose a reason above or type one"));
    assert!(sees(&h, "Refused: this move breaks a rule"), "still asking");
    type_into(&mut h, "Override reason", "house rule for the demo");
    click(&mut h, "Apply with override");
    assert!(!sees(&h, "Refused: this move breaks a rule"));
    assert!(sees_part(
        &h,
        "Aki reveals 鬼火王 (King of Will-o'-Wisps) — override: house rule for the demo"
    ));
    assert!(sees_part(&h, "OVERRIDE of [jaken.summon-cost]"));
    click(&mut h, "Ben reveals 風切り (Wind Cutter)");
    // 鬼火王 7/5 against 風切り 2/2: Aki takes 5, Ben's attack fails and costs him 2.
    compare(&mut h, 17, 3);

    // Undo the comparison and both reveals: the log keeps them, struck through.
    click(&mut h, "Undo last");
    assert_sb(&h, 10, 10);
    click(&mut h, "Undo last");
    click(&mut h, "Undo last");
    assert!(sees(&h, "Aki: reveal your monster"));
    assert_eq!(h.query_all_by_label("   (undone)").count(), 3);
    reveal(&mut h, "灯り小僧 (Lantern Imp)", "風切り (Wind Cutter)");
    // rules/jaken.md example: 2 vs DEF 2 → nothing; 2 vs DEF 1 → Ben takes 1.
    compare(&mut h, 9, 11);
    assert!(sees_part(
        &h,
        "Battle 1: Aki ATK 2 / DEF 1 against Ben ATK 2 / DEF 2"
    ));

    // A manual correction of Aki's SB, with a reason.
    click(&mut h, "Edit Aki's SB 魂玉");
    assert!(sees(&h, "Correct Aki's SB 魂玉"));
    type_into(&mut h, "New value", "10");
    click(&mut h, "Save correction");
    assert!(
        sees_part(&h, "Choose a reason above or type one"),
        "no reason yet"
    );
    type_into(&mut h, "Reason for the correction", "recounted the chips");
    click(&mut h, "Save correction");
    assert_sb(&h, 10, 11);
    assert!(sees_part(
        &h,
        "adjust Aki's SB 魂玉: 9 → 10 (recounted the chips)"
    ));
    click(&mut h, "Aki hands the OB to Ben");

    // Battle 2: Ben is the parent; 旋風の子 (自家) lowers Aki's DEF by 1.
    assert!(sees(&h, "Battle 2 / 10"));
    plan(&mut h, "Ben", "Aki", None);
    reveal(
        &mut h,
        "影提灯 (Shadow Lantern)",
        "旋風の子 (Whirlwind Cub)",
    );
    assert!(sees(&h, "Ben's effect resolves now"));
    assert!(sees(
        &h,
        "If you are the parent: your opponent's monster gets -1 DEF."
    ));
    // Filled in with the printed numbers.
    assert!(sees(&h, "Ben's effect: opponent DEF = -1"));
    click(&mut h, "Apply Ben's effect");
    assert!(sees(&h, "Aki's ATK 攻撃力: 1"));
    assert!(sees(&h, "Aki's DEF 守備力: 2"));
    compare(&mut h, 10, 11);
    click(&mut h, "Ben hands the OB to Aki");

    // Battle 3: Aki declares a BG, Ben does not counter; Aki uses it for +1 ATK.
    plan(
        &mut h,
        "Aki",
        "Ben",
        Some("暗灯の夜市 (Night Market of Lanterns)"),
    );
    reveal(
        &mut h,
        "夜灯の番人 (Night-Light Warden)",
        "疾風狼 (Gale Wolf)",
    );
    step(&mut h, "Aki's BG use: ATK +1", 1);
    click(&mut h, "Aki uses the BG");
    assert!(sees(&h, "Aki's BG uses left: 1"));
    assert!(sees(&h, "Aki's ATK 攻撃力: 4"));
    compare(&mut h, 12, 9);
    click(&mut h, "Aki hands the OB to Ben");

    // Battle 4.
    plan(&mut h, "Ben", "Aki", None);
    reveal(
        &mut h,
        "水鏡の精 (Water-Mirror Sprite)",
        "嵐牙 (Storm Fang)",
    );
    compare(&mut h, 9, 12);
    click(&mut h, "Ben hands the OB to Aki");

    // Battle 5.
    plan(&mut h, "Aki", "Ben", None);
    reveal(
        &mut h,
        "灯籠武者 (Lantern Samurai)",
        "泡の盾 (Bubble Shield)",
    );
    compare(&mut h, 10, 11);
    click(&mut h, "Aki hands the OB to Ben");

    // Battle 6: neither wind allows an effect (黒炎童子 自家 with Aki as child, 鎌鼬 他家 with Ben as parent).
    plan(&mut h, "Ben", "Aki", None);
    reveal(
        &mut h,
        "黒炎童子 (Black-Flame Child)",
        "鎌鼬 (Sickle Weasel)",
    );
    compare(&mut h, 10, 11);
    click(&mut h, "Ben hands the OB to Aki");

    // Battle 7: both effects, the parent's first.
    plan(&mut h, "Aki", "Ben", None);
    reveal(
        &mut h,
        "黒炎童子 (Black-Flame Child)",
        "天翔ける隼 (Sky-Racing Falcon)",
    );
    assert!(sees(&h, "Aki's effect resolves now"));
    assert!(sees(&h, "Aki's effect: own ATK = 2"));
    click(&mut h, "Apply Aki's effect");
    assert!(sees(&h, "Ben's effect resolves now"));
    assert!(sees(&h, "Ben's effect: own ATK = 2"));
    click(&mut h, "Apply Ben's effect");
    compare(&mut h, 7, 14);
    click(&mut h, "Aki hands the OB to Ben");

    // Battle 8: 潮騒の歌姫 makes both monsters −1 ATK.
    plan(&mut h, "Ben", "Aki", None);
    reveal(
        &mut h,
        "深淵の鯨 (Abyssal Whale)",
        "潮騒の歌姫 (Tide-Song Diva)",
    );
    assert!(sees(&h, "Ben's effect: own ATK = -1"));
    assert!(sees(&h, "Ben's effect: opponent ATK = -1"));
    click(&mut h, "Apply Ben's effect");
    compare(&mut h, 6, 15);
    click(&mut h, "Ben hands the OB to Aki");

    // Battle 9: 百灯大将 adds its cost (5) to ATK and DEF against a cost-5 monster.
    plan(&mut h, "Aki", "Ben", None);
    reveal(
        &mut h,
        "百灯大将 (General of a Hundred Lamps)",
        "颶風将軍 (Hurricane General)",
    );
    assert!(sees(&h, "Aki's effect: own ATK = 5"));
    assert!(sees(&h, "Aki's effect: own DEF = 5"));
    click(&mut h, "Apply Aki's effect");
    compare(&mut h, 19, 2);
    click(&mut h, "Aki hands the OB to Ben");

    // Battle 10: 風神 steals 1 SB (parent first), 渦巻き亀 gets +1 DEF.
    plan(&mut h, "Ben", "Aki", None);
    reveal(&mut h, "渦巻き亀 (Whirlpool Turtle)", "風神 (Wind God)");
    assert!(sees(&h, "Ben's effect: SB taken = 1"));
    click(&mut h, "Apply Ben's effect");
    assert_sb(&h, 18, 3);
    assert!(sees(&h, "Aki's effect: own DEF = 1"));
    click(&mut h, "Apply Aki's effect");
    compare(&mut h, 14, 7);
    assert!(
        sees(&h, "Aki's Deck デッキ: 0"),
        "the deck is used up at battle 10"
    );
    click(&mut h, "End battle 10 and count the SB");

    // The result, big, with Undo and New match.
    assert!(sees(&h, "Aki wins"));
    assert!(sees(&h, "more SB after battle 10 (14 to 7)"));
    click(&mut h, "Undo");
    assert!(!sees(&h, "Aki wins"), "undo reopens the match");
    click(&mut h, "End battle 10 and count the SB");
    assert!(sees(&h, "Aki wins"));

    // The store holds the finished match, and its log replays to the same result.
    {
        let store = Store::open_read_only(db).unwrap();
        let records = store.matches().unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].status, MatchStatus::Finished);
        let replayed = load_match(&store, records[0].id).unwrap();
        assert_eq!(
            replayed.outcome(),
            Some(cards::core::Outcome::Win {
                winner: 0,
                reason: "more SB after battle 10 (14 to 7)".into()
            })
        );
        assert!(
            replayed
                .log()
                .iter()
                .any(|l| !l.overridden.is_empty() && l.undone)
        );
    }

    click(&mut h, "New match");
    assert!(sees(&h, "Start"));
    assert!(
        !sees_part(&h, "Resume match"),
        "a finished match is not offered for resuming"
    );
}

#[test]
fn an_unfinished_match_is_offered_first_and_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    {
        let mut h = open(&db);
        start_match(&mut h);
        click(&mut h, "Ben wins the janken and becomes the parent");
        click(&mut h, "Ben declares no BG");
        click(&mut h, "Aki places a monster face down");
        click(&mut h, "Leave table");
        assert!(sees(&h, "An unfinished match is waiting"));
    }
    // A new window on the same store (as after a restart).
    let mut h = open(&db);
    assert!(sees(&h, "An unfinished match is waiting"));
    assert!(sees(&h, "Match #1 · Aki vs Ben"));
    assert!(sees_part(
        &h,
        "battle 1 P5: both place a monster face down · SB Aki 10, Ben 10"
    ));
    click(&mut h, "Resume match #1");
    assert!(
        sees(&h, "Ben places a monster face down"),
        "Ben still has to place"
    );
    assert!(
        !sees(&h, "Aki places a monster face down"),
        "Aki already placed"
    );
    assert!(sees(&h, "親 Parent · OB"));
    assert_sb(&h, 10, 10);
}

#[test]
fn an_impossible_move_shows_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"));
    start_match(&mut h);
    // Nothing to undo yet? The janken is the first entry; undo it twice.
    click(&mut h, "Aki wins the janken and becomes the parent");
    click(&mut h, "Undo last");
    click(&mut h, "Undo last");
    assert!(sees(&h, "Not possible"));
    assert!(sees(&h, "there is nothing to undo"));
    click(&mut h, "OK");
    assert!(!sees(&h, "Not possible"));
}

#[test]
fn a_refused_store_shows_an_error_screen_and_leaves_the_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let junk = b"these are not the bytes of an SQLite database, but some notes\n".repeat(40);
    std::fs::write(&db, &junk).unwrap();
    let mut h = open(&db);
    assert!(sees(&h, "The match log cannot be opened"));
    assert!(!sees(&h, "Start"));
    click(&mut h, "Try again");
    assert!(sees(&h, "The match log cannot be opened"));
    assert_eq!(
        std::fs::read(&db).unwrap(),
        junk,
        "the refused file is untouched"
    );
}

#[test]
fn the_embedded_font_draws_every_card_of_the_demo_catalogue() {
    // Missing glyphs panic in the harness; only the embedded subset is installed.
    let catalogue = cards::catalogue::Catalogue::jaken_demo().unwrap();
    let texts: Vec<String> = catalogue
        .cards
        .iter()
        .flat_map(|c| {
            [
                c.name_ja.clone(),
                c.name_en.clone(),
                c.text.clone(),
                c.flavor.clone(),
            ]
        })
        .chain(catalogue.decks.iter().map(|d| d.name.clone()))
        .chain([catalogue.set.name_ja.clone(), catalogue.set.note.clone()])
        .collect();
    let shown = texts.clone();
    let mut h = Harness::builder()
        .with_size([1200.0, 4000.0])
        .with_context_setup(|ctx| {
            let report = prepare_context(ctx, FontChoice::EmbeddedOnly);
            assert!(report.embedded && report.system.is_none());
        })
        .build_ui(move |ui| {
            for t in &shown {
                ui.label(t.as_str());
            }
        });
    h.run();
    assert!(h.query_by_label("灯り小僧").is_some());
    assert!(h.query_by_label("鬼火王").is_some());
}

/// The control for the test above: with egui's default fonts alone, the harness refuses a card
/// name, so the glyph check is real.
#[test]
#[should_panic(expected = "No glyph for")]
fn without_a_cjk_font_a_card_name_cannot_be_drawn() {
    let mut h = Harness::builder().build_ui(|ui| {
        ui.label("灯り小僧");
    });
    h.run();
}
