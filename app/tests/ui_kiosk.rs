//! The table screen at the table: the Raspberry Pi's 800×480 touch screen (and a 1280×800
//! laptop), touch only.
//!
//! - Every demo match of every game (Space Junk at 2, 3 and 6 players, and 4 players walked
//!   move by move) is stepped through; at every step every move the rules offer has a control
//!   on screen without scrolling, and no two buttons overlap.
//! - The demo Jaken match is played on the kiosk by tapping only (no key event, no typed
//!   text): the refused reveal overridden with a one-tap reason, a correction entered with the
//!   number pad and a one-tap reason, a die from the die-face pad.
//! - Answering one of two prompts leaves the other prompt's buttons where they were.
//! - A move that ends a player's options asks first; the default action (Space, GPIO "next")
//!   applies an effect whose condition holds, with the card's printed numbers.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::script::{Script, Step};
use egui::accesskit::Role;
use egui::{Pos2, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::json;
use std::path::{Path, PathBuf};
use tableside::session::{Session, catalogue_for};
use tableside::store::Store;
use tableside::ui::i18n::Lang;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

mod common;
use common::*;

const PI: [f32; 2] = [800.0, 480.0];
const LAPTOP: [f32; 2] = [1280.0, 800.0];

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples")
        .join(name)
}

/// A window on the table screen of a match made from `script_text`'s header (players renamed
/// to `names` when given), with nothing played yet.
fn table(
    dir: &Path,
    script_text: &str,
    size: [f32; 2],
    lang: Lang,
    kiosk: bool,
    names: Option<&[&str]>,
) -> (H, Script) {
    let script = Script::parse(script_text).unwrap();
    let set = script
        .catalogue
        .clone()
        .unwrap_or_else(|| format!("{}-demo", script.game.as_str()));
    let catalogue = catalogue_for(script.game, &set).unwrap();
    let mut header = script.header(&catalogue).unwrap();
    if let Some(names) = names {
        for (p, n) in header.players.iter_mut().zip(names) {
            p.name = (*n).to_owned();
        }
    }
    let db = dir.join("tableside.sqlite3");
    drop(Session::start(Store::open(&db).unwrap(), header).unwrap());
    let mut app = TablesideApp::new(UiOptions {
        db_path: db,
        kiosk,
        tower: None,
    });
    app.set_lang(lang);
    app.resume_latest();
    let mut h = Harness::builder()
        .with_size(size)
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app);
    h.run();
    assert!(h.state().session().is_some(), "the table screen is shown");
    (h, script)
}

fn screen(size: [f32; 2]) -> Rect {
    Rect::from_min_size(Pos2::ZERO, Vec2::from(size))
}

/// Every move the rules offer has a control inside the screen, and no two buttons overlap.
#[track_caller]
fn check_screen(h: &H, size: [f32; 2], at: &str) {
    let app = h.state();
    let session = app.session().unwrap();
    let screen = screen(size);
    let targets = app.move_targets();
    for a in session.game().actions() {
        let key = a.input.to_string();
        let t = targets
            .iter()
            .find(|t| t.input == key)
            .unwrap_or_else(|| panic!("{at}: the move `{}` has no control", a.label));
        assert!(
            screen.expand(0.5).contains_rect(t.rect),
            "{at}: the move `{}` is at {:?}, outside the {}×{} screen",
            a.label,
            t.rect,
            size[0],
            size[1]
        );
    }
    no_overlaps(h, screen, at);
}

/// No two buttons (or text fields, checkboxes) on screen share any pixel.
#[track_caller]
fn no_overlaps(h: &H, screen: Rect, at: &str) {
    let targets: Vec<(String, Rect)> = h
        .root()
        .query_all_by(|n| {
            matches!(
                n.role(),
                Role::Button | Role::CheckBox | Role::TextInput | Role::RadioButton
            )
        })
        .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
        .filter(|(_, r)| r.intersects(screen) && r.area() > 0.0)
        .collect();
    for (i, (a, ra)) in targets.iter().enumerate() {
        for (b, rb) in &targets[i + 1..] {
            let overlap = ra.intersect(*rb);
            assert!(
                overlap.width() <= 0.5 || overlap.height() <= 0.5,
                "{at}: `{a}` {ra:?} overlaps `{b}` {rb:?}"
            );
        }
    }
}

