//! Per game, random play through the match layer (the way the table screen and scripts drive
//! it): every offered refused action is refused by a rule with a sentence and is accepted with
//! an override reason, whose effect is logged with the broken rules; a misspelt move is
//! malformed input naming the field; the stored log replays to exactly the live state.

// Test helpers outside #[test] functions may fail loudly: a failure is the test's answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::matches::{AnyMatch, Rejection, new_match, replay_json};
use cards::script::Script;
use proptest::prelude::*;

mod common;

fn demo(game: GameId) -> (Catalogue, cards::game::MatchHeader) {
    let header = common::demo_header(game);
    let cat = Catalogue::builtin(game).unwrap();
    let h = Script::parse(&header).unwrap().header(&cat).unwrap();
    (cat, h)
}

/// Commits an input as the store would (prepare, keep the JSON, commit).
fn put(m: &mut dyn AnyMatch, input: &serde_json::Value, log: &mut Vec<String>) {
    let p = m.prepare_json(input).unwrap();
    m.commit_json(&p.json).unwrap();
    log.push(p.json);
}

fn play(game: GameId, picks: &[u16]) -> Result<(), TestCaseError> {
    let (cat, header) = demo(game);
    play_from(&cat, header, picks)
}

/// A JUNK-KEN draft as the example script starts it: the pool dealt, no decks yet.
fn draft() -> (Catalogue, cards::game::MatchHeader) {
    let text = include_str!("../../docs/examples/junk_ken-draft.script");
    let header: String = text
        .lines()
        .filter(|l| {
            ["game ", "catalogue ", "player ", "rule "]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
    let h = Script::parse(&header).unwrap().header(&cat).unwrap();
    (cat, h)
}

fn play_from(
    cat: &Catalogue,
    header: cards::game::MatchHeader,
    picks: &[u16],
) -> Result<(), TestCaseError> {
    let cat = cat.clone();
    let game = header.game;
    let names = common::quoted_names(&header, &cat);
    let mut m = new_match(header.clone(), &cat).unwrap();
    let mut log = Vec::new();
    for &r in picks {
        let refused = m.refused_actions();
        let legal = m.actions();
        match r % 10 {
            // A refused action: a rule, a sentence, and applied with an override.
            0..=2 if !refused.is_empty() => {
                let a = &refused[usize::from(r / 10) % refused.len()];
                match m.prepare_json(&a.input) {
                    Err(Rejection::Refused { violations }) => {
                        prop_assert!(!violations.is_empty());
                        for v in &violations {
                            prop_assert!(
                                v.rule.contains('.') && !v.sentence.trim().is_empty(),
                                "{v:?}"
                            );
                            prop_assert!(!v.reference.contains(".md"), "{v:?}");
                            if japanese_checked(game, &v.rule) {
                                common::assert_japanese(&v.sentence_ja, &names);
                            }
                        }
                        let mut input = a.input.clone();
                        input["override_reason"] = "the table agreed".into();
                        put(m.as_mut(), &input, &mut log);
                        let line = m.log().pop().unwrap();
                        prop_assert_eq!(&line.overridden, &violations);
                        prop_assert!(line.text.contains("override: the table agreed"));
                    }
                    other => prop_assert!(false, "{}: not refused by a rule: {other:?}", a.label),
                }
            }
            // A misspelt field: malformed, named.
            3 if !legal.is_empty() => {
                let a = &legal[usize::from(r / 10) % legal.len()];
                let mut input = a.input.clone();
                input["move"]["plaeyr"] = 0.into();
                match m.prepare_json(&input) {
                    Err(Rejection::Malformed(e)) => prop_assert!(e.contains("`plaeyr`"), "{e}"),
                    other => prop_assert!(false, "a misspelt field was not refused: {other:?}"),
                }
            }
            // An undo now and then.
            4 if !m.is_empty() => {
                let undo = serde_json::json!({"input": "undo"});
                if m.prepare_json(&undo).is_ok() {
                    put(m.as_mut(), &undo, &mut log);
                }
            }
            _ if !legal.is_empty() => {
                let a = &legal[usize::from(r / 10) % legal.len()];
                put(m.as_mut(), &a.input, &mut log);
            }
            _ => {
                // A die for whatever is asked (or a free roll).
                let d = serde_json::json!({"input": "roll", "roll": {
                    "sides": 6, "value": (r % 6) + 1, "source": {"kind": "virtual"}}});
                if m.prepare_json(&d).is_ok() {
                    put(m.as_mut(), &d, &mut log);
                }
            }
        }
    }
    let replayed = replay_json(header, &cat, log.iter().map(String::as_str)).unwrap();
    prop_assert_eq!(replayed.state_json(), m.state_json());
    Ok(())
}

/// The reasons an input "cannot mean anything" that a replayed or re-seated offered move may
/// meet, per game: the card or the thing the move names is not where it acts (not in the
/// player's hand, already played, no such face-down card), or there is nothing to act on. Every
/// other refusal of such a move must be a rule the table can override.
fn meaningless(game: GameId) -> &'static [&'static str] {
    match game {
        GameId::Yomi => &[
            "has no unplayed copy of",
            "has no card in hand",
            "holds ",
            "has chosen no combat card this turn",
            "is no longer on the table",
            "has no escape card face down",
            "has no copy of",
            "deck is empty",
            "is not in ",
            "has no Ace search open",
            "has no move printed on it",
        ],
        GameId::SpaceJunk => &[
            "is not a character card of this set",
            "each character is a single card",
            "is not another player's card",
            "'s card",
            "is named twice",
            "is not in the junk deck or the cooler",
            "is already in",
            "is not on a ship",
            "'s ship",
            "has no character",
            "is not damaged",
            "a ship cannot ram itself",
        ],
        GameId::RockmanExe => &[
            "has no card in hand",
            "has no unplayed copy of",
            "holds ",
            "deck holds no",
            "is not a square of",
            "has no card on",
            "is off the edge of",
            "is not a character",
            "chip zone is empty",
            "has no character on",
            "is not an empty square",
            "name it with `from`",
            "name the target square",
        ],
        // The card is not in the hand or deck (or not that kind of card for the zone's data), the
        // player has nothing to act on, or the battle's sequence has no place for the move at all.
        GameId::Jaken => &[
            "has no unplayed copy of",
            "has no card in hand",
            "is already face up on the battle field",
            "has no face-down card to reveal",
            "has no revealed monster",
            "has no effect waiting to resolve",
            "has no BG card in the BG zone",
            "there is no BG declaration open",
            "no battle is open for a card",
            "once both monsters are revealed",
            "the battle ends after the SB comparison",
            "the first parent was already decided",
        ],
        GameId::JunkKen => &[
            "has no Dice-rolling skill waiting",
            " in hand",
            "extra deck",
            "has no field card",
            "has no character",
            "has no supporter",
            "the set phase is not open",
            "already declared",
            "still owes the HP die",
            "has no HP yet",
            "janken is thrown once a turn",
            "has no gear",
            "durability is already below 1",
            "the janken phase ends after the throw",
            "has no replacement to carry out now",
            "has no Bullet skill",
            "waiting for its die",
            "graveyard holds no",
            "the turn ends after the janken phase",
            "rolls the character's HP die first",
            "only a card in play gives a bonus",
        ],
    }
}

/// The games whose every refusal sentence is checked to be written in Japanese (no English word
/// besides the players' and the catalogue's names and the rulebook's own Latin terms, such as
/// Jaken's 「BG」「SB」 or JUNK-KEN's 「ATK」): all five, by their own rules. The match layer's
/// `match.over` quotes the game's outcome reason, which has no Japanese yet (`Outcome` carries
/// one reason, in English).
fn japanese_checked(game: GameId, rule: &str) -> bool {
    matches!(
        game,
        GameId::Yomi | GameId::RockmanExe | GameId::SpaceJunk | GameId::Jaken | GameId::JunkKen
    ) && rule != "match.over"
}

/// Moves of every kind the offered actions may not include, as inputs (per game).
fn extra_moves(game: GameId) -> Vec<serde_json::Value> {
    let mv = |m: serde_json::Value| serde_json::json!({"input": "move", "move": m});
    match game {
        GameId::Yomi => (0..2)
            .map(|p| mv(serde_json::json!({"type": "draw", "player": p})))
            .collect(),
        _ => Vec::new(),
    }
}

/// Random play where, besides the offered moves, moves offered earlier (now out of their step)
/// and moves re-seated to another player are thrown at the match: each is legal, refused by rules
/// that carry an id and a sentence in English and Japanese and apply with an override (logged),
/// or impossible for one of the game's reviewed reasons ([`meaningless`]).
fn play_stale(game: GameId, picks: &[u16]) -> Result<(), TestCaseError> {
    let (cat, header) = demo(game);
    let seats = header.players.len();
    let names = common::quoted_names(&header, &cat);
    let mut m = new_match(header.clone(), &cat).unwrap();
    let mut log = Vec::new();
    let mut pool: Vec<serde_json::Value> = extra_moves(game);
    for &r in picks {
        for a in m.actions().into_iter().chain(m.refused_actions()) {
            let mut moved = a.input.clone();
            if let Some(p) = moved["move"]["player"].as_u64() {
                moved["move"]["player"] = ((p as usize + 1) % seats).into();
                if !pool.contains(&moved) {
                    pool.push(moved);
                }
            }
            if !pool.contains(&a.input) {
                pool.push(a.input);
            }
        }
        let legal = m.actions();
        if r % 3 == 0 && !legal.is_empty() {
            let a = &legal[usize::from(r / 3) % legal.len()];
            put(m.as_mut(), &a.input, &mut log);
            continue;
        }
        if r % 3 == 1 && !m.context().prompts.is_empty() {
            // A die for whatever is asked.
            let d = serde_json::json!({"input": "roll", "roll": {
                "sides": 6, "value": (r % 6) + 1, "source": {"kind": "virtual"}}});
            if m.prepare_json(&d).is_ok() {
                put(m.as_mut(), &d, &mut log);
            }
            continue;
        }
        let input = pool[usize::from(r / 3) % pool.len()].clone();
        match m.prepare_json(&input) {
            Ok(_) => put(m.as_mut(), &input, &mut log),
            Err(Rejection::Refused { violations }) => {
                prop_assert!(!violations.is_empty());
                for v in &violations {
                    prop_assert!(v.rule.contains('.'), "{v:?}");
                    prop_assert!(!v.sentence.trim().is_empty(), "{v:?}");
                    prop_assert!(!v.sentence_ja.trim().is_empty(), "no Japanese: {v:?}");
                    prop_assert!(!v.reference.contains(".md"), "{v:?}");
                    if japanese_checked(game, &v.rule) {
                        common::assert_japanese(&v.sentence_ja, &names);
                    }
                }
                let mut over = input.clone();
                over["override_reason"] = "the table agreed".into();
                // After the end (`match.over`) the move itself may still mean nothing.
                if let Err(Rejection::Impossible(e)) = m.prepare_json(&over) {
                    prop_assert!(
                        violations.iter().all(|v| v.rule == "match.over"),
                        "{violations:?}"
                    );
                    prop_assert!(
                        meaningless(game).iter().any(|k| e.reason.contains(k)),
                        "{}",
                        e.reason
                    );
                    continue;
                }
                put(m.as_mut(), &over, &mut log);
                let line = m.log().pop().unwrap();
                prop_assert_eq!(&line.overridden, &violations);
                prop_assert!(line.text.contains("override: the table agreed"));
            }
            Err(Rejection::Impossible(e)) => {
                prop_assert!(
                    meaningless(game).iter().any(|k| e.reason.contains(k)),
                    "{input}: impossible for a reason not reviewed as meaningless input: {}",
                    e.reason
                );
                if japanese_checked(game, "") {
                    prop_assert!(!e.reason_ja.is_empty(), "no Japanese: {}", e.reason);
                    common::assert_japanese(&e.reason_ja, &names);
                }
            }
            Err(Rejection::Malformed(e)) => prop_assert!(false, "{input}: malformed: {e}"),
        }
    }
    let replayed = replay_json(header, &cat, log.iter().map(String::as_str)).unwrap();
    prop_assert_eq!(replayed.state_json(), m.state_json());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn yomi_stale_and_reseated_moves_are_rules(picks in prop::collection::vec(any::<u16>(), 1..80)) {
        play_stale(GameId::Yomi, &picks)?;
    }

    #[test]
    fn rockman_stale_and_reseated_moves_are_rules(picks in prop::collection::vec(any::<u16>(), 1..80)) {
        play_stale(GameId::RockmanExe, &picks)?;
    }

    #[test]
    fn jaken_stale_and_reseated_moves_are_rules(picks in prop::collection::vec(any::<u16>(), 1..80)) {
        play_stale(GameId::Jaken, &picks)?;
    }

    #[test]
    fn junk_ken_stale_and_reseated_moves_are_rules(picks in prop::collection::vec(any::<u16>(), 1..80)) {
        play_stale(GameId::JunkKen, &picks)?;
    }

    #[test]
    fn space_junk_stale_and_reseated_moves_are_rules(picks in prop::collection::vec(any::<u16>(), 1..80)) {
        play_stale(GameId::SpaceJunk, &picks)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn jaken_refusals_are_rules(picks in prop::collection::vec(any::<u16>(), 1..60)) {
        play(GameId::Jaken, &picks)?;
    }

    #[test]
    fn junk_ken_refusals_are_rules(picks in prop::collection::vec(any::<u16>(), 1..60)) {
        play(GameId::JunkKen, &picks)?;
    }

    #[test]
    fn junk_ken_draft_refusals_are_rules(picks in prop::collection::vec(any::<u16>(), 1..120)) {
        let (cat, header) = draft();
        play_from(&cat, header, &picks)?;
    }

    #[test]
    fn rockman_refusals_are_rules(picks in prop::collection::vec(any::<u16>(), 1..60)) {
        play(GameId::RockmanExe, &picks)?;
    }

    #[test]
    fn space_junk_refusals_are_rules(picks in prop::collection::vec(any::<u16>(), 1..60)) {
        play(GameId::SpaceJunk, &picks)?;
    }

    #[test]
    fn yomi_refusals_are_rules(picks in prop::collection::vec(any::<u16>(), 1..60)) {
        play(GameId::Yomi, &picks)?;
    }
}
