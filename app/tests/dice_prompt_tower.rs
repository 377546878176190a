//! The match layer answers dice prompts from the dice tower, over a real pseudo-terminal: a
//! request for 1d6 is fulfilled by the tower, and a second die of the same throw becomes a free
//! roll, not the next request's answer (issue 3). The game is a stand-in that only asks for
//! d6s (Jaken asks for none); the tower is the in-process simulator on a pty, read through the
//! host link, `hardware::dice` and the app's conversion, as the app reads it.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::core::DieSource;
use cards::matches::{EntryEffect, Input, Match};
use cards::testing::{Ask, DiceAsker, asker_match};
use firmware_bridge::link::{Link, LinkConfig, LinkState, StartFrom};
use firmware_bridge::sim::{Sim, SimConfig};
use std::time::Duration;
use tableside::dice::core_roll;

fn put(m: &mut Match<DiceAsker>, input: Input<Ask>) -> EntryEffect {
    let p = m.prepare(&input).unwrap();
    let effect = p.effect().clone();
    assert!(m.commit(p));
    effect
}

#[test]
fn a_tower_throw_answers_one_prompt_and_its_second_die_is_a_free_roll() {
    let sim = Sim::spawn(SimConfig {
        seed: Some(3),
        dice: vec![6, 6],
        ..SimConfig::default()
    })
    .unwrap();
    let mut link = Link::start(LinkConfig {
        start: StartFrom::Held,
        ..LinkConfig::path(sim.path())
    })
    .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut health = link.watch_health();
    rt.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(5),
            health.wait_for(|h| h.state == LinkState::Connected),
        )
        .await
    })
    .expect("the link connects")
    .unwrap();
    let mut next_roll = || -> cards::core::Roll {
        let roll = rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(3), link.recv()).await })
            .expect("a roll arrives")
            .expect("the link runs");
        core_roll(&hardware::dice::DiceRoll::from(&roll))
    };

    // Given two open requests for 1d6 (say, the HP of two characters),
    let mut m = asker_match().unwrap();
    put(
        &mut m,
        Input::Move {
            mv: Ask("hp-a".into()),
            override_reason: None,
        },
    );
    put(
        &mut m,
        Input::Move {
            mv: Ask("hp-b".into()),
            override_reason: None,
        },
    );

    // when the tower reports one throw of two dice,
    sim.throw(&[(6, 4), (6, 2)]).unwrap();
    let (first, second) = (next_roll(), next_roll());
    assert!(matches!(first.source, DieSource::Tower { .. }));
    assert_eq!(first.throw, second.throw, "both dice come from one throw");
    assert_ne!(
        first.source, second.source,
        "each die has its own sequence number"
    );

    // then the first die answers the oldest request and the second is a free roll;
    assert_eq!(
        put(&mut m, Input::Roll { roll: first }),
        EntryEffect::Fulfilled("hp-a".into())
    );
    assert_eq!(
        put(&mut m, Input::Roll { roll: second }),
        EntryEffect::FreeRoll
    );
    assert_eq!(m.state().open, vec!["hp-b".to_owned()]);

    // and the tower's next throw answers the next request.
    sim.throw(&[(6, 5)]).unwrap();
    let third = next_roll();
    assert_eq!(
        put(&mut m, Input::Roll { roll: third }),
        EntryEffect::Fulfilled("hp-b".into())
    );
    assert_eq!(
        m.state().got,
        vec![("hp-a".to_owned(), 4), ("hp-b".to_owned(), 5)]
    );
    link.stop();
}
