//! The four games without their own panel (JUNK-KEN, Rockman EXE, Space Junk, Yomi), each
//! started from the start screen and played through the opening of its example script
//! (`docs/examples/<game>-demo.script`) on the generic game panel, by clicking labelled widgets
//! with only the embedded font installed (a missing glyph panics).

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use egui_kittest::kittest::{NodeT, Queryable};
use std::path::Path;
use tableside::session::load_match;
use tableside::store::Store;

mod common;
mod own_sets;
use common::*;

fn open(db: &Path) -> H {
    open_window(db, [1400.0, 1000.0], false)
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

/// Types a die into the dice panel and enters it.
#[track_caller]
fn type_die(h: &mut H, text: &str) {
    type_into(h, "Typed dice", text);
    click(h, "Enter typed dice");
}

#[track_caller]
fn assert_sees(h: &H, label: &str) {
    assert!(sees(h, label), "the table shows `{label}`");
}

/// Picks the game, names the players and their decks (or characters), and starts.
fn start(h: &mut H, game: &str, players: &[(&str, &str)]) {
    start_with(h, game, None, players, &[]);
}

/// [`start`] with the cards of library set `set` (else the game's demo set), and the optional
/// rules named by `switches` switched on first.
fn start_with(
    h: &mut H,
    game: &str,
    set: Option<&str>,
    players: &[(&str, &str)],
    switches: &[&str],
) {
    click(h, game);
    if let Some(set) = set {
        click(h, &format!("Set: {set}"));
    }
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
    for switch in switches {
        click(h, switch);
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
    // A button per empty square: the script's (1,0), in front of the navi.
    assert!(sees(&h, "Aki transfers ツララン (Tsuraran) to (0,0)"));
    click(&mut h, "Aki transfers ツララン (Tsuraran) to (1,0)");
    click(&mut h, "Aki places a chip face down");
    assert_sees(&h, "Aki's Hand 手札: 3");
    assert_sees(&h, "Aki's Chip zone チップ置き場: 1");
    click(&mut h, "Aki ends the transfer");
    click(&mut h, "Ben transfers カゲボウシ (Kageboushi) to (1,0)");
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
    // The range stepper shows the buttons of one range at a time.
    assert!(sees(&h, "Aki attacks Ben at range 0 (Attack 1)"));
    click(&mut h, "Aki's attack range +");
    assert!(sees(&h, "Aki's attack range = 1"));
    assert!(!sees(&h, "Aki attacks Ben at range 0 (Attack 1)"));
    click(&mut h, "Aki's attack range −");
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
    start(&mut h, "Yomi ヨミ", &[("Aki", "akane"), ("Ben", "gou")]);
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
    click(&mut h, "Yomi ヨミ");
    assert!(sees(&h, "2人"));
    click(&mut h, "開始");
    assert!(sees_part(&h, "ターン 1"), "the generic panel in Japanese");
}

// ---------------------------------------------------------------------------------------------
// Whole matches: every step of a game's example script entered on the table screen as a player
// would, then the stored match compared with the same script run headless.

use cards::catalogue::Catalogue;
use cards::matches::{Action, AnyMatch, new_match};
use cards::script::{DeckRef, ExpectedOutcome, Script, Step, run_step};
use serde_json::Value;

fn button<'a>(h: &'a H, label: &'a str) -> egui_kittest::Node<'a> {
    h.query_all_by_label(label)
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
        .unwrap()
}

/// Clicks the one button named `label` (a log line may carry the same text).
#[track_caller]
fn click_button(h: &mut H, label: &str) {
    let buttons = |h: &H| {
        h.query_all_by_label(label)
            .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
            .count()
    };
    let found = buttons(h);
    if found != 1 {
        let head: String = label.chars().take(8).collect();
        let mut near: Vec<String> = h
            .query_all_by_label_contains(&head)
            .filter_map(|n| n.accesskit_node().label())
            .collect();
        if near.is_empty() {
            near = h
                .query_all_by(|n| n.role() == egui::accesskit::Role::Button)
                .filter_map(|n| n.accesskit_node().label())
                .collect();
        }
        let dialog = sees(h, "Refused: this move breaks a rule");
        panic!("one button `{label}`, found {found} (refusal shown: {dialog}); near: {near:?}");
    }
    button(h, label).scroll_to_me();
    h.run();
    button(h, label).click();
    h.run();
}

/// The value a picker shows: the widget named "`name` = 10".
fn shown_value(h: &H, name: &str) -> Option<i64> {
    let prefix = format!("{name} = ");
    let found: Vec<String> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with(&prefix)))
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    found.first().and_then(|l| l[prefix.len()..].parse().ok())
}

