//! Property tests: random JUNK-KEN matches replay to the live state, no input sequence panics, and
//! every timer (field countdown, supporter expiry, gear durability, Clockwise rotation, Bullet
//! counters) reaches its stated end.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::catalogue::junk_ken::{JunkKenCard, SkillIcon};
use cards::core::{DieSource, GameId, Roll};
use cards::games::junk_ken::{JunkKen, Move, State, Step, Support, demo_header};
use cards::matches::{AnyMatch, Input, Match, replay_json};
use proptest::prelude::*;

fn demo(decks: [&str; 2]) -> (Catalogue, cards::game::MatchHeader) {
    let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
    let header = demo_header(&cat, ["Aki", "Ben"], decks).unwrap();
    (cat, header)
}

fn die_for(m: &Match<JunkKen>, arg: u32) -> Option<Input<Move>> {
    let prompts = <JunkKen as cards::game::Game>::die_prompts(m.state());
    let p = prompts.first()?;
    let cards::core::PromptKind::Die { sides } = p.kind else {
        return None;
    };
    Some(Input::Roll {
        roll: Roll {
            sides,
            value: (arg % u32::from(sides)) as u8 + 1,
            source: DieSource::Virtual,
            seat: p.player,
            throw: None,
        },
    })
}

/// Picks the next input from a random number: mostly legal moves and dice for open prompts,
/// sometimes effects, corrections, undos, overrides and free rolls.
fn pick(m: &Match<JunkKen>, r: u32) -> Input<Move> {
    let kind = r % 100;
    let arg = r / 100;
    let seat = (arg % 2) as usize;
    if kind < 40
        && let Some(die) = die_for(m, arg)
    {
        return die;
    }
    let legal = m.legal_moves();
    match kind {
        0..=74 if !legal.is_empty() => Input::Move {
            mv: legal[arg as usize % legal.len()].0.clone(),
            override_reason: None,
        },
        0..=74 => die_for(m, arg).unwrap_or(Input::Undo { reason: None }),
        75..=80 => Input::Move {
            mv: Move::Effect {
                player: seat,
                damage: (arg % 4) as i32,
                self_damage: 0,
                heal: (arg % 3) as i32,
                draw: (arg % 2) as i32,
                note: "random".into(),
            },
            override_reason: None,
        },
        81..=84 => {
            let trackers = m.trackers();
            let t = &trackers[arg as usize % trackers.len()];
            let span = (t.max - t.min + 1).max(1);
            Input::Adjust {
                tracker: t.id.clone(),
                value: t.min + (arg as i32).rem_euclid(span),
                reason: "random correction".into(),
            }
        }
        85..=88 => Input::Undo { reason: None },
        89..=94 => {
            let cards = m.state().players[seat].unplayed.clone();
            let card = cards
                .get(arg as usize % cards.len().max(1))
                .cloned()
                .unwrap_or_default();
            let mv = match arg % 5 {
                0 => Move::PlaceCharacter { player: seat, card },
                1 => Move::PlaceSupporter { player: seat, card },
                2 => Move::DeclareReplacement { player: seat },
                3 => Move::SpendBullet { player: seat },
                _ => Move::Haste { player: seat },
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

/// What the timers looked like before a move, to compare with after.
#[derive(Default)]
struct Watch {
    /// Janken phases ended so far.
    j1: u32,
    /// Per seat: (supporter card, j1 when placed).
    supporter: [Option<(String, u32)>; 2],
    /// Per seat: (field card, j1 when placed).
    field: [Option<(String, u32)>; 2],
}

fn icons(state: &State, id: &str) -> Vec<SkillIcon> {
    state
        .cards
        .get(id)
        .map(|c| c.data.icons().to_vec())
        .unwrap_or_default()
}

/// Checks every timer against its rule after a legal move from `before` to `after`.
fn check_timers(before: &State, after: &State, w: &mut Watch) -> Result<(), TestCaseError> {
    let ended_janken = matches!(before.table.step, Step::Resolve)
        && matches!(after.table.step, Step::Replace | Step::TurnEnd);
    if ended_janken {
        w.j1 += 1;
    }
    let turned = after.table.turn == before.table.turn + 1;
    for seat in 0..2 {
        let (b, a) = (&before.players[seat], &after.players[seat]);
        // Supporter expiry: gone by the end of its 2nd janken phase.
        match &a.support {
            Support::Supporter { card, age, .. } => {
                prop_assert!(*age < 2, "a supporter aged 2 is still in play");
                let since = match &w.supporter[seat] {
                    Some((c, j)) if c == card && b.support != Support::Empty => *j,
                    _ => w.j1,
                };
                prop_assert!(
                    w.j1 - since < 2,
                    "supporter {card} outlived 2 janken phases"
                );
                w.supporter[seat] = Some((card.clone(), since));
            }
            _ => w.supporter[seat] = None,
        }
        // Field countdown: never below 1 in play, and at most count − janken phases ended.
        match &a.field {
            Some(f) => {
                prop_assert!(f.die >= 1, "field die {} in play", f.die);
                let since = match &w.field[seat] {
                    Some((c, j)) if *c == f.card && b.field.is_some() => *j,
                    _ => w.j1,
                };
                let count = match after.cards.get(&f.card).map(|c| &c.data) {
                    Some(JunkKenCard::Field(fd)) => i32::from(fd.count),
                    _ => 0,
                };
                prop_assert!(
                    f.die <= count - i32::try_from(w.j1 - since).unwrap(),
                    "field {} die {} after {} janken phase(s) (count {count})",
                    f.card,
                    f.die,
                    w.j1 - since
                );
                w.field[seat] = Some((f.card.clone(), since));
            }
            None => w.field[seat] = None,
        }
        // Gear durability: a worn-out gear never survives into the next turn.
        if turned {
            prop_assert!(
                !matches!(a.support, Support::Gear { durability, .. } if durability < 1),
                "a gear below 1 survived the turn end"
            );
        }
        if let Some(ch) = &a.character {
            let top = icons(after, ch.top());
            // Bullet counters within the level.
            let level = top
                .iter()
                .find_map(|i| match i {
                    SkillIcon::Bullet { level, .. } => Some(*level),
                    _ => None,
                })
                .unwrap_or(0);
            prop_assert!(ch.bullet <= level, "bullet {} > level {level}", ch.bullet);
            // Clockwise: 90° steps, +90° at each new turn for the same character.
            if let Some(r) = ch.rotation {
                prop_assert!(r % 90 == 0 && r < 360);
                prop_assert!(top.contains(&SkillIcon::Clockwise));
                if turned
                    && let Some(bc) = &b.character
                    && bc.stack == ch.stack
                    && let Some(br) = bc.rotation
                {
                    prop_assert_eq!(r, (br + 90) % 360);
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Replaying the stored log (the JSON texts the store keeps) gives exactly the live match.
    #[test]
    fn replaying_the_log_gives_the_live_state(choices in prop::collection::vec(any::<u32>(), 1..400)) {
        let (cat, header) = demo(["junk-rush", "clockwork"]);
        let mut live = Match::<JunkKen>::new(header.clone(), &cat).unwrap();
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
        let typed = Match::<JunkKen>::replay(header, &cat, inputs).unwrap();
        prop_assert_eq!(typed.state(), live.state());
    }

    /// Legal moves and dice alone: every timer keeps its rule and reaches its stated end.
    #[test]
    fn legal_play_keeps_every_timer(
        choices in prop::collection::vec(any::<u32>(), 100..500),
        decks in 0usize..3,
    ) {
        let pairs = [["junk-rush", "clockwork"], ["clockwork", "paper-planes"], ["paper-planes", "junk-rush"]];
        let (cat, header) = demo(pairs[decks]);
        let mut m = Match::<JunkKen>::new(header, &cat).unwrap();
        let mut w = Watch::default();
        for r in choices {
            if m.outcome().is_some() { break; }
            let input = match die_for(&m, r / 7) {
                Some(die) if r % 3 != 0 => die,
                _ => {
                    let legal = m.legal_moves();
                    if legal.is_empty() {
                        match die_for(&m, r) { Some(d) => d, None => break }
                    } else {
                        Input::Move { mv: legal[r as usize % legal.len()].0.clone(), override_reason: None }
                    }
                }
            };
            let before = m.state().clone();
            let p = m.prepare(&input).unwrap();
            prop_assert!(m.commit(p));
            check_timers(&before, m.state(), &mut w)?;
        }
    }

    /// Arbitrary inputs — any seat, card, number or JSON — are refused or applied, never a panic.
    #[test]
    fn no_input_sequence_panics(
        seq in prop::collection::vec((any::<u8>(), any::<usize>(), any::<i32>(), "[a-zA-Z0-9]{0,6}"), 0..200)
    ) {
        let (cat, header) = demo(["junk-rush", "paper-planes"]);
        let mut m = cards::matches::new_match(header, &cat).unwrap();
        for (kind, seat, n, text) in seq {
            let card = format!("JK{:02}", n.rem_euclid(26));
            let v = match kind % 12 {
                0 => serde_json::json!({"input": "move", "move": {"type": "place-character", "player": seat % 3, "card": card}, "override_reason": "x"}),
                1 => serde_json::json!({"input": "move", "move": {"type": "place-supporter", "player": seat % 3, "card": text}}),
                2 => serde_json::json!({"input": "move", "move": {"type": "effect", "player": seat % 3, "damage": n, "heal": n, "draw": n, "self_damage": n}, "override_reason": "x"}),
                3 => serde_json::json!({"input": "move", "move": {"type": "awaken", "player": seat % 3, "card": card}, "override_reason": "x"}),
                4 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 3, "name": text}, "value": n, "reason": "r"}),
                5 => serde_json::json!({"input": "adjust", "tracker": {"player": seat % 2, "name": (["hp", "field", "gear", "bullet", "rotation", "defeated"][seat % 6])}, "value": n % 8, "reason": "r"}),
                6 => serde_json::json!({"input": "undo"}),
                7 => serde_json::json!({"input": "roll", "roll": {"sides": n as u8, "value": seat as u8, "source": {"kind": "typed"}}}),
                8 => serde_json::json!({"input": "move", "move": {"type": text}}),
                9 => serde_json::json!({"input": "move", "move": {"type": "necromancy", "player": seat % 3, "graveyard": n.rem_euclid(3)}, "override_reason": "x"}),
                10 => serde_json::json!({"input": "move", "move": {"type": (["place-field", "place-gear", "replace"][seat % 3]), "player": seat % 2, "card": card}, "override_reason": "x"}),
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

/// Long legal matches from fixed seeds: each timer is seen reaching its end at least once
/// (supporter expiry, field countdown, gear removal, Clockwise upright, Bullet at its cap).
#[test]
fn every_timer_is_seen_reaching_its_end() {
    let mut seen = [0u32; 5];
    let mut outcomes = 0;
    for seed in 0..40u64 {
        let pairs = [
            ["junk-rush", "clockwork"],
            ["clockwork", "paper-planes"],
            ["paper-planes", "junk-rush"],
        ];
        let (cat, header) = demo(pairs[(seed % 3) as usize]);
        let mut m = Match::<JunkKen>::new(header, &cat).unwrap();
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut w = Watch::default();
        for _ in 0..1500 {
            if m.outcome().is_some() {
                outcomes += 1;
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (x >> 33) as u32;
            let input = match die_for(&m, r / 7) {
                Some(die) => die,
                None => {
                    let legal = m.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    // Prefer progress: end moves half of the time when offered.
                    let ends: Vec<_> = legal
                        .iter()
                        .filter(|(mv, _)| {
                            matches!(
                                mv,
                                Move::EndSet { .. }
                                    | Move::EndJanken {}
                                    | Move::EndTurn {}
                                    | Move::Janken { .. }
                                    | Move::GearEvent { .. }
                            )
                        })
                        .collect();
                    let mv = if r.is_multiple_of(2) && !ends.is_empty() {
                        ends[(r / 2) as usize % ends.len()].0.clone()
                    } else {
                        legal[r as usize % legal.len()].0.clone()
                    };
                    Input::Move {
                        mv,
                        override_reason: None,
                    }
                }
            };
            let before = m.state().clone();
            let p = m.prepare(&input).unwrap();
            assert!(m.commit(p));
            let after = m.state();
            check_timers(&before, after, &mut w).unwrap();
            for seat in 0..2 {
                let (b, a) = (&before.players[seat], &after.players[seat]);
                if matches!(
                    b.support,
                    Support::Supporter {
                        age: 1,
                        won: false,
                        ..
                    }
                ) && a.support == Support::Empty
                    && before.table.step == Step::Resolve
                {
                    seen[0] += 1;
                }
                if b.field.is_some() && a.field.is_none() && a.removed.len() > b.removed.len() {
                    seen[1] += 1;
                }
                if matches!(b.support, Support::Gear { durability, .. } if durability < 1)
                    && a.support == Support::Empty
                {
                    seen[2] += 1;
                }
                if let Some(ch) = &a.character {
                    if ch.rotation == Some(0) {
                        seen[3] += 1;
                    }
                    let full = icons(after, ch.top()).iter().any(
                        |i| matches!(i, SkillIcon::Bullet { level, .. } if *level == ch.bullet),
                    );
                    if full {
                        seen[4] += 1;
                    }
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "timers seen ending: {seen:?}");
    assert!(outcomes > 0, "no legal match reached an outcome");
}