/// Steps through every input of the script, checking the screen before each: at 800×480
/// every move on screen and no overlap; at a larger size no overlap (the moves may scroll).
fn walk(file: &str, size: [f32; 2]) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example(file)).unwrap();
    let (mut h, script) = table(dir.path(), &text, size, Lang::En, false, None);
    let mut checked = 0;
    for (line, step) in &script.steps {
        let Step::Input(input) = step else {
            continue;
        };
        if size == PI {
            check_screen(&h, size, &format!("{file}:{line}"));
        } else {
            no_overlaps(&h, screen(size), &format!("{file}:{line}"));
        }
        checked += 1;
        h.state_mut()
            .submit(input)
            .unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        h.run();
    }
    no_overlaps(&h, screen(size), &format!("{file}: the end"));
    assert!(checked > 20, "{file}: only {checked} steps walked");
}

#[test]
fn every_jaken_demo_move_is_on_the_pi_screen() {
    walk("jaken-demo.script", PI);
    walk("jaken-demo.script", LAPTOP);
}

// Steps that offer more moves than fit at 800×480 (JUNK-KEN's set phase, Rockman's
// transfers, Yomi's reveals, Space Junk's equipping) show smaller tiles, or a tile per card
// whose moves open in a dialog.

#[test]
fn every_junk_ken_demo_move_is_on_the_pi_screen() {
    walk("junk_ken-demo.script", PI);
}

#[test]
fn every_junk_ken_demo_move_is_on_the_laptop_screen() {
    walk("junk_ken-demo.script", LAPTOP);
}

#[test]
fn every_junk_ken_draft_move_is_on_the_pi_screen() {
    // 30-card decks: more cards than a tile each fits; a tile per kind of move then.
    walk("junk_ken-draft.script", PI);
}

#[test]
fn every_rockman_demo_move_is_on_the_pi_screen() {
    walk("rockman-demo.script", PI);
}

#[test]
fn every_rockman_demo_move_is_on_the_laptop_screen() {
    walk("rockman-demo.script", LAPTOP);
}

#[test]
fn every_yomi_demo_move_is_on_the_pi_screen() {
    walk("yomi-demo.script", PI);
}

#[test]
fn every_yomi_demo_move_is_on_the_laptop_screen() {
    walk("yomi-demo.script", LAPTOP);
}

#[test]
fn every_space_junk_move_is_on_the_pi_screen_with_2_3_and_6_players() {
    walk("space_junk-2p.script", PI);
    walk("space_junk-demo.script", PI);
    walk("space_junk-6p.script", PI);
}

#[test]
fn every_space_junk_move_is_on_the_laptop_screen_with_2_and_6_players() {
    walk("space_junk-2p.script", LAPTOP);
    walk("space_junk-6p.script", LAPTOP);
}

#[test]
fn space_junk_with_4_players_keeps_every_move_on_screen() {
    let text = "game space-junk\ncatalogue space-junk-demo\nplayer Aki cards=SJ01\n\
                player Ben cards=SJ05\nplayer Cho cards=SJ03\nplayer Dai cards=SJ02\n";
    // At 800×480 up to the first equip step (the known gap above), at 1280×800 all of it.
    for (size, steps) in [(PI, 18), (LAPTOP, 18)] {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = table(dir.path(), text, size, Lang::En, false, None);
        // Move by move: the first move offered, or a 3 for the die asked for.
        for step in 0..steps {
            check_screen(&h, size, &format!("4 players, step {step}"));
            let game = h.state().session().unwrap().game();
            if game.outcome().is_some() {
                break;
            }
            let die = game.context().prompts.iter().find_map(|p| match p.kind {
                cards::core::PromptKind::Die { sides } => Some(sides),
                _ => None,
            });
            let input = match (die, game.actions().first()) {
                (Some(sides), _) => {
                    json!({"input": "roll", "roll": {"sides": sides, "value": 3, "source": {"kind": "typed"}}})
                }
                (None, Some(a)) => a.input.clone(),
                (None, None) => break,
            };
            h.state_mut().submit(&input).unwrap();
            h.run();
        }
    }
}