/// Steps a picker named `name` (buttons "`name` −" / "`name` +", or with the step size) to
/// `value`.
fn step_to(h: &mut H, name: &str, minus: &str, plus: &str, value: i64) {
    for _ in 0..40 {
        let now = shown_value(h, name).unwrap_or_else(|| panic!("no picker `{name}`"));
        if now == value {
            return;
        }
        click_button(h, if now < value { plus } else { minus });
    }
    panic!("`{name}` did not reach {value}");
}

/// What each game's effect form calls a number of its `effect` move (the caption a player
/// reads), and its step.
fn effect_field(key: &str) -> (&'static str, i64) {
    match key {
        "damage" => ("damage to the opponent", 1),
        "self_damage" => ("damage to own character", 1),
        "heal" => ("HP back", 1),
        "draw" => ("cards drawn", 1),
        "fame" => ("fame", 1),
        "move" => ("Move", 1),
        "attack" => ("Attack", 1),
        "search" => ("Search", 1),
        "spaces" => ("extra spaces flown", 1),
        "speed" => ("speed", 1),
        "combo_damage" => ("combo damage", 1),
        other => panic!("no effect field `{other}` in the form"),
    }
}

/// How a game's effect form names its HP numbers (Rockman EXE's gauge moves by tens).
fn hp_field(game: &str, key: &str) -> (&'static str, i64) {
    match (game, key) {
        ("rockman-exe", "hp") => ("own HP gauge", 10),
        ("rockman-exe", "opp_hp") => ("opponent's HP gauge", 10),
        (_, "hp") => ("own HP", 1),
        (_, "opp_hp") => ("opponent's HP", 1),
        _ => effect_field(key),
    }
}

/// The pickers that choose a number carried by a move: (game, move type, key, caption).
const PICKED_NUMBERS: &[(&str, &str, &str, &str)] = &[
    ("rockman-exe", "attack", "bonus", "attack bonus"),
    ("space-junk", "attack", "range", "attack range"),
];

/// The input as the store keeps it, checked against the match without applying it.
fn canonical(m: &dyn AnyMatch, input: &Value, reason: Option<&Value>) -> Option<String> {
    let mut x = input.clone();
    if let Some(r) = reason {
        x["override_reason"] = r.clone();
    }
    m.prepare_json(&x).ok().map(|p| p.json)
}

/// The offered action (legal, or refused when `reason` is given) that submits `input`.
fn offered(m: &dyn AnyMatch, input: &Value, reason: Option<&Value>) -> Option<Action> {
    let want = canonical(m, input, reason)?;
    let actions = if reason.is_some() {
        m.refused_actions()
    } else {
        m.actions()
    };
    actions
        .into_iter()
        .find(|a| canonical(m, &a.input, reason).as_deref() == Some(want.as_str()))
}

/// Sets the pickers a move's numbers need, then taps its button.
fn tap_action(h: &mut H, m: &dyn AnyMatch, action: &Action) {
    let game = m.game().as_str().to_owned();
    if let Some(seat) = action.player {
        let who = format!("{}'s ", m.context().players[seat]);
        for (g, ty, key, caption) in PICKED_NUMBERS {
            if *g == game && action.input.pointer("/move/type").and_then(Value::as_str) == Some(ty)
            {
                let v = action
                    .input
                    .pointer(&format!("/move/{key}"))
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                let name = format!("{who}{caption}");
                step_to(h, &name, &format!("{name} −"), &format!("{name} +"), v);
            }
        }
    }
    let same_text = m
        .actions()
        .iter()
        .chain(m.refused_actions().iter())
        .filter(|a| a.player == action.player && a.label == action.label)
        .count();
    match action.input.pointer("/move/card").and_then(Value::as_str) {
        // Several moves read the same (a supporter face down): the folded list names the card.
        Some(id) if same_text > 1 => {
            let prefix = format!("{}: ", action.label);
            let end = format!("({id})");
            let find = |h: &H| {
                h.query_all_by(|n| {
                    n.label()
                        .is_some_and(|l| l.starts_with(&prefix) && l.ends_with(&end))
                })
                .filter_map(|n| n.accesskit_node().label())
                .next()
            };
            if find(h).is_none() {
                click(h, &action.label);
            }
            let label = find(h).unwrap_or_else(|| panic!("no `{prefix}… {end}`"));
            click_button(h, &label);
        }
        _ => click_button(h, &action.label),
    }
    // A move that ends the player's options ("no card") asks first.
    if sees(h, "Really?") {
        click(h, "Yes, enter it");
    }
}

