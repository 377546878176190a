//! Feeds arbitrary text to the catalogue loader (`tableside catalogue check|add`). Checks more
//! than "no panic": an error names a real place in the text, and a catalogue that loads keeps
//! the promises its type makes — cards sorted by a unique id, every card found by its id, every
//! ready-made deck buildable as physical copies and checkable against the set, and the set
//! loads again from the same text to the same value (the loader is a function of its text).
#![no_main]

use cards::catalogue::Catalogue;
use cards::decks::Deck;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Catalogue::load("fuzz.toml", text) {
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
            assert!(e.column >= 1, "column {}", e.column);
            assert!(!e.message.is_empty());
            assert!(e.to_string().starts_with("fuzz.toml:"));
        }
        Ok(cat) => {
            assert!(
                cat.cards.windows(2).all(|w| w[0].id < w[1].id),
                "cards not sorted by a unique id"
            );
            for card in &cat.cards {
                assert_eq!(cat.card(&card.id).map(|c| &c.id), Some(&card.id));
                let _ = card.name("ja");
                let _ = card.name("en");
            }
            for list in &cat.decks {
                let deck = Deck::from_list(&cat, &list.id, "fuzz")
                    .expect("a listed deck builds as copies");
                assert_eq!(deck.copies().count(), list.cards.len());
                // Unknown cards are an `Err`, broken construction rules a list: never a panic.
                let _ = deck.check(&cat);
            }
            assert_eq!(Catalogue::load("fuzz.toml", text).as_ref(), Ok(&cat));
        }
    }
});
