//! Feeds arbitrary text to the tag readers (what a QR code in view says). Checks more than "no
//! panic": a text that reads as a card tag or a mat marker is exactly the canonical text of what
//! it read as (one physical copy has one tag, so a misread cannot name another copy), and
//! `parse_for` agrees with `parse` about the game.
#![no_main]

use cards::core::GameId;
use cards::tags::{Scanned, Tag, scan};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = Tag::parse(text);
    if let Ok(tag) = &parsed {
        assert_eq!(tag.encode().as_deref(), Ok(text), "not canonical: {tag:?}");
        for game in GameId::ALL {
            assert_eq!(Tag::parse_for(game, text).is_ok(), tag.game == game);
        }
    }
    match scan(text) {
        Ok(Scanned::Card(tag)) => assert_eq!(parsed.as_ref(), Ok(&tag)),
        Ok(Scanned::Corner(corner)) => assert_eq!(corner.encode(), text),
        Err(_) => assert!(parsed.is_err()),
    }
});
