//! The dice panel of the table screen, driven headless with `egui_kittest`: typed dice and
//! virtual dice are logged with their source, bad typed text says why, a tower that is not
//! there (`--tower /nonexistent`) is said plainly without stopping the window, a late tower die
//! never answers a request opened after it was thrown and waits for the table's one tap, and
//! an unplugged or reset tower is said in words (how long, which dice were lost, faults), in
//! both languages.
//!
//! Like `ui_jaken.rs`, the harness uses only the embedded Japanese font and fails on any
//! character it cannot draw.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::core::DieSource;
use clap::Parser;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use firmware_bridge::message::DeviceId;
use firmware_bridge::sim::{Command, Sim, SimConfig};
use hardware::dice::VirtualDice;
use std::path::Path;
use std::time::{Duration, Instant};
use tableside::cli::Cli;
use tableside::dice::TowerChoice;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

mod common;

type H = Harness<'static, TablesideApp>;

fn open(db: &Path, tower: Option<TowerChoice>) -> H {
    open_sized(db, tower, [1400.0, 1000.0])
}

fn open_sized(db: &Path, tower: Option<TowerChoice>, size: [f32; 2]) -> H {
    let app = TablesideApp::new(UiOptions {
        db_path: db.to_path_buf(),
        kiosk: false,
        tower,
    });
    Harness::builder()
        .with_size(size)
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app)
}

/// Runs frames until the window is idle. The tower link's thread wakes the window on its own
/// (every retry of a missing tower), so the frame budget may run out: that is not a failure.
fn settle(h: &mut H) {
    let _ = h.run_ok();
}

#[track_caller]
fn click(h: &mut H, label: &str) {
    h.get_by_label(label).scroll_to_me();
    settle(h);
    h.get_by_label(label).click();
    settle(h);
}

#[track_caller]
fn type_into(h: &mut H, label: &str, text: &str) {
    click(h, label);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    settle(h);
    h.get_by_label(label).type_text(text);
    settle(h);
}

#[track_caller]
fn sees_part(h: &H, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

/// A widget shows `label` as its text or carries it as its accessible name.
#[track_caller]
fn sees(h: &H, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
        || h.query_all_by(move |n| n.label().as_deref() == Some(label))
            .next()
            .is_some()
}

fn start_match(h: &mut H) {
    type_into(h, "Player 1 name", "Aki");
    type_into(h, "Player 2 name", "Ben");
    click(h, "Player 1 deck: lantern");
    click(h, "Player 2 deck: gale");
    click(h, "Start");
    assert!(h.state().session().is_some(), "the table screen is shown");
}

/// The logged rolls of the match: (sides, value, source).
fn logged_rolls(h: &H) -> Vec<(u8, u8, DieSource)> {
    let session = h.state().session().unwrap();
    let entries = session.store().entries(session.id()).unwrap();
    entries
        .iter()
        .filter_map(|e| {
            let v: serde_json::Value = serde_json::from_str(&e.input_json).unwrap();
            (v["input"] == "roll").then(|| {
                let roll: cards::core::Roll = serde_json::from_value(v["roll"].clone()).unwrap();
                (roll.sides, roll.value, roll.source)
            })
        })
        .collect()
}

#[test]
fn typed_and_virtual_dice_are_logged_with_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"), None);
    settle(&mut h);
    start_match(&mut h);
    assert!(sees_part(&h, "No dice tower"));

    // A typed d6, entered with the button.
    type_into(&mut h, "Typed dice", "d6 4");
    click(&mut h, "Enter typed dice");
    assert!(
        sees_part(&h, "free roll: d6 = 4 (typed)"),
        "the log shows the typed die and its source"
    );
    assert!(
        h.get_by_label("Typed dice")
            .accesskit_node()
            .value()
            .unwrap_or_default()
            .is_empty(),
        "the field is cleared once the dice are in"
    );

    // Two typed dice at once, entered with the Enter key.
    type_into(&mut h, "Typed dice", "2d6 3 5");
    h.key_press(Key::Enter);
    settle(&mut h);
    assert!(sees_part(&h, "free roll: d6 = 3 (typed)"));
    assert!(sees_part(&h, "free roll: d6 = 5 (typed)"));

    // A virtual d20 from seeded dice, so the value is known.
    h.state_mut().dice_mut().unwrap().seed_virtual(11);
    let expected = VirtualDice::seeded(11).roll(20).unwrap().value;
    click(&mut h, "Roll a virtual d20");
    assert!(
        sees_part(&h, &format!("free roll: d20 = {expected} (virtual)")),
        "the log shows the virtual die and its source"
    );
    // And 2d6: two more virtual dice.
    click(&mut h, "Roll virtual 2d6");

    let rolls = logged_rolls(&h);
    assert_eq!(
        rolls[..4],
        [
            (6, 4, DieSource::Typed),
            (6, 3, DieSource::Typed),
            (6, 5, DieSource::Typed),
            (20, expected, DieSource::Virtual),
        ]
    );
    assert_eq!(rolls.len(), 6);
    assert!(
        rolls[4..]
            .iter()
            .all(|(s, v, src)| *s == 6 && (1..=6).contains(v) && *src == DieSource::Virtual)
    );
}

