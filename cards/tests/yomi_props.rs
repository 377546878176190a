//! Property tests: random Yomi matches replay to the live state, legal play always ends (KO or
//! time out), and no input sequence panics.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{DieSource, GameId, Roll};
use cards::games::yomi::{Move, Step, Yomi, demo_header};
use cards::matches::{AnyMatch, Input, Match, replay_json};
use proptest::prelude::*;

fn demo(rules: serde_json::Value) -> (Catalogue, cards::game::MatchHeader) {
    let cat = Catalogue::builtin(GameId::Yomi).unwrap();
    let mut header = demo_header(&cat, ["Aki", "Ben"], ["akane", "gou"]).unwrap();
    header.rules = rules;
    (cat, header)
}

/// Picks the next input from a random number: mostly legal moves, sometimes ability effects,
/// corrections, undos, overrides of illegal moves and dice (always free rolls in Yomi).
fn pick(m: &Match<Yomi>, r: u32) -> Input<Move> {
    let legal = m.legal_moves();
    let state = m.state();
    let kind = r % 100;
    let arg = r / 100;
    let seat = (arg % 2) as usize;
    let small = (arg % 7) as i32 - 3;
    match kind {
        0..=74 if !legal.is_empty() => Input::Move {
            mv: legal[arg as usize % legal.len()].0.clone(),
            override_reason: None,
        },
        75..=80 => Input::Move {
            mv: Move::Effect {
                player: seat,
                hp: small,
                opp_hp: -small.abs(),
                draw: (arg % 2) as i32,
                speed: 0,
                combo_damage: 0,
                note: "random".into(),
            },
            override_reason: None,
        },
        81..=85 => {
            let trackers = m.trackers();
            let t = &trackers[arg as usize % trackers.len()];
            let span = (t.max - t.min + 1).max(1);
            Input::Adjust {
                tracker: t.id.clone(),
                value: t.min + (arg as i32).rem_euclid(span),
                reason: "random correction".into(),
            }
        }
        86..=89 => Input::Undo { reason: None },
        90..=95 => {
            // A move that may break a rule, applied with an override.
            let cards = &state.players[seat].unseen;
            let card = cards
                .get(arg as usize % cards.len().max(1))
                .cloned()
                .unwrap_or_default();
            let mv = match arg % 5 {
                0 => Move::PowerUp {
                    player: seat,
                    cards: vec![card],
                },
                1 => Move::Discard {
                    player: seat,
                    cards: vec![card],
                },
                2 => Move::Search {
                    player: seat,
                    card,
                    from: Default::default(),
                },
                3 => Move::Proceed {},
                _ => Move::Combo {
                    player: seat,
                    card,
                    end: cards::catalogue::yomi::End::Bottom,
                },
            };
            Input::Move {
                mv,
                override_reason: Some("players agreed".into()),
            }
        }
        _ => Input::Roll {
            roll: Roll {
                sides: 6,
                value: (arg % 6) as u8 + 1,
                source: DieSource::Virtual,
                seat: None,
                throw: None,
            },
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Replaying the stored log (the JSON texts the store keeps) gives exactly the live match.
    #[test]
    fn replaying_the_log_gives_the_live_state(choices in prop::collection::vec(any::<u32>(), 1..400)) {
        let (cat, header) = demo(serde_json::Value::Null);
        let mut live = Match::<Yomi>::new(header.clone(), &cat).unwrap();
        let mut log: Vec<String> = Vec::new();
        for r in choices {
            let input = pick(&live, r);
            if let Ok(p) = live.prepare(&input) {
                log.push(p.json().unwrap());
                prop_assert!(live.commit(p));
            }
            let _ = (live.context(), live.trackers(), live.outcome());
        }
        let replayed = replay_json(header.clone(), &cat, log.iter().map(String::as_str)).unwrap();
        prop_assert_eq!(replayed.state_json(), AnyMatch::state_json(&live));
        prop_assert_eq!(replayed.log(), AnyMatch::log(&live));
        prop_assert_eq!(replayed.outcome(), live.outcome());
        let inputs: Vec<Input<Move>> = log.iter().map(|j| serde_json::from_str(j).unwrap()).collect();
        let typed = Match::<Yomi>::replay(header, &cat, inputs).unwrap();
        prop_assert_eq!(typed.state(), live.state());
    }

    /// Legal moves alone always finish a match: a KO or a time out, with HP never above the cap.
    #[test]
    fn legal_play_reaches_an_outcome(
        choices in prop::collection::vec(any::<u32>(), 3000..3001),
        always in any::<bool>(),
    ) {
        let rules = if always { serde_json::json!({"ability_windows": "always"}) } else { serde_json::Value::Null };
        let (cat, header) = demo(rules);
        let mut m = Match::<Yomi>::new(header, &cat).unwrap();
        for r in choices {
            let legal = m.legal_moves();
            if legal.is_empty() { break; }
            let mv = legal[r as usize % legal.len()].0.clone();
            let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
            prop_assert!(m.commit(p));
            let s = m.state();
            for p in &s.players {
                prop_assert!(p.hp <= p.max_hp);
                prop_assert!(p.hand >= 0 && p.deck >= 0);
                prop_assert_eq!(p.unseen.len() as i32, p.hand + p.deck
                    + i32::from(matches!(p.play, cards::games::yomi::Play::FaceDown))
                    + i32::from(p.escape == cards::games::yomi::Escape::FaceDown));
            }
        }
        prop_assert!(m.outcome().is_some(), "no outcome at {:?}, turn {}", m.state().step, m.state().turn);
        prop_assert_eq!(m.state().step, Step::Over);
    }

    /// Arbitrary inputs — any seat, card, number or JSON — are refused or applied, never a panic.
    #[test]
    fn no_input_sequence_panics(
        seq in prop::collection::vec((any::<u8>(), any::<usize>(), any::<i32>(), "[a-zA-Z0-9-]{0,6}"), 0..200)
    ) {
        let (cat, header) = demo(serde_json::Value::Null);
        let mut m = cards::matches::new_match(header, &cat).unwrap();
        for (kind, seat, n, text) in seq {
            let card = if n % 2 == 0 { format!("YO-A{:02}", n.rem_euclid(55)) } else { text.clone() };
            let v = match kind % 12 {
                0 => serde_json::json!({"input": "move", "move": {"type": "face-down", "player": seat % 3}}),
                1 => serde_json::json!({"input": "move", "move": {"type": "reveal", "player": seat % 3, "card": card, "end": "bottom"}}),
                2 => serde_json::json!({"input": "move", "move": {"type": "effect", "player": seat % 3, "hp": n, "opp_hp": n, "draw": n, "speed": n, "combo_damage": n}, "override_reason": "x"}),
                3 => serde_json::json!({"input": "move", "move": {"type": "power-up", "player": seat % 3, "cards": format!("{card},{card}")}, "override_reason": "x"}),
                4 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 3, "name": text}, "value": n, "reason": "r"}),
                5 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 2, "name": "hand"}, "value": n.rem_euclid(60), "reason": "r"}),
                6 => serde_json::json!({"input": "undo"}),
                7 => serde_json::json!({"input": "roll", "roll": {"sides": n as u8, "value": seat as u8, "source": {"kind": "typed"}}}),
                8 => serde_json::json!({"input": "move", "move": {"type": text}}),
                9 => serde_json::json!({"input": "move", "move": {"type": "combo", "player": seat % 3, "card": card}, "override_reason": "x"}),
                10 => serde_json::json!({"input": "move", "move": {"type": "search", "player": seat % 3, "card": card, "from": "discard"}, "override_reason": "x"}),
                _ => {
                    let actions = m.actions();
                    if actions.is_empty() { continue; }
                    actions[seat % actions.len()].input.clone()
                }
            };
            if let Ok(p) = m.prepare_json(&v) {
                m.commit_json(&p.json).unwrap();
            }
            let _ = (m.context(), m.trackers(), m.outcome(), m.log());
        }
    }
}
