//! Dice sources from the outside: typed entry as a property, and the tower adapter end to end
//! against the simulated tower on a pty.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use firmware_bridge::link::{LinkConfig, StartFrom, TowerRef};
use firmware_bridge::message::DeviceId;
use firmware_bridge::sim::{Command, Sim, SimConfig};
use hardware::dice::{DiceError, DiceRoll, RollSource, TowerDice, VirtualDice, parse_entry};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whatever valid roll is written down, in any of the accepted forms, parses back.
    #[test]
    fn written_rolls_parse_back(
        sides in 2u8..=255,
        faces in proptest::collection::vec(any::<prop::sample::Index>(), 1..=8),
        form in 0..4usize,
        upper in any::<bool>(),
    ) {
        let values: Vec<u8> = faces.iter().map(|i| i.index(usize::from(sides)) as u8 + 1).collect();
        let list = values.iter().map(u8::to_string).collect::<Vec<_>>();
        let d = if upper { "D" } else { "d" };
        let (text, known) = match form {
            0 => (format!("{d}{sides} {}", list.join(" ")), None),
            1 => (format!("{}{d}{sides} {}", values.len(), list.join(" ")), None),
            2 => (list.join(", "), Some(sides)),
            _ => (format!("  {d}{sides},{} ", list.join(",")), Some(2)),
        };
        let rolls = parse_entry(&text, known).unwrap();
        prop_assert_eq!(rolls.len(), values.len());
        for (r, v) in rolls.iter().zip(&values) {
            prop_assert_eq!((r.sides, r.value, r.source), (sides, *v, RollSource::Typed));
        }
    }

    /// A value off the die is refused, naming the value and the die.
    #[test]
    fn values_off_the_die_are_refused(sides in 2u8..=254, over in 1u16..=300) {
        let value = u64::from(sides) + u64::from(over);
        prop_assert_eq!(
            parse_entry(&format!("d{sides} {value}"), None),
            Err(DiceError::NotAFace { value, sides })
        );
    }

    /// Any text at all: a result or a reason, never a panic; every accepted roll is a face.
    #[test]
    fn any_text_gives_rolls_or_a_reason(text in "\\PC{0,40}", known in proptest::option::of(any::<u8>())) {
        match parse_entry(&text, known) {
            Ok(rolls) => {
                prop_assert!(!rolls.is_empty());
                for r in rolls {
                    prop_assert!(r.sides >= 2 && r.value >= 1 && r.value <= r.sides);
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn virtual_dice_stay_on_the_die() {
    let mut dice = VirtualDice::seeded(3);
    for sides in 2..=255u8 {
        for r in dice.roll_many(20, sides).unwrap() {
            assert!(r.value >= 1 && r.value <= sides);
            assert_eq!(r.source, RollSource::Virtual);
        }
    }
}

#[test]
fn tower_rolls_arrive_as_dice_rolls_with_their_source() {
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(0xD1CE),
        dice: vec![6, 20],
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(11),
        ..SimConfig::default()
    })
    .unwrap();
    let config = LinkConfig {
        start: StartFrom::Held,
        ping_retry: Duration::from_millis(100),
        ..LinkConfig::path(sim.path())
    };
    let mut tower = TowerDice::start(config).unwrap();
    assert!(sim.wait_for(Duration::from_secs(5), |s| s.pings > 0));
    sim.send(Command::Roll { sides: 6, value: 2 }).unwrap();
    sim.send(Command::Roll {
        sides: 20,
        value: 19,
    })
    .unwrap();
    // One throw of a d6 and a d20.
    sim.throw(&[(6, 5), (20, 1)]).unwrap();

    let mut rolls: Vec<DiceRoll> = Vec::new();
    let end = Instant::now() + Duration::from_secs(5);
    while rolls.len() < 4 {
        rolls.extend(tower.drain());
        assert!(Instant::now() < end, "{:#?}", tower.health());
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(rolls.len(), 4);
    let boot = sim.status().boot.unwrap();
    let source = |seq, throw, die| RollSource::Tower {
        device: TowerRef::Framed {
            id: DeviceId(0xD1CE),
            boot,
        },
        seq,
        throw,
        die,
    };
    assert_eq!(
        rolls,
        vec![
            DiceRoll {
                sides: 6,
                value: 2,
                source: source(1, 1, 0)
            },
            DiceRoll {
                sides: 20,
                value: 19,
                source: source(2, 2, 1)
            },
            DiceRoll {
                sides: 6,
                value: 5,
                source: source(3, 3, 0)
            },
            DiceRoll {
                sides: 20,
                value: 1,
                source: source(4, 3, 1)
            },
        ]
    );
    assert!(tower.health().is_connected());
    tower.link_mut().stop();
}

#[test]
fn tower_events_say_when_a_die_was_thrown_and_which_dice_are_lost() {
    use firmware_bridge::link::{LossCause, Lost};
    use hardware::dice::TowerEvent;
    let sim = Sim::spawn(SimConfig {
        device: DeviceId(0xD1CE),
        heartbeat: Some(Duration::from_millis(50)),
        seed: Some(12),
        ..SimConfig::default()
    })
    .unwrap();
    let config = LinkConfig {
        start: StartFrom::Held,
        ping_retry: Duration::from_millis(100),
        backoff_initial: Duration::from_millis(20),
        backoff_max: Duration::from_millis(100),
        ..LinkConfig::path(sim.path())
    };
    let mut tower = TowerDice::start(config).unwrap();
    assert!(sim.wait_for(Duration::from_secs(5), |s| s.pings > 0));
    let mut events = Vec::new();
    let wait_for = |tower: &mut TowerDice, events: &mut Vec<TowerEvent>, n: usize| {
        let end = Instant::now() + Duration::from_secs(5);
        while events.len() < n {
            events.extend(tower.drain_events());
            assert!(Instant::now() < end, "{events:#?}\n{:#?}", tower.health());
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    sim.roll(6, 2).unwrap();
    wait_for(&mut tower, &mut events, 1);
    // Thrown while the cable is out: it arrives after the replug, as a late, offline die.
    sim.send(Command::DropLink(Duration::from_millis(700)))
        .unwrap();
    sim.roll(6, 3).unwrap();
    wait_for(&mut tower, &mut events, 2);
    // Thrown, then the tower resets before sending it (its frame is damaged): lost by seq.
    sim.send(Command::Inject(firmware_bridge::sim::Injection::BitFlip))
        .unwrap();
    sim.roll(6, 4).unwrap();
    sim.send(Command::Reset).unwrap();
    wait_for(&mut tower, &mut events, 3);
    let [
        TowerEvent::Roll(fresh),
        TowerEvent::Roll(late),
        TowerEvent::Lost(lost),
    ] = &events[..]
    else {
        panic!("{events:#?}")
    };
    assert!(!fresh.offline && fresh.age() < Duration::from_millis(500));
    assert_eq!((late.roll.value, late.offline), (3, true));
    assert!(late.age() >= Duration::from_millis(600), "{:?}", late.age());
    assert_eq!(lost.lost, Lost::Seqs { first: 3, last: 3 });
    assert_eq!(lost.cause, LossCause::Reset);
    tower.link_mut().stop();
}