/// Taps a widget by its name, as a finger would: it must be on screen already (no scrolling).
#[track_caller]
fn tap(h: &mut H, label: &str) {
    let size = h.ctx.content_rect().size();
    let rect = h.get_by_label(label).rect();
    assert!(
        Rect::from_min_size(Pos2::ZERO, size)
            .expand(0.5)
            .contains_rect(rect),
        "`{label}` is at {rect:?}, off the screen"
    );
    let clip = h
        .output()
        .shapes
        .iter()
        .filter(|c| c.clip_rect.contains_rect(rect))
        .count();
    assert!(
        clip > 0,
        "`{label}` is clipped away (a scroll area hides it)"
    );
    h.get_by_label(label).click();
    h.run();
}

/// The label of the one widget whose name contains `part`.
#[track_caller]
fn label_with(h: &H, part: &str) -> String {
    let labels: Vec<String> = h
        .query_all_by_label_contains(part)
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert_eq!(labels.len(), 1, "one widget with `{part}`: {labels:?}");
    labels[0].clone()
}

fn sb(h: &H, seat: usize) -> i32 {
    let game = h.state().session().unwrap().game();
    game.trackers()
        .iter()
        .find(|t| t.id.player == Some(seat) && t.id.name == "sb")
        .unwrap()
        .value
}

