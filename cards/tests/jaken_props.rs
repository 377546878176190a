//! Property tests: random Jaken matches replay to the live state, and no input sequence panics.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{DieSource, Roll};
use cards::games::jaken::{Jaken, Move, demo_header};
use cards::matches::{AnyMatch, Input, Match, replay_json};
use proptest::prelude::*;

fn demo() -> (Catalogue, cards::game::MatchHeader) {
    let cat = Catalogue::jaken_demo().unwrap();
    let header = demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"]).unwrap();
    (cat, header)
}

/// Picks the next input from a random number: mostly legal moves, sometimes effects with
/// numbers, BG uses, corrections, undos, overrides of illegal moves and free rolls.
fn pick(m: &Match<Jaken>, r: u32) -> Input<Move> {
    let legal = m.legal_moves();
    let state = m.state();
    let kind = r % 100;
    let arg = r / 100;
    let seat = (arg % 2) as usize;
    let small = (arg % 7) as i32 - 3;
    match kind {
        0..=69 if !legal.is_empty() => Input::Move {
            mv: legal[arg as usize % legal.len()].0.clone(),
            override_reason: None,
        },
        70..=77 => {
            let player = state.pending_effects.first().copied().unwrap_or(seat);
            Input::Move {
                mv: Move::Effect {
                    player,
                    atk: small,
                    def: -small,
                    opp_atk: 0,
                    opp_def: small,
                    sb: small % 2,
                    note: "random".into(),
                },
                override_reason: None,
            }
        }
        78..=81 => Input::Move {
            mv: Move::UseBg {
                player: seat,
                uses: 1,
                atk: 1,
                def: 0,
            },
            override_reason: None,
        },
        82..=85 => {
            let trackers = m.trackers();
            let t = &trackers[arg as usize % trackers.len()];
            let span = (t.max - t.min + 1).max(1);
            Input::Adjust {
                tracker: t.id.clone(),
                value: t.min + (arg as i32).rem_euclid(span),
                reason: "random correction".into(),
            }
        }
        86..=90 => Input::Undo { reason: None },
        91..=95 => {
            // A candidate that may break a rule, applied with an override.
            let cards: Vec<String> = state.players[seat].unplayed.clone();
            let card = cards
                .get(arg as usize % cards.len().max(1))
                .cloned()
                .unwrap_or_default();
            let mv = match arg % 4 {
                0 => Move::Reveal { player: seat, card },
                1 => Move::DeclareBg { player: seat, card },
                2 => Move::FaceDown { player: seat },
                _ => Move::NoEffect { player: seat },
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
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Replaying the stored log (the JSON texts the store keeps) gives exactly the live match.
    #[test]
    fn replaying_the_log_gives_the_live_state(choices in prop::collection::vec(any::<u32>(), 1..400)) {
        let (cat, header) = demo();
        let mut live = Match::<Jaken>::new(header.clone(), &cat).unwrap();
        let mut log: Vec<String> = Vec::new();
        for r in choices {
            let input = pick(&live, r);
            if let Ok(p) = live.prepare(&input) {
                log.push(p.json().unwrap());
                prop_assert!(live.commit(p));
            }
        }
        let replayed = replay_json(header.clone(), &cat, log.iter().map(String::as_str)).unwrap();
        prop_assert_eq!(replayed.state_json(), AnyMatch::state_json(&live));
        prop_assert_eq!(replayed.log(), AnyMatch::log(&live));
        prop_assert_eq!(replayed.outcome(), live.outcome());
        // The typed replay agrees too.
        let inputs: Vec<Input<Move>> = log.iter().map(|j| serde_json::from_str(j).unwrap()).collect();
        let typed = Match::<Jaken>::replay(header, &cat, inputs).unwrap();
        prop_assert_eq!(typed.state(), live.state());
    }

    /// Legal moves alone always finish a match within 10 battles, SB staying 20 in total.
    #[test]
    fn legal_play_reaches_an_outcome(choices in prop::collection::vec(any::<u32>(), 200..300)) {
        let (cat, header) = demo();
        let mut m = Match::<Jaken>::new(header, &cat).unwrap();
        for r in choices {
            let legal = m.legal_moves();
            if legal.is_empty() { break; }
            let mv = legal[r as usize % legal.len()].0.clone();
            let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
            prop_assert!(m.commit(p));
            let s = m.state();
            prop_assert_eq!(s.players[0].sb + s.players[1].sb, 20);
            prop_assert!(s.turn <= 10);
        }
        prop_assert!(m.outcome().is_some(), "no outcome: {:?}", m.state().step);
    }

    /// Arbitrary inputs — any seat, card, number or JSON — are refused or applied, never a panic.
    #[test]
    fn no_input_sequence_panics(
        seq in prop::collection::vec((any::<u8>(), any::<usize>(), any::<i32>(), "[a-zA-Z0-9]{0,6}"), 0..200)
    ) {
        let (cat, header) = demo();
        let mut m = cards::matches::new_match(header, &cat).unwrap();
        for (kind, seat, n, text) in seq {
            let v = match kind % 12 {
                0 => serde_json::json!({"input": "move", "move": {"type": "first-parent", "player": seat}}),
                1 => serde_json::json!({"input": "move", "move": {"type": "reveal", "player": seat % 3, "card": text}}),
                2 => serde_json::json!({"input": "move", "move": {"type": "effect", "player": seat % 3, "atk": n, "def": n, "opp_atk": n, "opp_def": n, "sb": n}, "override_reason": "x"}),
                3 => serde_json::json!({"input": "move", "move": {"type": "use-bg", "player": seat % 3, "uses": n as u8, "atk": n, "def": n}, "override_reason": "x"}),
                4 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 3, "name": text}, "value": n, "reason": "r"}),
                5 => serde_json::json!({"input": "adjust", "tracker": {"name": "turn"}, "value": n, "reason": "r"}),
                6 => serde_json::json!({"input": "undo"}),
                7 => serde_json::json!({"input": "roll", "roll": {"sides": n as u8, "value": seat as u8, "source": {"kind": "typed"}}}),
                8 => serde_json::json!({"input": "move", "move": {"type": text}}),
                9 => serde_json::json!({"input": "move", "move": {"type": "face-down", "player": seat % 3}, "override_reason": "x"}),
                10 => serde_json::json!({"input": "move", "move": {"type": "declare-bg", "player": seat % 3, "card": "JD25"}, "override_reason": "x"}),
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