#[test]
fn bad_typed_text_says_why_and_logs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"), None);
    settle(&mut h);
    start_match(&mut h);

    for (text, reason) in [
        ("d6 7", "7 is not on a d6 (its faces are 1 to 6)"),
        (
            "x",
            "`x` is neither a die (like `d6` or `2d6`) nor a number",
        ),
        ("4", "which die? write it before the values, e.g. `d6 4`"),
        ("2d6 3", "`2d6` needs 2 value(s), 1 typed"),
    ] {
        type_into(&mut h, "Typed dice", text);
        click(&mut h, "Enter typed dice");
        assert!(sees_part(&h, reason), "`{text}` is refused with: {reason}");
        assert_eq!(
            h.get_by_label("Typed dice")
                .accesskit_node()
                .value()
                .as_deref(),
            Some(text),
            "the text stays for correcting"
        );
    }
    assert!(logged_rolls(&h).is_empty(), "no bad entry reached the log");

    // Corrected, it goes in and the reason goes away.
    type_into(&mut h, "Typed dice", "d6 6");
    click(&mut h, "Enter typed dice");
    assert!(sees_part(&h, "free roll: d6 = 6 (typed)"));
    assert!(!sees_part(&h, "value(s)"));
    assert_eq!(logged_rolls(&h), [(6, 6, DieSource::Typed)]);
}

/// Runs frames until `text` shows (the link works on its own thread).
fn wait_to_see(h: &mut H, text: &str) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        settle(h);
        if sees_part(h, text) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_missing_tower_is_said_plainly_and_hand_entry_stays() {
    // The window's own option, parsed as the binary parses it.
    let cli = Cli::try_parse_from(["tableside", "--tower", "/nonexistent"]).unwrap();
    assert_eq!(cli.tower, Some(TowerChoice::Path("/nonexistent".into())));
    let auto = Cli::try_parse_from(["tableside", "--tower", "auto"]).unwrap();
    assert_eq!(auto.tower, Some(TowerChoice::Auto));

    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&dir.path().join("tableside.sqlite3"), cli.tower);
    settle(&mut h);
    // Already on the start screen.
    assert!(
        wait_to_see(&mut h, "Tower not found"),
        "the start screen says the tower is not found"
    );
    assert!(sees_part(&h, "cannot open /nonexistent"));

    start_match(&mut h);
    assert!(wait_to_see(&mut h, "Tower not found"));
    assert!(!h.state().dice().unwrap().tower_connected());
    // Without a tower, the dice are typed or virtual.
    type_into(&mut h, "Typed dice", "d6 2");
    click(&mut h, "Enter typed dice");
    assert!(sees_part(&h, "free roll: d6 = 2 (typed)"));
    click(&mut h, "Roll a virtual d6");
    assert!(sees_part(&h, "(virtual)"));
    // The link keeps trying without disturbing the window.
    std::thread::sleep(Duration::from_millis(300));
    assert!(wait_to_see(&mut h, "Tower not found"));
}

const DEVICE: u64 = 0x7AB1_E51D_E000_0042;

/// A simulated tower and the window connected to it (the folder holds the match store).
fn window_with_tower(seed: u64) -> (Sim, tempfile::TempDir, H) {
    window_with_tower_sized(seed, [1400.0, 1000.0])
}

fn window_with_tower_sized(seed: u64, size: [f32; 2]) -> (Sim, tempfile::TempDir, H) {
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(DEVICE),
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(seed),
        ..SimConfig::default()
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_sized(
        &dir.path().join("tableside.sqlite3"),
        Some(TowerChoice::Path(sim.path().to_owned())),
        size,
    );
    settle(&mut h);
    assert!(wait_to_see(&mut h, "Connected to tower 7ab1e51de0000042"));
    (sim, dir, h)
}

/// A late die's card takes no tap in its first moments (it pushed down what was below it);
/// then it does. Waits for that.
#[track_caller]
fn wait_armed(h: &mut H, label: &str) {
    let disabled = |h: &H| h.get_by_label(label).accesskit_node().is_disabled();
    // Read before the clock: the frame on screen was drawn before `now`.
    let was_disabled = disabled(h);
    let late = h.state().dice().unwrap().late_rolls()[0].clone();
    if late.received_at.elapsed() < Duration::from_millis(500) {
        assert!(was_disabled, "a card that just appeared takes no tap yet");
    }
    let end = Instant::now() + Duration::from_secs(5);
    while disabled(h) {
        assert!(Instant::now() < end, "`{label}` never takes taps");
        std::thread::sleep(Duration::from_millis(50));
        settle(h);
    }
}