#[test]
fn the_demo_jaken_match_is_played_on_the_kiosk_by_touch_only() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example("jaken-demo.script")).unwrap();
    let (mut h, script) = table(dir.path(), &text, PI, Lang::En, true, None);
    for (line, step) in &script.steps {
        let Step::Input(input) = step else {
            continue;
        };
        let at = format!("jaken-demo.script:{line}");
        let before = h.state().session().unwrap().game().len();
        let kind = input["input"].as_str().unwrap_or_default();
        match kind {
            "move" => {
                let mv = &input["move"];
                let player = mv["player"].as_u64().map(|p| p as usize);
                let name = player
                    .map(|p| h.state().session().unwrap().game().context().players[p].clone())
                    .unwrap_or_default();
                match mv["type"].as_str().unwrap() {
                    "effect" => {
                        // The form is filled in with the card's printed numbers.
                        let atk = mv["atk"].as_i64().unwrap_or(0);
                        let shown = format!("{name}'s effect: own ATK = {atk}");
                        assert!(sees(&h, &shown), "{at}: the effect form shows {shown}");
                        tap(&mut h, &format!("Apply {name}'s effect"));
                    }
                    "use-bg" => {
                        // 800×480: the numbers are in a dialog over the screen.
                        tap(&mut h, &format!("{name}: BG use…"));
                        for (key, caption) in [("atk", "ATK"), ("def", "DEF")] {
                            let want = mv[key].as_i64().unwrap_or(0);
                            let prefix = format!("{name}'s BG use: {caption}");
                            for _ in 0..20 {
                                let now = (-20..=20)
                                    .find(|v| sees(&h, &format!("{prefix} = {v}")))
                                    .unwrap();
                                if now == want {
                                    break;
                                }
                                let sign = if now < want { "+1" } else { "−1" };
                                tap(&mut h, &format!("{prefix} {sign}"));
                            }
                        }
                        tap(&mut h, &format!("{name} uses the BG"));
                    }
                    _ => {
                        let action = h
                            .state()
                            .session()
                            .unwrap()
                            .game()
                            .actions()
                            .into_iter()
                            .chain(h.state().session().unwrap().game().refused_actions())
                            .find(|a| a.input["move"] == input["move"]);
                        let Some(action) = action else {
                            // A reveal the rules refuse: its button in the reveal picker.
                            let card = mv["card"].as_str().unwrap();
                            let cat =
                                cards::catalogue::Catalogue::builtin(cards::core::GameId::Jaken)
                                    .unwrap();
                            let c = cat.cards.iter().find(|c| c.id == card).unwrap();
                            tap(
                                &mut h,
                                &format!("{name} reveals {} ({})", c.name_ja, c.name_en),
                            );
                            override_by_touch(&mut h, &at);
                            let after = h.state().session().unwrap().game().len();
                            assert_eq!(after, before + 1, "{at}: the override is logged");
                            continue;
                        };
                        let wanted = action.input.to_string();
                        let target = h
                            .state()
                            .move_targets()
                            .iter()
                            .find(|t| t.input == wanted)
                            .map(|t| t.rect);
                        match target {
                            Some(rect) => {
                                assert!(screen(PI).expand(0.5).contains_rect(rect), "{at}");
                                click_at(&mut h, rect.center());
                            }
                            None => tap(&mut h, &action.label),
                        }
                        // "No effect" and "plays nothing" ask again.
                        if sees(&h, "Yes, enter it") {
                            tap(&mut h, "Yes, enter it");
                        }
                        if input.get("override_reason").is_some() {
                            override_by_touch(&mut h, &at);
                        }
                    }
                }
            }
            "adjust" => {
                let value = input["value"].as_i64().unwrap();
                let edit = label_with(&h, "Edit Aki's SB");
                tap(&mut h, &edit);
                // The number pad: clear, then the digits.
                for _ in 0..3 {
                    tap(&mut h, "Key delete");
                }
                for d in value.to_string().chars() {
                    tap(&mut h, &format!("Key {d}"));
                }
                tap(&mut h, "Save correction");
                assert!(
                    sees_part(&h, "Choose a reason above or type one"),
                    "{at}: {:?}",
                    drawn_texts(&h)
                );
                tap(&mut h, "Miscounted");
                tap(&mut h, "Save correction");
                assert_eq!(sb(&h, 0), value as i32, "{at}: the correction is in");
            }
            "undo" => {
                // At 800 px "Undo last" is with the log, behind "Log & dice".
                tap(&mut h, "Log & dice");
                tap(&mut h, "Undo last");
                tap(&mut h, "Back to the table");
            }
            "roll" => {
                // A roll no prompt asks for: the dice panel, behind "Log & dice" at 800 px.
                let v = input["roll"]["value"].as_u64().unwrap();
                tap(&mut h, "Log & dice");
                tap(&mut h, &format!("Typed d6 = {v}"));
                tap(&mut h, "Back to the table");
            }
            other => panic!("{at}: no touch for `{other}`"),
        }
        let after = h.state().session().unwrap().game().len();
        assert_eq!(after, before + 1, "{at}: one tap sequence, one entry");
    }
    let game = h.state().session().unwrap().game();
    assert!(game.outcome().is_some(), "the match is over");
    let store = Store::open(&dir.path().join("tableside.sqlite3")).unwrap();
    let id = h.state().session().unwrap().id();
    let entries = store.entries(id).unwrap();
    assert!(
        entries
            .iter()
            .any(|e| e.input_json.contains("Agreed by both players")),
        "the override reason is logged"
    );
    assert!(
        entries.iter().any(|e| e.input_json.contains("Miscounted")),
        "the correction reason is logged"
    );
}

/// The refusal dialog is open: "Override…", "Apply" without a reason (which says what is
/// missing), a one-tap reason, "Apply".
#[track_caller]
fn override_by_touch(h: &mut H, at: &str) {
    assert!(sees(h, "Refused: this move breaks a rule"), "{at}");
    tap(h, "Override…");
    tap(h, "Apply with override");
    assert!(
        sees_part(h, "Choose a reason above or type one"),
        "{at}: {:?}",
        drawn_texts(h)
    );
    tap(h, "Agreed by both players");
    tap(h, "Apply with override");
}

/// A press and release at a point of the screen.
fn click_at(h: &mut H, pos: Pos2) {
    h.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
    h.run();
}