/// Enters a hand-resolved effect through the player's effect form.
fn enter_effect(h: &mut H, m: &dyn AnyMatch, mv: &Value) {
    let game = m.game().as_str().to_owned();
    let seat = mv["player"].as_u64().unwrap() as usize;
    let name = m.context().players[seat].clone();
    click_button(h, &format!("{name}: enter an effect"));
    let who = format!("{name}'s effect: ");
    for (key, v) in mv.as_object().unwrap() {
        match key.as_str() {
            "type" | "player" => {}
            "note" => type_into(h, &format!("{who}note"), v.as_str().unwrap()),
            "ability" => {
                if v.as_bool() == Some(true) {
                    click(h, &format!("{who}the character's ability is used"));
                }
            }
            _ => {
                let (caption, step) = hp_field(&game, key);
                let field = format!("{who}{caption}");
                step_to(
                    h,
                    &field,
                    &format!("{field} −{step}"),
                    &format!("{field} +{step}"),
                    v.as_i64().unwrap(),
                );
            }
        }
    }
    click_button(h, &format!("Apply {name}'s effect"));
}

/// The card pickers: move type → what the picker's buttons say, and whether it is folded
/// (an ability resolved by hand) or open (the game offers the move).
fn card_picker(ty: &str) -> Option<(&'static str, bool)> {
    match ty {
        "draw" => Some(("draws", false)),
        "power-up" => Some(("powers up with", false)),
        "pump" => Some(("pumps with", false)),
        "discard" => Some(("discards from hand", true)),
        "search" => Some(("searches the deck for", true)),
        _ => None,
    }
}

/// Taps the cards a move names, in order, in its picker, then "… these n".
fn enter_picked(h: &mut H, m: &dyn AnyMatch, mv: &Value) {
    let ty = mv["type"].as_str().unwrap();
    let (verb, folded) = card_picker(ty).unwrap();
    let seat = mv["player"].as_u64().unwrap() as usize;
    let name = m.context().players[seat].clone();
    let cards: Vec<String> = match mv.get("cards").or_else(|| mv.get("card")) {
        Some(Value::String(s)) => s
            .split(',')
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Value::Array(a)) => a.iter().map(|c| c.as_str().unwrap().to_owned()).collect(),
        other => panic!("cards {other:?}"),
    };
    let header = format!("{name} {verb}");
    if folded {
        click(h, &header);
    }
    for id in &cards {
        let prefix = format!("{name} {verb} ");
        let end = format!("({id})");
        let label: String = h
            .query_all_by(|n| {
                n.label()
                    .is_some_and(|l| l.starts_with(&prefix) && l.ends_with(&end))
            })
            .filter_map(|n| n.accesskit_node().label())
            .next()
            .unwrap_or_else(|| panic!("{name} cannot pick {id}"));
        click_button(h, &label);
    }
    click_button(h, &format!("{name} {verb} these {}", cards.len()));
    if folded {
        click(h, &header);
    }
}

/// Applies a move that breaks a rule, as the table agreed: the folded list, the refusal
/// dialog, "Override…" and the reason.
fn enter_override(h: &mut H, m: &dyn AnyMatch, action: &Action, reason: &str) {
    let seat = action.player.expect("a player's move");
    let header = format!(
        "{}: against the rules (override)",
        m.context().players[seat]
    );
    click(h, &header);
    tap_action(h, m, action);
    confirm_override(h, reason);
    click(h, &header);
}

