//! Arbitrary and damaged input to the tag parser, the catalogue loader and the deck loader: never
//! a panic, and every refusal says what is wrong and where.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::decks::Deck;
use cards::tags::scan;
use proptest::prelude::*;

/// Every built-in catalogue's text with its name.
fn demo_texts() -> Vec<(&'static str, &'static str)> {
    cards::catalogue::BUILTIN.to_vec()
}

const DECK: &str = include_str!("../../docs/examples/decks/jaken-aki-lanterns.toml");

/// Applies one edit: delete a range, insert text, or replace a range.
fn damage(text: &str, at: usize, len: usize, insert: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + len).min(chars.len());
    let mut out: String = chars[..at].iter().collect();
    out.push_str(insert);
    out.extend(&chars[end..]);
    out
}

fn check_error_location(text: &str, line: usize, column: usize, message: &str) {
    let lines = text.split('\n').count();
    assert!(!message.trim().is_empty(), "an error without a message");
    assert!(
        (1..=lines).contains(&line),
        "line {line} outside 1..={lines}: {message}"
    );
    assert!(column >= 1, "column 0: {message}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_text_as_a_tag_never_panics_and_refusals_have_reasons(text in "\\PC{0,60}") {
        if let Err(e) = scan(&text) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn any_text_as_a_catalogue_or_deck_is_refused_with_a_located_reason(text in "\\PC{0,200}") {
        if let Err(e) = Catalogue::load("x.toml", &text) {
            check_error_location(&text, e.line, e.column, &e.message);
        }
        if let Err(e) = Deck::load("x.toml", &text) {
            check_error_location(&text, e.line, e.column, &e.message);
        }
    }

    #[test]
    fn a_damaged_catalogue_loads_or_is_refused_with_a_located_reason(
        which in 0usize..16, at in 0usize..100_000, len in 0usize..40,
        insert in prop_oneof![Just(String::new()), "[a-z_ =\"\\[\\]0-9\n-]{1,12}", "\\PC{1,8}"],
    ) {
        let demos = demo_texts();
        let (name, text) = demos[which % demos.len()];
        let damaged = damage(text, at, len, &insert);
        if let Err(e) = Catalogue::load(name, &damaged) {
            check_error_location(&damaged, e.line, e.column, &e.message);
            prop_assert_eq!(e.file.as_str(), name);
        }
    }

    #[test]
    fn a_damaged_deck_loads_or_is_refused_with_a_located_reason(
        at in 0usize..2_000, len in 0usize..30,
        insert in prop_oneof![Just(String::new()), "[A-Z0-9 =\\[\\],\n-]{1,10}", "\\PC{1,8}"],
    ) {
        let damaged = damage(DECK, at, len, &insert);
        match Deck::load("d.toml", &damaged) {
            Err(e) => check_error_location(&damaged, e.line, e.column, &e.message),
            Ok(deck) => {
                // A deck that still reads is checked without a panic.
                let cat = Catalogue::jaken_demo().unwrap();
                let _ = deck.check(&cat);
            }
        }
    }
}

#[test]
fn every_builtin_catalogue_loads() {
    for (name, text) in demo_texts() {
        let cat = Catalogue::load(name, text).unwrap_or_else(|e| panic!("{e}"));
        assert!(cat.set.demo, "{name} must be labelled as a demo set");
        assert!(!cat.cards.is_empty(), "{name}");
    }
}