/// The Jaken demo up to battle 1's face-down step (both players owe a monster).
const TO_FACE_DOWN: &str = "game jaken\ncatalogue jaken-demo\nplayer Aki deck=lantern\n\
                            player Ben deck=gale\n";

#[test]
fn answering_one_prompt_leaves_the_other_prompts_buttons_in_place() {
    for size in [PI, LAPTOP] {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = table(dir.path(), TO_FACE_DOWN, size, Lang::En, false, None);
        for input in [
            json!({"input": "move", "move": {"type": "first-parent", "player": 0}}),
            json!({"input": "move", "move": {"type": "pass-bg", "player": 0}}),
        ] {
            h.state_mut().submit(&input).unwrap();
            h.run();
        }
        let ben = "Ben places a monster face down";
        let before = h.get_by_label(ben).rect();
        let ben_none = h.get_by_label_contains("Ben has no card").rect();
        tap(&mut h, "Aki places a monster face down");
        assert!(
            !sees(&h, "Aki places a monster face down"),
            "Aki's prompt is answered"
        );
        assert_eq!(h.get_by_label(ben).rect(), before, "Ben's button stayed");
        assert_eq!(
            h.get_by_label_contains("Ben has no card").rect(),
            ben_none,
            "Ben's other button stayed"
        );
    }
}

#[test]
fn a_move_that_ends_a_players_options_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = table(dir.path(), TO_FACE_DOWN, PI, Lang::En, true, None);
    for input in [
        json!({"input": "move", "move": {"type": "first-parent", "player": 0}}),
        json!({"input": "move", "move": {"type": "pass-bg", "player": 0}}),
    ] {
        h.state_mut().submit(&input).unwrap();
        h.run();
    }
    let len = h.state().session().unwrap().game().len();
    let nothing = label_with(&h, "Aki has no card to summon");
    tap(&mut h, &nothing);
    assert!(sees(&h, "Really?"), "asked first");
    assert_eq!(h.state().session().unwrap().game().len(), len, "not yet");
    tap(&mut h, "Cancel");
    assert_eq!(h.state().session().unwrap().game().len(), len, "cancelled");
    // Space (GPIO "next") never presses it: it places Aki's monster face down.
    h.key_press(egui::Key::Space);
    h.run();
    let log = h.state().session().unwrap().game().log();
    assert!(
        log.last()
            .unwrap()
            .text
            .contains("Aki places a monster face down"),
        "{:?}",
        log.last()
    );
}

#[test]
fn the_next_action_applies_an_effect_whose_condition_holds_with_its_printed_numbers() {
    // Battle 3 of the demo: Aki (parent) reveals 黒炎童子 "If you are the parent: +2 ATK".
    let text = std::fs::read_to_string(example("jaken-demo.script")).unwrap();
    let cut: String = text
        .lines()
        .take_while(|l| !l.starts_with("move effect player=Aki atk=2"))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let (mut h, script) = table(dir.path(), &cut, PI, Lang::En, true, None);
    for (_, step) in &script.steps {
        if let Step::Input(input) = step {
            h.state_mut().submit(input).unwrap();
            h.run();
        }
    }
    assert!(sees(&h, "Aki's effect: own ATK = 2"), "the printed +2 ATK");
    h.key_press(egui::Key::Space);
    h.run();
    let log = h.state().session().unwrap().game().log();
    let last = &log.last().unwrap().text;
    assert!(
        last.contains("Aki's effect") && last.contains("ATK +2"),
        "Space applied the effect, not 'no effect': {last}"
    );
}

/// Every text drawn in the last frame.
fn drawn_texts(h: &H) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(t) => out.push(t.galley.text().to_owned()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}

/// Words of Latin letters a Japanese screen may show: game and unit names as printed, key
/// names, the app's name, the other language's button.
const LATIN_OK: [&str; 18] = [
    "ATK",
    "DEF",
    "Jaken",
    "JUNK",
    "KEN",
    "Rockman",
    "EXE",
    "Space",
    "Junk",
    "Yomi",
    "Tableside",
    "English",
    "ABC",
    "Esc",
    "jicha",
    "tacha",
    "ryancha",
    // A setting's own name, as it is written in the config file.
    "camera",
];

