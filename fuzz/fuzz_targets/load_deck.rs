//! Feeds arbitrary text to the deck loader (`tableside deck check|register`, `tags --deck`).
//! Checks more than "no panic": an error names a real place in the text; a deck that loads has
//! its copies sorted and unique, numbered 1 ..= MAX_COPY; checking it against every embedded set
//! never panics; every copy's tag reads back as the same copy; and registering it binds every
//! copy to its owner, after which the same copies cannot be registered again.
#![no_main]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::decks::{Deck, Registry};
use cards::tags::{MAX_COPY, Tag};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let deck = match Deck::load("fuzz.toml", text) {
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
            assert!(e.column >= 1, "column {}", e.column);
            assert!(!e.message.is_empty());
            return;
        }
        Ok(deck) => deck,
    };
    for section in [&deck.main, &deck.extra] {
        assert!(section.windows(2).all(|w| w[0] < w[1]), "copies not sorted");
    }
    let mut all: Vec<_> = deck.copies().collect();
    all.sort();
    assert!(all.windows(2).all(|w| w[0] != w[1]), "a copy twice");
    assert!(deck.copies().all(|c| (1..=MAX_COPY).contains(&c.copy)));
    for game in GameId::ALL {
        if let Ok(cat) = Catalogue::builtin(game) {
            let _ = deck.check(&cat);
        }
    }
    for tag in deck.tags() {
        if let Ok(text) = tag.encode() {
            assert_eq!(Tag::parse(&text).as_ref(), Ok(&tag));
        }
    }
    let mut registry = Registry::default();
    if registry.register(&deck).is_ok() {
        for tag in deck.tags() {
            let owner = registry.owner(&tag).map(|r| r.owner.as_str());
            assert_eq!(owner, Some(deck.owner.as_str()));
        }
        let mut again = deck.clone();
        again.name.push('2');
        assert_eq!(
            registry.register(&again).is_ok(),
            deck.copies().count() == 0
        );
    }
});