/// In the refusal dialog: "Override…", the reason, "Apply with override".
fn confirm_override(h: &mut H, reason: &str) {
    assert!(sees(h, "Refused: this move breaks a rule"));
    click(h, "Override…");
    type_into(h, "Override reason", reason);
    click(h, "Apply with override");
}

/// Tries a move the script says is refused: the dialog names the rule; nothing is logged.
fn try_refused(h: &mut H, m: &dyn AnyMatch, rule: &str, input: &Value) -> bool {
    let reason = Value::from("probe");
    let Some(action) = offered(m, input, Some(&reason)) else {
        return false;
    };
    let Some(seat) = action.player else {
        return false;
    };
    let header = format!(
        "{}: against the rules (override)",
        m.context().players[seat]
    );
    click(h, &header);
    tap_action(h, m, &action);
    assert!(sees(h, "Refused: this move breaks a rule"));
    assert!(
        sees_part(h, &format!("rule {rule} ·")),
        "the rule {rule} is named"
    );
    click(h, "Undo at the table");
    click(h, &header);
    true
}

/// Corrects a number through its "± edit" dialog.
fn enter_adjust(h: &mut H, m: &dyn AnyMatch, input: &Value) {
    let seat = input["tracker"]["player"].as_u64().map(|s| s as usize);
    let name = input["tracker"]["name"].as_str().unwrap();
    let tracker = m
        .trackers()
        .into_iter()
        .find(|t| t.id.player == seat && t.id.name == name)
        .unwrap();
    let who = seat.map_or(String::new(), |s| format!("{}'s ", m.context().players[s]));
    click(h, &format!("Edit {who}{}", tracker.label));
    type_into(h, "New value", &input["value"].to_string());
    type_into(
        h,
        "Reason for the correction",
        input["reason"].as_str().unwrap(),
    );
    click(h, "Save correction");
}

/// What the two logs must agree on: the stored JSON, except a die's source and throw (typed
/// here, `script` headless) and an undo's reason (the table's "Undo last" asks for none).
fn comparable(json: &str) -> Value {
    let v: Value = serde_json::from_str(json).unwrap();
    match v["input"].as_str() {
        Some("roll") => serde_json::json!({
            "roll": [v["roll"]["sides"].clone(), v["roll"]["value"].clone()]
        }),
        Some("undo") => serde_json::json!({"input": "undo"}),
        _ => v,
    }
}

/// Plays `docs/examples/<file>` on the table screen from the start screen, and checks that the
/// stored match equals the script played headless. Returns the final match.
fn play_whole_script(file: &str, game_button: &str) -> Box<dyn AnyMatch> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples")
        .join(file);
    let script = std::fs::read_to_string(&path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    play_whole(file, &script, None, &db, game_button)
}