/// The first English word of `text` (3 or more Latin letters not in [`LATIN_OK`]) once the
/// catalogue's own texts (`catalogue`: card texts, which stay in the catalogue's language) are
/// taken out of it; a text that is part of one of them is none.
fn english_word(text: &str, catalogue: &[String]) -> Option<String> {
    if catalogue.iter().any(|c| !c.is_empty() && c.contains(text)) {
        return None;
    }
    let mut rest = text.to_owned();
    for c in catalogue.iter().filter(|c| !c.is_empty()) {
        rest = rest.replace(c.as_str(), " ");
    }
    rest.split(|c: char| c.is_whitespace())
        .filter(|w| !w.contains('/'))
        .flat_map(|w| w.split(|c: char| !c.is_ascii_alphabetic()))
        .find(|w| w.len() >= 3 && !LATIN_OK.contains(w))
        .map(str::to_owned)
}

/// A game's demo catalogue's own texts (card texts, set note, deck names, a card's English
/// name where it has no Japanese one), which stay in the catalogue's language.
fn catalogue_texts(game: cards::core::GameId) -> Vec<String> {
    let cat = cards::catalogue::Catalogue::builtin(game).unwrap();
    let mut out: Vec<String> = cat.cards.iter().map(|c| c.text.clone()).collect();
    out.extend(
        cat.cards
            .iter()
            .filter(|c| c.name_ja.is_empty())
            .map(|c| c.name_en.clone()),
    );
    // Yomi's printed abilities, on its characters and its moves' ends.
    use cards::games::yomi::card::YomiCard;
    for card in &cat.cards {
        match card.yomi() {
            Some(YomiCard::Character(c)) => out.extend(c.abilities.iter().map(|a| a.text.clone())),
            Some(YomiCard::Move(m)) => out.extend(
                [&m.top, &m.bottom]
                    .into_iter()
                    .flat_map(|e| e.abilities.iter().map(|a| a.text.clone())),
            ),
            _ => {}
        }
        // Rockman EXE's printed end-phase effects.
        use cards::games::rockman::card::RockmanCard;
        let end_phase = match card.rockman() {
            Some(RockmanCard::Navi(n)) => n.end_phase.clone(),
            Some(RockmanCard::Virus(v)) => v.end_phase.clone(),
            Some(RockmanCard::Style(s)) => s.end_phase.clone(),
            _ => None,
        };
        out.extend(end_phase);
    }
    out.sort_by_key(|t| std::cmp::Reverse(t.len()));
    out
}

#[test]
fn the_english_check_catches_an_english_string() {
    let cat = catalogue_texts(cards::core::GameId::Jaken);
    assert_eq!(english_word("Undo last", &cat).as_deref(), Some("Undo"));
    assert_eq!(english_word("あきの SB 11", &cat), None);
    assert_eq!(
        english_word("[1/Space] 攻撃力・守備力を比べてSBを移す", &cat),
        None
    );
    assert_eq!(
        english_word("第3バトル B4: Compare", &cat).as_deref(),
        Some("Compare")
    );
    assert_eq!(
        english_word("Gale Riders", &cat).as_deref(),
        Some("Gale"),
        "a deck name is no card text"
    );
}

/// The texts of one Japanese screen with an English word (with the word), each once.
struct Untranslated {
    catalogue: Vec<String>,
    found: std::collections::BTreeMap<String, String>,
    seen: usize,
}

impl Untranslated {
    fn new(game: cards::core::GameId) -> Self {
        Untranslated {
            catalogue: catalogue_texts(game),
            found: std::collections::BTreeMap::new(),
            seen: 0,
        }
    }

    fn check(&mut self, h: &H, at: &str) {
        for text in drawn_texts(h) {
            if let Some(word) = english_word(&text, &self.catalogue) {
                self.found
                    .entry(text)
                    .or_insert_with(|| format!("{at}: `{word}`"));
            }
            self.seen += 1;
        }
    }