/// A JUNK-KEN match between Aki and Ben, with tower dice late after 0.3 s (5 s at a table).
fn late_dice_junk_ken(h: &mut H) {
    h.state_mut()
        .dice_mut()
        .unwrap()
        .set_late_after(Duration::from_millis(300));
    click(h, "JUNK-KEN JUNK-拳");
    type_into(h, "Player 1 name", "Aki");
    type_into(h, "Player 2 name", "Ben");
    click(h, "Player 1 deck: junk-rush");
    click(h, "Player 2 deck: clockwork");
    click(h, "Start");
}

/// The inputs of one kind the match log holds, as JSON.
fn logged(h: &H, kind: &str) -> Vec<serde_json::Value> {
    common::logged_inputs(h.state().session().unwrap(), kind)
}

#[test]
fn a_late_tower_die_never_answers_a_newer_request_and_the_table_decides_with_one_tap() {
    let (sim, _dir, mut h) = window_with_tower(31);
    late_dice_junk_ken(&mut h);
    click(&mut h, "Enter dice by hand");
    click(&mut h, "Aki places ネジ丸 (Screw-Maru) in the battle zone");
    assert!(
        sees_part(&h, "roll the HP die (d6)"),
        "Aki's HP die is asked for"
    );

    // The tower is unplugged; a die thrown into it waits there. The table types Aki's die by
    // hand, and the next request opens: Ben's HP.
    sim.send(Command::DropLink(Duration::from_millis(1_200)))
        .unwrap();
    sim.roll(6, 6).unwrap();
    sim.sync().unwrap();
    type_into(&mut h, "Typed dice", "d6 3");
    click(&mut h, "Enter typed dice");
    assert!(sees(&h, "Aki's HP 体力: 3"));
    click(
        &mut h,
        "Ben places ゼンマイ時計 (Wind-up Clock) in the battle zone",
    );
    assert!(
        sees_part(&h, "roll the HP die (d6)"),
        "Ben's HP die is asked for"
    );

    // The tower comes back with the die thrown before Ben's request: it is shown as late and
    // answers nothing by itself.
    assert!(
        wait_to_see(&mut h, "Late roll: d6 = 6, thrown"),
        "{:?}",
        h.state().dice().unwrap().status()
    );
    assert!(sees_part(&h, "ago while the tower was unplugged"));
    assert!(sees_part(&h, "It does not answer the request on its own"));
    assert!(
        sees_part(&h, "roll the HP die (d6)"),
        "Ben's request is still open"
    );
    assert!(logged(&h, "late-roll").is_empty() && !sees_part(&h, "d6 = 6 ("));
    // Japanese too, then back.
    click(&mut h, "日本語");
    assert!(sees_part(&h, "遅れて届いたロール: d6 = 6"));
    assert!(sees_part(&h, "タワーが外れている間に投げたもの"));
    click(&mut h, "English");

    // One tap: kept as a free roll. The request stays open.
    wait_armed(&mut h, "Keep the late d6 as a free roll");
    click(&mut h, "Keep the late d6 as a free roll");
    settle(&mut h);
    assert!(
        sees_part(
            &h,
            "late free roll: d6 = 6 (tower 7ab1e51de0000042 #1, arrived"
        ),
        "the log says it came late"
    );
    assert!(sees_part(&h, "roll the HP die (d6)"));
    assert!(!sees_part(&h, "Late roll: d6 = 6"), "the card is gone");

    // Another late die, and this time the table uses it for Ben's request.
    sim.send(Command::DropLink(Duration::from_millis(1_000)))
        .unwrap();
    sim.roll(6, 2).unwrap();
    sim.sync().unwrap();
    assert!(wait_to_see(&mut h, "Late roll: d6 = 2, thrown"));
    wait_armed(&mut h, "Use the late d6 for the request");
    click(&mut h, "Use the late d6 for the request");
    settle(&mut h);
    assert!(
        sees(&h, "Ben's HP 体力: 2"),
        "the table's choice answers the request"
    );
    let late = logged(&h, "late-roll");
    assert_eq!(late.len(), 2);
    assert_eq!(late[0]["answer"], "free");
    assert!(late[1]["answer"]["prompt"].is_string(), "{}", late[1]);
    assert!(late[1]["late_ms"].as_u64().unwrap() >= 900, "{}", late[1]);
    // The first late die was thrown before Ben's request existed, by the log's count.
    assert!(late[0]["thrown_at"].as_u64() < late[1]["thrown_at"].as_u64());
}