/// Plays the match script `text` (named `file` in messages) on the table screen of the store at
/// `db`, with the cards of `own` (a set of the store's card library, chosen on the start screen)
/// or else the game's demo set, and checks that the stored match equals the script played
/// headless. Returns the final match.
fn play_whole(
    file: &str,
    text: &str,
    own: Option<&Catalogue>,
    db: &Path,
    game_button: &str,
) -> Box<dyn AnyMatch> {
    let script = Script::parse(text).unwrap();
    let catalogue = match own {
        Some(c) => c.clone(),
        None => Catalogue::builtin(script.game).unwrap(),
    };
    let header = script.header(&catalogue).unwrap();
    // The start screen switches Rockman EXE's optional rules; every other script plays with
    // the digest's defaults (the final state comparison would show a difference).
    let switches: Vec<&str> = script
        .rules
        .iter()
        .filter(|(_, v)| v.as_bool() == Some(true))
        .filter_map(|(k, _)| match k.as_str() {
            "lv1_chip_limit" => Some("Lv1: chip level by HP band"),
            "lv2_virus_limit" => Some("Lv2: virus level by HP band"),
            "lv2_evolution" => Some("Lv2: virus evolution"),
            "lv3_styles" => Some("Lv3: style cards"),
            _ => None,
        })
        .collect();
    let mut m = new_match(header, &catalogue).unwrap();

    let mut h = open(db);
    let players: Vec<(String, String)> = script
        .players
        .iter()
        .map(|p| {
            let deck = match &p.deck {
                DeckRef::Named(d) => d.clone(),
                DeckRef::Cards(c) => c.join(","),
                DeckRef::Drafted => panic!("the demo scripts bring their decks"),
            };
            (p.name.clone(), deck)
        })
        .collect();
    let players: Vec<(&str, &str)> = players
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_str()))
        .collect();
    let set = own.map(|c| c.set.id.as_str());
    start_with(&mut h, game_button, set, &players, &switches);

    let mut headless_log: Vec<String> = Vec::new();
    for (line, step) in &script.steps {
        let at = format!("{file}:{line}");
        eprintln!("{at}");
        match step {
            Step::Input(input) => {
                let kind = input["input"].as_str().unwrap();
                let reason = input.get("override_reason");
                let stored = canonical(m.as_ref(), input, None)
                    .unwrap_or_else(|| panic!("{at}: the script's input is taken headless"));
                match kind {
                    "roll" => {
                        let r = &input["roll"];
                        type_die(&mut h, &format!("d{} {}", r["sides"], r["value"]));
                    }
                    "undo" => click_button(&mut h, "Undo last"),
                    "adjust" => enter_adjust(&mut h, m.as_ref(), input),
                    _ => {
                        let mv = &input["move"];
                        let ty = mv["type"].as_str().unwrap();
                        let plain = serde_json::json!({"input": "move", "move": mv});
                        if let Some(reason) = reason {
                            let reason = reason.as_str().unwrap();
                            if let Some(action) =
                                offered(m.as_ref(), &plain, Some(&Value::from(reason)))
                            {
                                enter_override(&mut h, m.as_ref(), &action, reason);
                            } else if card_picker(ty).is_some() {
                                enter_picked(&mut h, m.as_ref(), mv);
                                confirm_override(&mut h, reason);
                            } else {
                                panic!("{at}: the override is not offered");
                            }
                        } else if card_picker(ty).is_some_and(|(_, folded)| !folded) {
                            // The picker stands in for the game's own button.
                            enter_picked(&mut h, m.as_ref(), mv);
                        } else if let Some(action) = offered(m.as_ref(), input, None) {
                            tap_action(&mut h, m.as_ref(), &action);
                        } else if ty == "effect" {
                            enter_effect(&mut h, m.as_ref(), mv);
                        } else if card_picker(ty).is_some() {
                            enter_picked(&mut h, m.as_ref(), mv);
                        } else {
                            panic!("{at}: the UI offers no way to enter {input}");
                        }
                    }
                }
                headless_log.push(stored);
                let store = Store::open(db).unwrap();
                let id = store.matches().unwrap()[0].id;
                assert_eq!(
                    store.get(id).unwrap().entries as usize,
                    headless_log.len(),
                    "{at}: the input is stored"
                );
            }
            Step::Refused { rule, input } => {
                try_refused(&mut h, m.as_ref(), rule, input);
            }
            Step::ExpectTracker { tracker, value } => {
                let t = m
                    .trackers()
                    .into_iter()
                    .find(|t| &t.id == tracker)
                    .unwrap_or_else(|| panic!("{at}: no tracker {tracker:?}"));
                let who = tracker
                    .player
                    .map_or(String::new(), |s| format!("{}'s ", m.context().players[s]));
                let shown = format!("{who}{}: {value}", t.label);
                assert!(sees(&h, &shown), "{at}: the table shows `{shown}`");
            }
            Step::ExpectOutcome(ExpectedOutcome::Winner(seat)) => {
                let shown = format!("{} wins", m.context().players[*seat]);
                assert!(sees(&h, &shown), "{at}: the table shows `{shown}`");
            }
            Step::ExpectOutcome(ExpectedOutcome::Draw) => {
                assert!(sees(&h, "Draw"), "{at}: the table shows a draw");
            }
            Step::ExpectOutcome(ExpectedOutcome::None) => {
                for name in &m.context().players {
                    let shown = format!("{name} wins");
                    assert!(!sees(&h, &shown), "{at}: no result yet");
                }
            }
        }
        run_step(m.as_mut(), *line, step, &mut |_| Ok(()))
            .unwrap_or_else(|e| panic!("{at}: headless: {e}"));
    }

    // The store holds the same entries, and rebuilds the same match.
    let store = Store::open(db).unwrap();
    let id = store.matches().unwrap()[0].id;
    let mut ui_log: Vec<String> = Vec::new();
    store
        .for_each_entry(id, |_, _, json| {
            ui_log.push(json.to_owned());
            Ok::<(), tableside::store::StoreError>(())
        })
        .unwrap();
    assert_eq!(
        ui_log.len(),
        headless_log.len(),
        "{file}: one entry per input"
    );
    for (i, (ui, headless)) in ui_log.iter().zip(&headless_log).enumerate() {
        assert_eq!(
            comparable(ui),
            comparable(headless),
            "{file}: entry {i} differs"
        );
    }
    let ui_match = load_match(&store, id).unwrap();
    assert_eq!(ui_match.state_json(), m.state_json(), "{file}: state");
    assert_eq!(ui_match.trackers(), m.trackers(), "{file}: trackers");
    assert_eq!(ui_match.outcome(), m.outcome(), "{file}: outcome");
    m
}

