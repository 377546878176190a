//! Property tests: random Rockman EXE matches (each optional rule on and off) replay to the live
//! state, and no input sequence panics.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{DieSource, GameId, Roll};
use cards::game::MatchHeader;
use cards::games::rockman::{Move, Rockman, Square, Squares, demo_header};
use cards::matches::{AnyMatch, Input, Match, replay_json};
use proptest::prelude::*;

fn demo(lv: u8) -> (Catalogue, MatchHeader) {
    let cat = Catalogue::builtin(GameId::RockmanExe).unwrap();
    let mut header = demo_header(&cat, ["Aki", "Ben"], ["aozora", "kagaribi"]).unwrap();
    // Each bit switches one optional rule on: Lv1, Lv2 limit, Lv2 evolution, Lv3.
    header.rules = serde_json::json!({
        "lv1_chip_limit": lv & 1 != 0,
        "lv2_virus_limit": lv & 2 != 0,
        "lv2_evolution": lv & 4 != 0,
        "lv3_styles": lv & 8 != 0,
        "battle_end": if lv & 16 != 0 { "pass-is-final" } else { "two-passes" },
    });
    (cat, header)
}

/// Picks the next input from a random number: mostly legal moves, sometimes effects,
/// corrections, undos, overrides of possibly illegal moves and free rolls.
fn pick(m: &Match<Rockman>, r: u32) -> Input<Move> {
    let legal = m.legal_moves();
    let state = m.state();
    let kind = r % 100;
    let arg = r / 100;
    let seat = (arg % 2) as usize;
    let sq = Square::new((arg % 3) as i8, (arg / 3 % 3) as i8);
    match kind {
        0..=79 if !legal.is_empty() => Input::Move {
            mv: legal[arg as usize % legal.len()].0.clone(),
            override_reason: None,
        },
        80..=83 => Input::Move {
            mv: Move::Effect {
                player: seat,
                hp: (arg % 5) as i32 * 10 - 20,
                opp_hp: -((arg % 3) as i32) * 10,
                draw: (arg % 2) as i32,
                discard: Default::default(),
                square: Some(sq),
                opp: arg.is_multiple_of(2),
                damage: (arg % 4) as i32 * 10,
                acted: Some(arg.is_multiple_of(3)),
                to: None,
                destroy: arg.is_multiple_of(7),
                note: "random".into(),
            },
            override_reason: None,
        },
        84..=87 => {
            let trackers = m.trackers();
            let t = &trackers[arg as usize % trackers.len()];
            let span = (t.max - t.min + 1).max(1);
            Input::Adjust {
                tracker: t.id.clone(),
                value: t.min + (arg as i32).rem_euclid(span),
                reason: "random correction".into(),
            }
        }
        88..=91 => Input::Undo { reason: None },
        92..=96 => {
            let cards = &state.players[seat].unplayed;
            let card = cards
                .get(arg as usize % cards.len().max(1))
                .cloned()
                .unwrap_or_default();
            let mv = match arg % 5 {
                0 => Move::Transfer {
                    player: seat,
                    card,
                    square: sq,
                },
                1 => Move::UseChip {
                    player: seat,
                    card,
                    from: Some(sq),
                    target: Squares(vec![sq]),
                    bonus: 0,
                },
                2 => Move::Attack {
                    player: seat,
                    from: sq,
                    target: Squares::default(),
                    bonus: 10,
                },
                3 => Move::MoveCard {
                    player: seat,
                    from: sq,
                    to: Square::new(sq.col, sq.row + 1),
                    discard: None,
                },
                _ => Move::Evolve {
                    player: seat,
                    square: sq,
                    card,
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
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Replaying the stored log (the JSON texts the store keeps) gives exactly the live match,
    /// with each optional rule on and off.
    #[test]
    fn replaying_the_log_gives_the_live_state(
        lv in 0u8..32,
        choices in prop::collection::vec(any::<u32>(), 1..300),
    ) {
        let (cat, header) = demo(lv);
        let mut live = Match::<Rockman>::new(header.clone(), &cat).unwrap();
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
        let typed = Match::<Rockman>::replay(header, &cat, inputs).unwrap();
        prop_assert_eq!(typed.state(), live.state());
    }

    /// Legal moves alone keep the counts consistent: every card is somewhere, the hand never goes
    /// negative, and no number leaves its range.
    #[test]
    fn legal_play_keeps_the_cards_consistent(
        lv in 0u8..32,
        choices in prop::collection::vec(any::<u32>(), 100..400),
    ) {
        let (cat, header) = demo(lv);
        let mut m = Match::<Rockman>::new(header, &cat).unwrap();
        for r in choices {
            let legal = m.legal_moves();
            if legal.is_empty() { break; }
            let mv = legal[r as usize % legal.len()].0.clone();
            let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
            prop_assert!(m.commit(p));
            let s = m.state();
            for p in &s.players {
                prop_assert!(p.hand >= 0 && p.deck >= 0 && p.chips >= 0 && p.hp >= 0);
                let on_area: usize = p.area.iter().flatten().map(|c| 1 + usize::from(c.style.is_some())).sum();
                let total = p.unplayed.len() + p.discard.len() + on_area + usize::from(p.battler.is_some());
                prop_assert_eq!(total, 30);
                prop_assert_eq!(p.unplayed.len() as i32, p.deck + p.hand + p.chips);
            }
            for t in m.trackers() {
                prop_assert!(t.min <= t.value && t.value <= t.max, "{:?}", t);
            }
        }
    }

    /// Arbitrary inputs — any seat, card, square, number or JSON — are refused or applied, never a panic.
    #[test]
    fn no_input_sequence_panics(
        seq in prop::collection::vec((any::<u8>(), any::<usize>(), any::<i32>(), "[a-zA-Z0-9,-]{0,6}"), 0..200)
    ) {
        let (cat, header) = demo(31);
        let mut m = cards::matches::new_match(header, &cat).unwrap();
        for (kind, seat, n, text) in seq {
            let v = match kind % 10 {
                0 => serde_json::json!({"input": "move", "move": {"type": "janken", "winner": seat}}),
                1 => serde_json::json!({"input": "move", "move": {"type": "transfer", "player": seat % 3, "card": text, "square": text}}),
                2 => serde_json::json!({"input": "move", "move": {"type": "effect", "player": seat % 3, "hp": n, "opp_hp": n, "draw": n % 40, "damage": n, "square": text, "to": text}, "override_reason": "x"}),
                3 => serde_json::json!({"input": "move", "move": {"type": "attack", "player": seat % 3, "from": text, "target": text, "bonus": n}, "override_reason": "x"}),
                4 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 3, "name": text}, "value": n, "reason": "r"}),
                5 => serde_json::json!({"input": "adjust", "tracker": {"name": "turn"}, "value": n, "reason": "r"}),
                6 => serde_json::json!({"input": "undo"}),
                7 => serde_json::json!({"input": "move", "move": {"type": "move-card", "player": seat % 3, "from": text, "to": "0,0", "discard": text}, "override_reason": "x"}),
                8 => serde_json::json!({"input": "move", "move": {"type": "exchange", "player": seat % 3, "discard": text}, "override_reason": "x"}),
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