#[test]
fn the_panel_says_how_long_the_tower_is_unplugged_and_which_dice_a_reset_lost() {
    use firmware_bridge::frame::encode;
    use firmware_bridge::message::{DeviceMessage, Fault, FaultCode};
    let (sim, _dir, mut h) = window_with_tower(32);
    start_match(&mut h);
    sim.send(Command::DropLink(Duration::from_millis(2_500)))
        .unwrap();
    // While it is out, the panel says so, and for how long in whole minutes.
    assert!(wait_to_see(
        &mut h,
        "Tower unplugged for under a minute: waiting for it"
    ));
    // A die thrown into it, then a power blip before the cable is back: gone, and said.
    sim.roll(6, 5).unwrap();
    sim.send(Command::Reset).unwrap();
    sim.sync().unwrap();
    assert!(wait_to_see(
        &mut h,
        "The tower restarted and lost roll #1: throw those dice again"
    ));
    assert!(sees_part(
        &h,
        "dice lost: 7ab1e51de0000042 #1 never arrived"
    ));
    assert_eq!(logged(&h, "dice-lost").len(), 1);
    // A fault in words, never as debug text.
    let boot = sim.status().boot.unwrap();
    let fault = DeviceMessage::Fault(Fault {
        boot,
        code: FaultCode::CockedDie,
        detail: 2,
    });
    sim.send(Command::Raw(encode(&fault).unwrap().as_bytes().to_vec()))
        .unwrap();
    assert!(wait_to_see(
        &mut h,
        "A die landed on its edge or could not be read (die 2): throw it again"
    ));
    assert!(!sees_part(&h, "Fault {") && !sees_part(&h, "BootId"));
    click(&mut h, "日本語");
    assert!(sees_part(
        &h,
        "タワーが再起動し、ロール #1が失われました。そのダイスを振り直してください"
    ));
    assert!(sees_part(&h, "ダイス(2 番)が傾いて止まったか"));
}

#[test]
fn on_the_800x480_screen_a_late_die_is_announced_beside_log_and_dice() {
    // The Pi's touch display: the dice panel is behind "Log & dice".
    let (sim, _dir, mut h) = window_with_tower_sized(33, [800.0, 480.0]);
    late_dice_junk_ken(&mut h);
    // At 800 px the set phase's moves are a tile per card, their moves a tap away.
    click(&mut h, "Aki: Screw-Maru (2 moves)");
    click(&mut h, "Aki places ネジ丸 (Screw-Maru) in the battle zone");
    // The HP die is asked for (in the player's area; its words may be cut short at 800 px).
    let asks_d6 = h
        .state()
        .session()
        .unwrap()
        .game()
        .context()
        .prompts
        .iter()
        .any(|p| matches!(p.kind, cards::core::PromptKind::Die { sides: 6 }));
    assert!(asks_d6, "the HP die is asked for");
    assert!(!sees_part(&h, "late die"), "nothing to announce yet");
    // A die thrown into the unplugged tower arrives late: the table view says so, in words,
    // without opening the panel.
    sim.send(Command::DropLink(Duration::from_millis(1_000)))
        .unwrap();
    sim.roll(6, 4).unwrap();
    sim.sync().unwrap();
    assert!(wait_to_see(&mut h, "1 late die waits for you"));
    assert!(!sees_part(&h, "Late roll: d6 = 4"), "the panel is hidden");
    click(&mut h, "日本語");
    assert!(sees_part(&h, "遅れたダイス 1 個: 選択待ち"));
    click(&mut h, "English");
    // Tapping the words opens the panel with the die's card.
    click(&mut h, "1 late die waits for you");
    assert!(sees_part(&h, "Late roll: d6 = 4, thrown"));
    wait_armed(&mut h, "Use the late d6 for the request");
    click(&mut h, "Use the late d6 for the request");
    settle(&mut h);
    assert_eq!(logged(&h, "late-roll").len(), 1);
    click(&mut h, "Back to the table");
    assert!(sees(&h, "Aki's HP 体力: 4"), "the die answered Aki's HP");
    assert!(!sees_part(&h, "late die waits"), "the announcement is gone");
    // Dice a reset took away are logged and announced with the panel hidden too.
    sim.send(Command::DropLink(Duration::from_millis(1_500)))
        .unwrap();
    sim.roll(6, 5).unwrap();
    sim.send(Command::Reset).unwrap();
    sim.sync().unwrap();
    assert!(wait_to_see(&mut h, "Dice: see the tower's message"));
    assert_eq!(logged(&h, "dice-lost").len(), 1, "logged, the panel hidden");
    click(&mut h, "Log & dice");
    assert!(sees_part(&h, "The tower restarted and lost roll #2"));
}