    #[track_caller]
    fn assert_none(&self, what: &str, at_least: usize) {
        let list: Vec<String> = self
            .found
            .iter()
            .map(|(text, at)| format!("{at} in {text:?}"))
            .collect();
        assert!(
            list.is_empty(),
            "{what}: {} English string(s) in the Japanese screens:\n{}",
            list.len(),
            list.join("\n")
        );
        assert!(
            self.seen > at_least,
            "{what}: only {} texts were checked",
            self.seen
        );
    }
}

/// Walks a demo match in Japanese on the kiosk at 800×480 (players with Japanese names): every
/// step, the log and dice view every few steps and at the end, the result, the history screen
/// and the start screen (with the game chosen); collects every English string drawn.
fn walk_japanese(file: &str, names: &[&str]) -> Untranslated {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example(file)).unwrap();
    let (mut h, script) = table(dir.path(), &text, PI, Lang::Ja, true, Some(names));
    let mut found = Untranslated::new(script.game);
    let mut inputs = 0;
    for (line, step) in &script.steps {
        let Step::Input(input) = step else {
            continue;
        };
        let at = format!("{file}:{line}");
        found.check(&h, &at);
        if inputs % 8 == 0 {
            // The log and dice, then back.
            tap(&mut h, "記録とダイス");
            found.check(&h, &format!("{at} (log)"));
            tap(&mut h, "卓に戻る");
        }
        inputs += 1;
        h.state_mut().submit(input).unwrap();
        h.run();
    }
    found.check(&h, "the result");
    tap(&mut h, "記録とダイス");
    found.check(&h, "the result (log)");
    tap(&mut h, "卓に戻る");
    // The start screen with the game chosen, then the history.
    tap(&mut h, "卓を離れる");
    let title = cards::core::GameId::descriptor(script.game).name_ja;
    if let Some(choice) = h.query_by_label_contains(title) {
        choice.click();
        h.run();
    }
    found.check(&h, "the start screen");
    tap(&mut h, "履歴");
    found.check(&h, "the history");
    found
}

#[test]
fn every_jaken_screen_in_japanese_has_no_english_string() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example("jaken-demo.script")).unwrap();
    let (mut h, script) = table(
        dir.path(),
        &text,
        PI,
        Lang::Ja,
        true,
        Some(&["あき", "べん"]),
    );
    let mut found = Untranslated::new(script.game);
    for (n, (line, step)) in script.steps.iter().enumerate() {
        let Step::Input(input) = step else {
            continue;
        };
        let at = format!("jaken-demo.script:{line}");
        found.check(&h, &at);
        if n % 10 == 0 {
            // The log and dice, then back.
            tap(&mut h, "記録とダイス");
            found.check(&h, &format!("{at} (log)"));
            tap(&mut h, "卓に戻る");
        }
        h.state_mut().submit(input).unwrap();
        h.run();
    }
    found.check(&h, "the result");
    // A correction dialog and its keyboard.
    let edit = label_with(&h, "あきの SB 魂玉 を訂正");
    tap(&mut h, &edit);
    found.check(&h, "the correction");
    tap(&mut h, "キーボード: 訂正の理由");
    found.check(&h, "the correction's keyboard");
    tap(&mut h, "やめる");
    // The start screen and the history.
    tap(&mut h, "卓を離れる");
    found.check(&h, "the start screen");
    tap(&mut h, "履歴");
    found.check(&h, "the history");
    found.assert_none("Jaken", 200);
}

#[test]
fn every_junk_ken_screen_in_japanese_has_no_english_string() {
    walk_japanese("junk_ken-demo.script", &["あき", "べん"]).assert_none("JUNK-KEN", 200);
}

#[test]
fn every_junk_ken_draft_screen_in_japanese_has_no_english_string() {
    walk_japanese("junk_ken-draft.script", &["あき", "べん"]).assert_none("JUNK-KEN draft", 60);
}

#[test]
fn every_rockman_screen_in_japanese_has_no_english_string() {
    walk_japanese("rockman-demo.script", &["あき", "べん"]).assert_none("Rockman EXE", 200);
}

