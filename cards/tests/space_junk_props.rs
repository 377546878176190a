//! Property tests: random Space Junk matches of 2 to 6 players replay to the live state, legal
//! play always reaches the final count, and no input sequence panics.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::{DieSource, GameId, Roll};
use cards::game::MatchHeader;
use cards::games::space_junk::{Move, SpaceJunk, Step, demo_header};
use cards::matches::{AnyMatch, Input, Match, replay_json};
use proptest::prelude::*;

const NAMES: [&str; 6] = ["Aki", "Ben", "Cho", "Dai", "Emi", "Fay"];
const CHARACTERS: [&str; 6] = ["SJ01", "SJ02", "SJ03", "SJ04", "SJ05", "SJ06"];

fn demo(players: usize, limits: bool) -> (Catalogue, MatchHeader) {
    let cat = Catalogue::builtin(GameId::SpaceJunk).unwrap();
    let mut header = demo_header(&cat, &NAMES[..players], &CHARACTERS[..players]).unwrap();
    if limits {
        header.rules = serde_json::json!({"search_limit_inner": 2, "search_limit_middle": 3, "search_limit_outer": 4, "ring_length_inner": 8});
    }
    (cat, header)
}

fn die(value: u8) -> Input<Move> {
    Input::Roll {
        roll: Roll {
            sides: 6,
            value,
            source: DieSource::Virtual,
            seat: None,
            throw: None,
        },
    }
}

