//! The dice tower reaches the match log: the in-process simulated tower
//! (`firmware_bridge::sim`) on a real pseudo-terminal, the app's [`DiceService`] connected to
//! it by path, and a stored [`Session`]. Each roll the tower reports is logged once, as a tower
//! roll with the tower's device id and sequence number, even when the tower repeats a frame;
//! the dice of one tower throw are logged with one shared throw id. Dice a reset took away are
//! logged as lost, by sequence number; a die that arrives late, with no request to take it, is
//! logged as a late free roll; a printing tower's lines are checked, and a value off the die is
//! refused with its reason.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{DieSource, Roll};
use cards::games::jaken::demo_header;
use firmware_bridge::message::DeviceId;
use firmware_bridge::sim::{Command, Injection, Sim, SimConfig};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tableside::dice::{DiceService, TowerChoice, TowerTone, roll_input};
use tableside::session::Session;
use tableside::store::Store;
use tableside::ui::i18n::Lang;

const DEVICE: u64 = 0x7AB1_E51D_E000_0042;

fn session(dir: &std::path::Path) -> Session {
    let store = Store::open(&dir.join("tableside.sqlite3")).unwrap();
    let cat = Catalogue::jaken_demo().unwrap();
    let header = demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"]).unwrap();
    Session::start(store, header).unwrap()
}

/// What the window does once per frame: take what arrived, log each roll, then show the
/// match (the dice panel tells the service about it).
fn pump(dice: &mut DiceService, session: &mut Session) -> usize {
    let polled = dice.poll();
    for roll in &polled.rolls {
        session.submit(&roll_input(roll)).unwrap();
    }
    dice.observe(session.game());
    polled.rolls.len()
}

mod common;
use common::logged_inputs as stored;

fn notices(dice: &DiceService) -> Vec<String> {
    dice.notices(Lang::En, Instant::now())
        .into_iter()
        .map(|n| n.text)
        .collect()
}

/// Pumps until `done` or 10 s.
fn pump_until(
    dice: &mut DiceService,
    session: &mut Session,
    done: impl Fn(&DiceService, &Session) -> bool,
) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        pump(dice, session);
        if done(dice, session) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// The rolls in the stored log (not the in-memory match: what survives a restart).
fn stored_rolls(session: &Session) -> Vec<Roll> {
    session
        .store()
        .entries(session.id())
        .unwrap()
        .iter()
        .filter_map(|e| {
            let v: serde_json::Value = serde_json::from_str(&e.input_json).unwrap();
            (v["input"] == "roll").then(|| serde_json::from_value(v["roll"].clone()).unwrap())
        })
        .collect()
}