#[test]
fn every_space_junk_screen_in_japanese_has_no_english_string() {
    walk_japanese("space_junk-demo.script", &["あき", "べん", "ちょう"])
        .assert_none("Space Junk", 200);
}

#[test]
fn every_yomi_screen_in_japanese_has_no_english_string() {
    walk_japanese("yomi-demo.script", &["あき", "べん"]).assert_none("Yomi", 200);
}

/// The first `inputs` steps of a demo match on the laptop's 1280×800 screen in Japanese, where
/// the wide layout shows more than the kiosk (the step heading above the moves, the phase bar,
/// the dice and log beside the table).
fn laptop_japanese(file: &str, names: &[&str], inputs: usize) -> Untranslated {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(example(file)).unwrap();
    let (mut h, script) = table(dir.path(), &text, LAPTOP, Lang::Ja, false, Some(names));
    let mut found = Untranslated::new(script.game);
    let steps = script.steps.iter().filter_map(|(line, step)| match step {
        Step::Input(input) => Some((line, input)),
        _ => None,
    });
    for (line, input) in steps.take(inputs) {
        found.check(&h, &format!("{file}:{line} (1280x800)"));
        h.state_mut().submit(input).unwrap();
        h.run();
    }
    found
}

#[test]
fn the_laptop_screen_of_every_generic_game_in_japanese_has_no_english_string() {
    for (file, names, what) in [
        ("junk_ken-demo.script", &["あき", "べん"][..], "JUNK-KEN"),
        ("rockman-demo.script", &["あき", "べん"][..], "Rockman EXE"),
        (
            "space_junk-demo.script",
            &["あき", "べん", "ちょう"][..],
            "Space Junk",
        ),
        ("yomi-demo.script", &["あき", "べん"][..], "Yomi"),
    ] {
        laptop_japanese(file, names, 12).assert_none(what, 50);
    }
}

#[test]
fn a_bad_config_file_opens_the_window_with_the_problem_on_screen() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tableside.toml");
    let text = "[ui]\nkiosk = true\nlangauge = \"ja\"\n";
    std::fs::write(&file, text).unwrap();
    let problem = tableside::config::Config::load(&file).unwrap_err();
    let config = tableside::ui::WindowConfig::from_loaded(Err(&problem));
    let app = TablesideApp::new(UiOptions {
        db_path: dir.path().join("tableside.sqlite3"),
        kiosk: true,
        tower: None,
    })
    .with_config(config);
    let mut h = Harness::builder()
        .with_size(PI)
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app);
    h.run();
    let shown = drawn_texts(&h).join("\n");
    assert!(shown.contains("tableside.toml, line 3"), "{shown}");
    assert!(
        shown.contains("`langauge` is not a setting of [ui]") && shown.contains("language, kiosk"),
        "what to write instead: {shown}"
    );
    assert!(shown.contains("The defaults are in effect"), "{shown}");
    assert!(sees(&h, "Start"), "the start screen works under it");
    tap(&mut h, "OK");
    assert!(
        !drawn_texts(&h).join("\n").contains("line 3"),
        "read and put away"
    );
}

#[test]
fn the_config_files_language_and_house_rules_are_the_windows() {
    let dir = tempfile::tempdir().unwrap();
    let config =
        tableside::config::Config::parse("c.toml", "[ui]\nlanguage = \"ja\"\n[rules.junk-ken]\n");
    let config = match config {
        Ok(c) => c,
        Err(_) => tableside::config::Config::parse("c.toml", "[ui]\nlanguage = \"ja\"\n").unwrap(),
    };
    let app = TablesideApp::new(UiOptions {
        db_path: dir.path().join("tableside.sqlite3"),
        kiosk: false,
        tower: None,
    })
    .with_config(tableside::ui::WindowConfig::from_loaded(Ok(&config)));
    if std::env::var_os(tableside::ui::i18n::LANG_ENV).is_none() {
        assert_eq!(app.lang(), Lang::Ja, "the config's language");
    }
}