#[test]
fn junk_ken_whole_demo_match_through_the_ui() {
    let m = play_whole_script("junk_ken-demo.script", "JUNK-KEN JUNK-拳");
    assert!(m.outcome().is_some(), "the demo match ends");
}

#[test]
fn yomi_whole_demo_match_through_the_ui() {
    let m = play_whole_script("yomi-demo.script", "Yomi ヨミ");
    assert!(m.outcome().is_some(), "the demo match ends");
}

#[test]
fn space_junk_two_player_match_through_the_ui_ends_in_the_stated_scores() {
    // The script's `expect score` lines are checked on the table screen as it is played
    // ("Aki's Final count: 34"); the result names the best final count.
    let m = play_whole_script("space_junk-2p.script", "Space Junk スペースジャンク");
    let score = |seat: usize| {
        m.trackers()
            .into_iter()
            .find(|t| t.id.player == Some(seat) && t.id.name == "score")
            .unwrap()
            .value
    };
    let winner = if score(0) > score(1) { 0 } else { 1 };
    assert!(
        matches!(m.outcome(), Some(cards::core::Outcome::Win { winner: w, .. }) if w == winner),
        "the best final count wins"
    );
}

#[test]
fn rockman_exe_whole_demo_match_through_the_ui() {
    let m = play_whole_script("rockman-demo.script", "Rockman EXE ロックマンエグゼ");
    assert!(m.outcome().is_some(), "the demo match ends");
}

/// A table's own set of each game (not built in), added to the card library, chosen on the
/// start screen, and a whole match played with it through the window; then replayed and
/// exported from the command line.
fn own_set_whole_match(game: cards::core::GameId, file: &str, game_button: &str) {
    let own = own_sets::own(game);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tableside.sqlite3");
    let (cat, version) = own_sets::add_to(&db, &own);
    let script = own_sets::script_for(game, file);
    let m = play_whole(file, &script, Some(&cat), &db, game_button);
    assert!(m.outcome().is_some(), "{game}: the match ends");
    own_sets::replay_and_export(dir.path(), &own, &version, m.as_ref());
}

#[test]
fn junk_ken_whole_match_with_an_own_set_through_the_ui() {
    own_set_whole_match(
        cards::core::GameId::JunkKen,
        "junk_ken-demo.script",
        "JUNK-KEN JUNK-拳",
    );
}

#[test]
fn rockman_exe_whole_match_with_an_own_set_through_the_ui() {
    own_set_whole_match(
        cards::core::GameId::RockmanExe,
        "rockman-demo.script",
        "Rockman EXE ロックマンエグゼ",
    );
}

#[test]
fn space_junk_whole_match_with_an_own_set_through_the_ui() {
    own_set_whole_match(
        cards::core::GameId::SpaceJunk,
        "space_junk-2p.script",
        "Space Junk スペースジャンク",
    );
}

#[test]
fn yomi_whole_match_with_an_own_set_through_the_ui() {
    own_set_whole_match(cards::core::GameId::Yomi, "yomi-demo.script", "Yomi ヨミ");
}