#[test]
fn a_tower_roll_reaches_the_log_once_with_its_device_and_seq() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(DEVICE),
        dice: vec![6, 6, 20],
        // No heartbeats: the frame after the injection is the roll itself.
        heartbeat: None,
        seed: Some(5),
        ..SimConfig::default()
    })
    .unwrap();

    // The link thread wakes the "window" whenever it sends.
    let wakes = Arc::new(AtomicU64::new(0));
    let counter = wakes.clone();
    let mut dice = DiceService::start(
        Some(TowerChoice::Path(sim.path().to_owned())),
        Some(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        })),
    );
    assert!(
        pump_until(&mut dice, &mut session, |d, _| d.tower_connected()),
        "the service connects to the simulated tower: {:?}",
        dice.status()
    );
    let status = dice.status();
    assert_eq!(status.tone, TowerTone::Good);
    assert_eq!(status.headline, "Connected to tower 7ab1e51de0000042");
    assert!(wakes.load(Ordering::Relaxed) > 0, "the link woke the UI");

    // The tower repeats the first roll's frame: still one roll.
    sim.send(Command::Inject(Injection::Duplicate)).unwrap();
    sim.roll(6, 4).unwrap();
    sim.roll(20, 17).unwrap();
    sim.sync().unwrap();
    assert!(
        pump_until(&mut dice, &mut session, |_, s| stored_rolls(s).len() >= 2),
        "both rolls reach the log"
    );
    // Nothing more may arrive.
    let extra_wait = Instant::now() + Duration::from_millis(600);
    while Instant::now() < extra_wait {
        assert_eq!(
            pump(&mut dice, &mut session),
            0,
            "no phantom or repeated roll"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let seqs: Vec<u64> = stored_rolls(&session)
        .iter()
        .map(|r| match &r.source {
            DieSource::Tower { seq, .. } => *seq,
            other => panic!("not a tower roll: {other:?}"),
        })
        .collect();
    assert_eq!(seqs.len(), 2);
    let first = seqs[0];
    // A tower throw id: the boot in the high half, the throw's first seq in the low half.
    let boot = u64::from(sim.status().boot.expect("the sim has booted").0) << 32;
    assert_eq!(
        stored_rolls(&session),
        [
            Roll {
                sides: 6,
                value: 4,
                source: DieSource::Tower {
                    device: "7ab1e51de0000042".into(),
                    seq: first
                },
                seat: None,
                // Each die thrown alone: its throw is its own sequence number.
                throw: Some(boot | first),
            },
            Roll {
                sides: 20,
                value: 17,
                source: DieSource::Tower {
                    device: "7ab1e51de0000042".into(),
                    seq: first + 1
                },
                seat: None,
                throw: Some(boot | (first + 1)),
            },
        ]
    );
    assert_eq!(sim.status().last_seq, u32::try_from(first + 1).unwrap());
    assert!(
        dice.health().duplicates >= 1,
        "the repeated frame was seen and dropped"
    );
    assert_eq!(dice.rolls_received(), 2);

    // The log line says where the die came from (Jaken asks for no dice: a free roll).
    let log = session.game().log();
    let lines: Vec<&str> = log.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(
        lines,
        [
            format!("free roll: d6 = 4 (tower 7ab1e51de0000042 #{first})"),
            format!(
                "free roll: d20 = 17 (tower 7ab1e51de0000042 #{})",
                first + 1
            ),
        ]
    );
    let status = dice.status();
    assert!(
        status
            .details
            .iter()
            .any(|d| d.contains("2 roll(s) received")),
        "{status:?}"
    );

    // One throw of two d6: two rolls with their own sequence numbers and one throw id (the
    // first die's sequence number), in the stored input JSON itself.
    sim.throw(&[(6, 3), (6, 5)]).unwrap();
    sim.sync().unwrap();
    assert!(
        pump_until(&mut dice, &mut session, |_, s| stored_rolls(s).len() >= 4),
        "both dice of the throw reach the log"
    );
    let stored: Vec<serde_json::Value> = session
        .store()
        .entries(session.id())
        .unwrap()
        .iter()
        .map(|e| serde_json::from_str(&e.input_json).unwrap())
        .filter(|v: &serde_json::Value| v["input"] == "roll")
        .collect();
    assert_eq!(stored.len(), 4);
    let throw = first + 2;
    for (i, (seq, value)) in [(throw, 3), (throw + 1, 5)].into_iter().enumerate() {
        let roll = &stored[2 + i]["roll"];
        assert_eq!(
            *roll,
            serde_json::json!({
                "sides": 6,
                "value": value,
                "source": {"kind": "tower", "device": "7ab1e51de0000042", "seq": seq},
                "throw": boot | throw,
            }),
            "die {i} of the throw"
        );
    }
    assert_eq!(stored[2]["roll"]["throw"], stored[3]["roll"]["throw"]);
    assert_ne!(
        stored[2]["roll"]["source"]["seq"],
        stored[3]["roll"]["source"]["seq"]
    );
    assert_eq!(dice.rolls_received(), 4);
    sim.shutdown();
}

#[test]
fn dice_a_reset_took_away_are_logged_as_lost_by_sequence_number() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(DEVICE),
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(6),
        ..SimConfig::default()
    })
    .unwrap();
    let mut dice = DiceService::start(Some(TowerChoice::Path(sim.path().to_owned())), None);
    assert!(pump_until(&mut dice, &mut session, |d, _| d.tower_connected()));
    sim.roll(6, 4).unwrap();
    assert!(pump_until(&mut dice, &mut session, |_, s| stored_rolls(s)
        .len()
        == 1));
    // The cable is out; a die is thrown into the tower; its power blips before the cable is
    // back: the die is gone, and the app says so.
    sim.send(Command::DropLink(Duration::from_millis(600)))
        .unwrap();
    sim.roll(6, 5).unwrap();
    sim.send(Command::Reset).unwrap();
    sim.sync().unwrap();
    assert!(
        pump_until(&mut dice, &mut session, |_, s| !stored(s, "dice-lost")
            .is_empty()),
        "{:#?}",
        dice.health()
    );
    let boot = stored_rolls(&session)[0].throw.unwrap() >> 32;
    assert_eq!(
        stored(&session, "dice-lost"),
        [
            serde_json::json!({"input": "dice-lost", "device": "7ab1e51de0000042", "first": 2,
            "last": 2, "reason": format!("the tower restarted (boot {boot:08x})")})
        ]
    );
    let log = session.game().log();
    assert_eq!(
        log.last().unwrap().text,
        format!(
            "dice lost: 7ab1e51de0000042 #2 never arrived (the tower restarted (boot {boot:08x})): throw again"
        )
    );
    assert_eq!(
        notices(&dice),
        ["The tower restarted and lost roll #2: throw those dice again"]
    );
    assert!(
        dice.status()
            .details
            .iter()
            .any(|d| d == "the tower restarted 1 time(s)"),
        "{:?}",
        dice.status()
    );
    // The new boot's dice come through as before.
    sim.roll(6, 6).unwrap();
    assert!(pump_until(&mut dice, &mut session, |_, s| stored_rolls(s)
        .len()
        == 2));
    sim.shutdown();
}