/// Picks the next input from a random number: a die when one is asked for, mostly legal moves,
/// sometimes effects, corrections, undos, overrides of illegal moves and free rolls.
fn pick(m: &Match<SpaceJunk>, r: u32) -> Input<Move> {
    let state = m.state();
    let n = state.players.len();
    let kind = r % 100;
    let arg = r / 100;
    let seat = arg as usize % n;
    if !m.context().prompts.is_empty()
        && m.context()
            .prompts
            .iter()
            .any(|p| matches!(p.kind, cards::core::PromptKind::Die { .. }))
        && kind < 80
    {
        return die((arg % 6) as u8 + 1);
    }
    let legal = m.legal_moves();
    match kind {
        0..=79 if !legal.is_empty() => Input::Move {
            mv: legal[arg as usize % legal.len()].0.clone(),
            override_reason: None,
        },
        80..=83 => Input::Move {
            mv: Move::Effect {
                player: seat,
                fame: (arg % 5) as i32 - 2,
                movement: (arg % 3) as i32 - 1,
                attack: 0,
                search: (arg % 3) as i32 - 1,
                spaces: arg % 4,
                repair: state.damaged.first().cloned(),
                ability: arg.is_multiple_of(2),
                note: "random".into(),
            },
            override_reason: Some("players agreed".into()),
        },
        84..=87 => {
            let trackers = m.trackers();
            let t = &trackers[arg as usize % trackers.len()];
            let span = (t.max - t.min + 1).clamp(1, 50);
            Input::Adjust {
                tracker: t.id.clone(),
                value: t.min + (arg as i32).rem_euclid(span),
                reason: "random correction".into(),
            }
        }
        88..=91 => Input::Undo { reason: None },
        92..=96 => {
            // A move that may break a rule, applied with an override.
            let card = state
                .deck
                .get(arg as usize % state.deck.len().max(1))
                .cloned()
                .unwrap_or_default();
            let own = state.own_junk(seat);
            let mine = own
                .get(arg as usize % own.len().max(1))
                .cloned()
                .unwrap_or_default();
            let mv = match arg % 6 {
                0 => Move::Boost {
                    player: seat,
                    card: mine,
                },
                1 => Move::Draw {
                    player: seat,
                    cards: vec![card],
                },
                2 => Move::Equip {
                    player: seat,
                    card: mine,
                    space: cards::games::space_junk::Space::Slot((arg % 6) as u8 + 1),
                },
                3 => Move::MoveShip {
                    player: seat,
                    ring: (arg % 3) as u8 + 1,
                    spaces: Some(arg % 9),
                },
                4 => Move::Ram {
                    player: seat,
                    target: (seat + 1) % n,
                },
                _ => Move::TakeJunk {
                    player: seat,
                    card: mine,
                },
            };
            Input::Move {
                mv,
                override_reason: Some("players agreed".into()),
            }
        }
        _ => die((arg % 6) as u8 + 1),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Replaying the stored log (the JSON texts the store keeps) gives exactly the live match.
    #[test]
    fn replaying_the_log_gives_the_live_state(
        players in 2usize..=6,
        limits in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..600),
    ) {
        let (cat, header) = demo(players, limits);
        let mut live = Match::<SpaceJunk>::new(header.clone(), &cat).unwrap();
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
        let typed = Match::<SpaceJunk>::replay(header, &cat, inputs).unwrap();
        prop_assert_eq!(typed.state(), live.state());
    }

    /// Legal moves and random dice alone always reach the final count after round 6, with every
    /// junk card in exactly one place and the turn order clockwise from the first player.
    #[test]
    fn legal_play_reaches_the_final_count(
        players in 2usize..=6,
        limits in any::<bool>(),
        seed in prop::collection::vec(any::<u32>(), 64),
    ) {
        let (cat, header) = demo(players, limits);
        let mut m = Match::<SpaceJunk>::new(header, &cat).unwrap();
        let total = m.state().deck.len();
        for i in 0..20_000usize {
            if m.outcome().is_some() { break; }
            let r = seed[i % seed.len()].wrapping_add(i as u32).wrapping_mul(2_654_435_761);
            let input = if m.context().prompts.iter().any(|p| matches!(p.kind, cards::core::PromptKind::Die { .. })) {
                die((r >> 7) as u8 % 6 + 1)
            } else {
                let legal = m.legal_moves();
                prop_assert!(!legal.is_empty(), "stuck at {:?}", m.state().step);
                Input::Move { mv: legal[(r >> 3) as usize % legal.len()].0.clone(), override_reason: None }
            };
            let p = m.prepare(&input).unwrap();
            prop_assert!(m.commit(p));
            let s = m.state();
            let placed = s.deck.len() + s.discard.len() + (0..players).map(|p| s.own_junk(p).len()).sum::<usize>();
            prop_assert_eq!(placed, total);
            prop_assert!(s.round <= 6);
        }
        prop_assert_eq!(m.state().step, Step::Over);
        prop_assert!(m.outcome().is_some());
    }

    /// Arbitrary inputs — any seat, card, number or JSON — are refused or applied, never a panic.
    #[test]
    fn no_input_sequence_panics(
        players in 2usize..=6,
        seq in prop::collection::vec((any::<u8>(), any::<usize>(), any::<i32>(), "[a-zA-Z0-9,]{0,8}"), 0..200)
    ) {
        let (cat, header) = demo(players, false);
        let mut m = cards::matches::new_match(header, &cat).unwrap();
        for (kind, seat, n, text) in seq {
            let v = match kind % 12 {
                0 => serde_json::json!({"input": "move", "move": {"type": "first-player", "player": seat % 8}}),
                1 => serde_json::json!({"input": "move", "move": {"type": "draw", "player": seat % 8, "cards": text}, "override_reason": "x"}),
                2 => serde_json::json!({"input": "move", "move": {"type": "effect", "player": seat % 8, "fame": n, "move": n, "spaces": n, "repair": text, "ability": true}, "override_reason": "x"}),
                3 => serde_json::json!({"input": "move", "move": {"type": "move-ship", "player": seat % 8, "ring": n % 5, "spaces": n}, "override_reason": "x"}),
                4 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 8, "name": text}, "value": n, "reason": "r"}),
                5 => serde_json::json!({"input": "adjust", "tracker": {"name": "round"}, "value": n, "reason": "r"}),
                6 => serde_json::json!({"input": "undo"}),
                7 => serde_json::json!({"input": "roll", "roll": {"sides": n as u8, "value": seat as u8, "source": {"kind": "typed"}}}),
                8 => serde_json::json!({"input": "move", "move": {"type": text}}),
                9 => serde_json::json!({"input": "move", "move": {"type": "equip", "player": seat % 8, "card": text, "space": n % 9}, "override_reason": "x"}),
                10 => serde_json::json!({"input": "move", "move": {"type": "attack", "player": seat % 8, "target": n.unsigned_abs() % 8, "range": n.unsigned_abs()}, "override_reason": "x"}),
                _ => {
                    let actions = m.actions();
                    if actions.is_empty() {
                        serde_json::json!({"input": "roll", "roll": {"sides": 6, "value": (seat % 6) as u8 + 1, "source": {"kind": "virtual"}}})
                    } else {
                        actions[seat % actions.len()].input.clone()
                    }
                }
            };
            if let Ok(p) = m.prepare_json(&v) {
                m.commit_json(&p.json).unwrap();
            }
            let _ = (m.context(), m.trackers(), m.outcome(), m.log());
        }
    }
}
