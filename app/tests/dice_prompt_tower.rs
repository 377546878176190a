//! The match layer answers dice prompts from the dice tower, over a real pseudo-terminal: a
//! request for 1d6 is fulfilled by the tower, and a second die of the same throw becomes a free
//! roll, not the next request's answer (issue 3). The game is a stand-in that only asks for
//! d6s (Jaken asks for none); the tower is the in-process simulator on a pty, read through the
//! host link, `hardware::dice` and the app's conversion, as the app reads it.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::{Catalogue, SetInfo};
use cards::core::{
    Decision, DieSource, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind,
    Roll, Tracker, TrackerId,
};
use cards::game::{Game, MatchHeader, PlayerConfig, SetupError};
use cards::matches::{EntryEffect, Input, Match};
use firmware_bridge::link::{Link, LinkConfig, LinkState, StartFrom};
use firmware_bridge::sim::{Sim, SimConfig};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tableside::dice::core_roll;

/// Each `Ask` opens a request for 1d6; a die answering it is recorded. (It borrows the Space
/// Junk id only because the match layer needs one.)
struct Asker;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct St {
    open: Vec<String>,
    got: Vec<(String, u8)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Ask(String);

#[derive(Clone, Debug, PartialEq)]
enum Ev {
    Asked(String),
    Got(String, u8),
}

impl Game for Asker {
    const ID: GameId = GameId::SpaceJunk;
    type State = St;
    type Move = Ask;
    type Event = Ev;
    type Rules = ();

    fn setup(_: &[PlayerConfig], _: &(), _: &Catalogue) -> Result<St, SetupError> {
        Ok(St::default())
    }
    fn decide(_: &St, mv: &Ask) -> Result<Decision<Ev>, Impossible> {
        Ok(Decision::legal(vec![Ev::Asked(mv.0.clone())]))
    }
    fn apply(state: &mut St, event: &Ev) {
        match event {
            Ev::Asked(id) => state.open.push(id.clone()),
            Ev::Got(id, v) => {
                state.open.retain(|o| o != id);
                state.got.push((id.clone(), *v));
            }
        }
    }
    fn context(state: &St) -> MatchCtx {
        MatchCtx {
            players: vec!["A".into(), "B".into()],
            turn: 1,
            phase: PhaseView {
                phases: vec!["play".into()],
                current: 0,
                step: String::new(),
                next: String::new(),
            },
            active: None,
            leader: None,
            prompts: state
                .open
                .iter()
                .map(|id| Prompt {
                    id: id.clone(),
                    player: None,
                    kind: PromptKind::Die { sides: 6 },
                    text: format!("roll 1d6 for {id}"),
                })
                .collect(),
        }
    }
    fn outcome(_: &St) -> Option<Outcome> {
        None
    }
    fn trackers(_: &St) -> Vec<Tracker> {
        Vec::new()
    }
    fn adjust(_: &St, _: &TrackerId, _: i32) -> Result<Vec<Ev>, Impossible> {
        Err(Impossible::new("nothing to adjust"))
    }
    fn fulfil(_: &St, prompt: &Prompt, roll: &Roll) -> Result<Vec<Ev>, Impossible> {
        Ok(vec![Ev::Got(prompt.id.clone(), roll.value)])
    }
    fn candidate_moves(_: &St) -> Vec<Ask> {
        Vec::new()
    }
    fn describe(_: &St, mv: &Ask) -> String {
        format!("ask {}", mv.0)
    }
}

fn asker_match() -> Match<Asker> {
    let cat = Catalogue {
        game: GameId::SpaceJunk,
        set: SetInfo {
            id: "none".into(),
            name_en: String::new(),
            name_ja: String::new(),
            demo: true,
            note: String::new(),
        },
        cards: Vec::new(),
        decks: Vec::new(),
    };
    let header = MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: "none".into(),
        players: Vec::new(),
        rules: serde_json::Value::Null,
    };
    Match::new(header, &cat).unwrap()
}

fn put(m: &mut Match<Asker>, input: Input<Ask>) -> EntryEffect {
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
    let mut next_roll = || -> Roll {
        let roll = rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(3), link.recv()).await })
            .expect("a roll arrives")
            .expect("the link runs");
        core_roll(&hardware::dice::DiceRoll::from(&roll))
    };

    // Given two open requests for 1d6 (say, the HP of two characters),
    let mut m = asker_match();
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