#[test]
fn a_late_die_no_request_could_take_is_logged_as_a_late_free_roll() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(DEVICE),
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(7),
        ..SimConfig::default()
    })
    .unwrap();
    let mut dice = DiceService::start(Some(TowerChoice::Path(sim.path().to_owned())), None);
    dice.set_late_after(Duration::from_millis(300));
    assert!(pump_until(&mut dice, &mut session, |d, _| d.tower_connected()));
    sim.send(Command::DropLink(Duration::from_millis(700)))
        .unwrap();
    sim.roll(6, 6).unwrap();
    assert!(pump_until(&mut dice, &mut session, |_, s| !stored(
        s,
        "late-roll"
    )
    .is_empty()));
    let late = &stored(&session, "late-roll")[0];
    assert_eq!(late["answer"], "free");
    assert_eq!(late["thrown_at"], 0, "thrown before the first entry");
    assert!(late["late_ms"].as_u64().unwrap() >= 600, "{late}");
    let text = &session.game().log()[0].text;
    assert!(
        text.starts_with("late free roll: d6 = 6 (tower 7ab1e51de0000042 #1, arrived 0."),
        "{text}"
    );
    let said = notices(&dice);
    assert!(
        said[0].starts_with("Late roll: d6 = 6, thrown")
            && said[0].ends_with("ago while the tower was unplugged: logged as a free roll"),
        "{said:?}"
    );
    assert!(stored_rolls(&session).is_empty(), "not an ordinary roll");
    sim.shutdown();
}

