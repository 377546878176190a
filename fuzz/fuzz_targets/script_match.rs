//! Feeds arbitrary text to the match-script parser and plays what parses through the match
//! layer of its game. Checks more than "no panic":
//! - every action the match offers as legal is accepted, and every offered refused action is
//!   refused by a rule (with a sentence) and accepted with an override reason;
//! - replaying the stored log gives exactly the live state.
//!
//! Input: byte 0 picks the game, byte 1 says how many of the next bytes are choices (each after
//! a step commits the offered action it indexes, driving play deep), the rest is the script. A
//! script that does not start with `game` is played after the game's demo header.
#![no_main]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::matches::{AnyMatch, Rejection, new_match, replay_json};
use cards::script::{Script, run_step};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

#[path = "../../cards/tests/common/mod.rs"]
mod common;
use common::demo_header;

/// Steps run per input at most (bounds the cost of one input).
const MAX_STEPS: usize = 200;

fn catalogue(game: GameId) -> &'static Catalogue {
    static CATS: OnceLock<Vec<Catalogue>> = OnceLock::new();
    let cats = CATS.get_or_init(|| {
        GameId::ALL
            .iter()
            .map(|g| Catalogue::builtin(*g).expect("the demo catalogues load"))
            .collect()
    });
    let i = GameId::ALL.iter().position(|g| *g == game).unwrap_or(0);
    &cats[i]
}


/// Commits a JSON input through the store path (prepare, persist, commit); its stored text.
fn put(m: &mut dyn AnyMatch, input: &serde_json::Value, log: &mut Vec<String>) -> bool {
    match m.prepare_json(input) {
        Ok(p) => {
            m.commit_json(&p.json).expect("a prepared input commits");
            log.push(p.json);
            true
        }
        Err(_) => false,
    }
}

/// The oracle on the offered actions of the current state.
fn check_offers(m: &dyn AnyMatch) {
    for a in m.actions().iter().take(12) {
        if let Err(e) = m.prepare_json(&a.input) {
            panic!("an offered action is refused: {} → {e}", a.label);
        }
    }
    for a in m.refused_actions().iter().take(6) {
        match m.prepare_json(&a.input) {
            Err(Rejection::Refused { violations }) => {
                assert!(!violations.is_empty());
                for v in &violations {
                    assert!(!v.rule.is_empty() && !v.sentence.is_empty(), "{v:?}");
                }
            }
            other => panic!("an offered refused action is not refused by a rule: {other:?}"),
        }
        let mut input = a.input.clone();
        input["override_reason"] = serde_json::Value::from("fuzz: the table agreed");
        if let Err(e) = m.prepare_json(&input) {
            panic!("an override is not accepted: {} → {e}", a.label);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&g, rest)) = data.split_first() else {
        return;
    };
    let (n, rest) = rest.split_first().map_or((0, rest), |(n, r)| (usize::from(*n % 65), r));
    let (choices, text) = rest.split_at(n.min(rest.len()));
    let game = GameId::ALL[usize::from(g) % GameId::ALL.len()];
    let text = String::from_utf8_lossy(text);
    let text = if text.trim_start_matches('\u{feff}').starts_with("game") {
        text.into_owned()
    } else {
        format!("{}{text}", demo_header(game))
    };
    let Ok(script) = Script::parse(&text) else {
        return;
    };
    let cat = catalogue(script.game);
    let Ok(header) = script.header(cat) else {
        return;
    };
    let Ok(mut m) = new_match(header.clone(), cat) else {
        return;
    };
    let mut log: Vec<String> = Vec::new();
    let mut choices = choices.iter();
    for (line, step) in script.steps.iter().take(MAX_STEPS) {
        let mut stored = Vec::new();
        let _ = run_step(m.as_mut(), *line, step, &mut |p| {
            stored.push(p.json.clone());
            Ok(())
        });
        log.extend(stored);
        check_offers(m.as_ref());
        if let Some(&c) = choices.next() {
            let actions = m.actions();
            if !actions.is_empty() {
                let a = &actions[usize::from(c) % actions.len()];
                assert!(put(m.as_mut(), &a.input, &mut log), "offered: {}", a.label);
            }
        }
    }
    // Play on with the remaining choices alone.
    for &c in choices {
        let actions = m.actions();
        if actions.is_empty() {
            break;
        }
        let a = &actions[usize::from(c) % actions.len()];
        assert!(put(m.as_mut(), &a.input, &mut log), "offered: {}", a.label);
        check_offers(m.as_ref());
    }
    let replayed = replay_json(header, cat, log.iter().map(String::as_str))
        .unwrap_or_else(|e| panic!("the stored log does not replay: {e}"));
    assert_eq!(replayed.state_json(), m.state_json(), "replay differs from live");
    assert_eq!(replayed.len(), m.len());
});