#[test]
fn a_printing_tower_s_checked_lines_are_logged_and_a_value_off_the_die_is_refused_with_why() {
    use firmware_bridge::link::WireMode;
    use firmware_bridge::sim::LineFormat;
    use firmware_bridge::text::LINE_CRC;
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    let sim = Sim::spawn(SimConfig {
        wire: WireMode::Text,
        heartbeat: None,
        seed: Some(8),
        line_format: LineFormat {
            counter: false,
            check: true,
        },
        ..SimConfig::default()
    })
    .unwrap();
    // As `--tower PATH --line` gives it.
    let cli = <tableside::cli::Cli as clap::Parser>::try_parse_from([
        "tableside",
        "--tower",
        sim.path().to_str().unwrap(),
        "--line",
    ])
    .unwrap();
    let choice = cli
        .tower_choice(&tableside::config::Config::default())
        .unwrap();
    assert_eq!(choice, Some(TowerChoice::Line(sim.path().to_owned())));
    let mut dice = DiceService::start(choice, None);
    assert!(pump_until(&mut dice, &mut session, |d, _| d.tower_connected()));
    assert_eq!(
        dice.status().headline,
        "Connected to a printing tower (line mode)"
    );
    sim.roll(6, 4).unwrap();
    assert!(pump_until(&mut dice, &mut session, |_, s| stored_rolls(s)
        .len()
        == 1));
    // A tower that misreads a die prints a 7 on a d6, with a good check: refused, with why.
    let body = "ROLL d6 7";
    let line = format!("{body} *{:02X}\n", LINE_CRC.checksum(body.as_bytes()));
    sim.send(Command::Raw(line.into_bytes())).unwrap();
    assert!(pump_until(&mut dice, &mut session, |_, s| !stored(
        s,
        "dice-lost"
    )
    .is_empty()));
    assert_eq!(
        stored(&session, "dice-lost")[0]["reason"],
        "a line from the printing tower was refused: value 7 is not a face of a d6"
    );
    assert_eq!(
        notices(&dice),
        ["A line from the tower was refused (7 is not a face of a d6): throw that die again"]
    );
    let ja: Vec<String> = dice
        .notices(Lang::Ja, Instant::now())
        .into_iter()
        .map(|n| n.text)
        .collect();
    assert_eq!(
        ja,
        [
            "タワーからの行を受け付けませんでした(7 は d6 の目ではありません)。そのダイスを振り直してください"
        ]
    );
    assert_eq!(
        stored_rolls(&session)[0].source,
        DieSource::Tower {
            device: "text".into(),
            seq: 1
        }
    );
    sim.shutdown();
}

#[test]
fn a_tower_history_that_overflows_while_unplugged_is_a_loss_logged_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = session(dir.path());
    // A tower holding only 4 unacknowledged rolls (firmware holds 32).
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(DEVICE),
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(9),
        history: 4,
        ..SimConfig::default()
    })
    .unwrap();
    let mut dice = DiceService::start(Some(TowerChoice::Path(sim.path().to_owned())), None);
    dice.set_late_after(Duration::from_secs(60));
    assert!(pump_until(&mut dice, &mut session, |d, _| d.tower_connected()));
    sim.send(Command::DropLink(Duration::from_millis(500)))
        .unwrap();
    for v in 1..=6 {
        sim.roll(6, v).unwrap();
    }
    sim.sync().unwrap();
    assert!(
        pump_until(&mut dice, &mut session, |_, s| stored_rolls(s).len() == 4
            && !stored(s, "dice-lost").is_empty()),
        "{:#?}",
        dice.health()
    );
    // The four it still held arrive; the two it dropped are named.
    let seqs: Vec<u64> = stored_rolls(&session)
        .iter()
        .map(|r| match r.source {
            DieSource::Tower { seq, .. } => seq,
            _ => 0,
        })
        .collect();
    assert_eq!(seqs, [3, 4, 5, 6]);
    let lost = &stored(&session, "dice-lost")[0];
    assert_eq!(
        (lost["first"].as_u64(), lost["last"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(dice.health().rolls_lost, 2);
    assert_eq!(
        notices(&dice),
        ["The tower no longer had rolls #1 to #2: throw those dice again"]
    );
    sim.shutdown();
}
