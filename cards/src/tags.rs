//! Card tags: the text in the QR code on each physical card.
//!
//! A tag names the game, the card and the physical copy, and ends in a check character:
//!
//! ```text
//! TS1:J:JD07:2:P        Tableside tag, format 1 · Jaken · card JD07 · copy 2 · check P
//! ```
//!
//! Every character is in the QR *alphanumeric* set (`0–9 A–Z space $ % * + - . / :`), which
//! packs 5.5 bits a character: with card ids of at most 17 characters and copies up to 999, every
//! tag is at most 29 characters and fits a version-2 code even at error correction Q. The check character is the sum of all preceding characters'
//! values in that 45-character set, modulo 45: any single changed character is caught,
//! since it changes the sum by less than 45. The check character is always the tag's last character and
//! may be `:` itself (`TS1:S:SJ03:1::`).
//! Anything else in view — a URL, another app's code, another game's card, a damaged read — is
//! refused with a reason.
//!
//! ```
//! use cards::core::GameId;
//! use cards::tags::{Tag, TagError};
//! let tag = Tag { game: GameId::Jaken, card: "JD07".into(), copy: 2 };
//! let text = tag.encode().unwrap();
//! assert_eq!(Tag::parse(&text).unwrap(), tag);
//! assert!(matches!(Tag::parse("https://example.com/JD07"), Err(TagError::NotATag)));
//! ```

use crate::core::GameId;

/// The 45 characters of the QR alphanumeric mode, in their code order.
const ALPHANUMERIC: &[u8; 45] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

/// The prefix of every tag of this format.
pub const PREFIX: &str = "TS1:";

/// Longest card id a tag takes: 6 + 17 + 1 + 3 + 2 = 29 characters, the alphanumeric capacity
/// of a version-2 QR code at level Q.
pub const MAX_CARD_ID: usize = 17;

/// Highest copy number.
pub const MAX_COPY: u16 = 999;

/// Why a text is not a valid tag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    /// Not a Tableside tag at all (a URL, another app's code).
    #[error("not a Tableside tag (it does not start with {PREFIX})")]
    NotATag,
    /// A Tableside tag of a format this build does not read.
    #[error("a Tableside tag of format {0}, which this version does not read")]
    UnknownFormat(String),
    /// The fields are not `game:card:copy:check`.
    #[error("a damaged tag: expected TS1:GAME:CARD:COPY:CHECK")]
    Shape,
    /// The game letter is unknown.
    #[error("unknown game letter `{0}`")]
    UnknownGame(String),
    /// The tag is for another game than the one being played.
    #[error("a {found} card, not a {expected} card")]
    WrongGame {
        /// The game being played.
        expected: GameId,
        /// The tag's game.
        found: GameId,
    },
    /// The card id is empty, too long, or has characters a QR alphanumeric code cannot hold.
    #[error("card id `{0}` must be 1–{MAX_CARD_ID} characters of A–Z, 0–9, `-` or `.`")]
    CardId(String),
    /// The copy number is not 1..=999.
    #[error("copy `{0}` must be a number from 1 to {MAX_COPY}")]
    Copy(String),
    /// The check character does not match: the code was misread or damaged.
    #[error(
        "check character `{found}` does not match `{expected}`: the tag was misread or is damaged"
    )]
    Check {
        /// What the content gives.
        expected: char,
        /// What the tag says.
        found: String,
    },
}

/// One physical copy of a card, as its tag names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tag {
    /// The game.
    pub game: GameId,
    /// The card's id in the game's catalogue.
    pub card: String,
    /// Which physical copy (1, 2, …), so two copies of one card are told apart.
    pub copy: u16,
}

/// The one-letter code of a game in tags.
pub fn game_letter(game: GameId) -> char {
    game.descriptor().tag_letter
}

fn game_of(letter: &str) -> Option<GameId> {
    GameId::ALL
        .into_iter()
        .find(|g| letter.len() == 1 && letter.starts_with(game_letter(*g)))
}

fn value(c: u8) -> Option<usize> {
    ALPHANUMERIC.iter().position(|&a| a == c)
}

/// The check character of a tag body (everything before the last `:`).
fn check_char(body: &str) -> Option<char> {
    let mut sum = 0usize;
    for b in body.bytes() {
        sum += value(b)?;
    }
    ALPHANUMERIC.get(sum % 45).map(|&c| char::from(c))
}

/// Splits `BODY:C` into the body and the one check character (which may be `:` itself).
fn split_check(text: &str) -> Option<(&str, &str)> {
    let last = text.char_indices().next_back()?.0;
    let body = text.get(..last)?.strip_suffix(':')?;
    Some((body, text.get(last..)?))
}

fn valid_card_id(card: &str) -> bool {
    !card.is_empty()
        && card.len() <= MAX_CARD_ID
        && card
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
}

impl Tag {
    /// The tag's text (for the QR code).
    pub fn encode(&self) -> Result<String, TagError> {
        if !valid_card_id(&self.card) {
            return Err(TagError::CardId(self.card.clone()));
        }
        if self.copy == 0 || self.copy > MAX_COPY {
            return Err(TagError::Copy(self.copy.to_string()));
        }
        let body = format!(
            "{PREFIX}{}:{}:{}",
            game_letter(self.game),
            self.card,
            self.copy
        );
        let check = check_char(&body).ok_or_else(|| TagError::CardId(self.card.clone()))?;
        Ok(format!("{body}:{check}"))
    }

    /// Reads a tag's text.
    pub fn parse(text: &str) -> Result<Tag, TagError> {
        let Some(rest) = text.strip_prefix("TS") else {
            return Err(TagError::NotATag);
        };
        let Some((format, _)) = rest.split_once(':') else {
            return Err(TagError::NotATag);
        };
        if format != "1" {
            return if !format.is_empty()
                && format.len() <= 3
                && format.bytes().all(|b| b.is_ascii_digit())
            {
                Err(TagError::UnknownFormat(format.to_owned()))
            } else {
                Err(TagError::NotATag)
            };
        }
        // The check character is the last character and may itself be `:`.
        let (body, check) = split_check(text).ok_or(TagError::Shape)?;
        let fields: Vec<&str> = body.get(PREFIX.len()..).unwrap_or("").split(':').collect();
        let [game, card, copy] = fields.as_slice() else {
            return Err(TagError::Shape);
        };
        let expected = check_char(body).ok_or(TagError::Shape)?;
        if check.len() != 1 || !check.starts_with(expected) {
            return Err(TagError::Check {
                expected,
                found: check.to_owned(),
            });
        }
        let game = game_of(game).ok_or_else(|| TagError::UnknownGame((*game).to_owned()))?;
        if !valid_card_id(card) {
            return Err(TagError::CardId((*card).to_owned()));
        }
        let copy_number = copy
            .parse::<u16>()
            .ok()
            .filter(|c| (1..=MAX_COPY).contains(c) && !copy.starts_with('0'))
            .ok_or_else(|| TagError::Copy((*copy).to_owned()))?;
        Ok(Tag {
            game,
            card: (*card).to_owned(),
            copy: copy_number,
        })
    }

    /// Reads a tag and checks it belongs to the game being played.
    pub fn parse_for(game: GameId, text: &str) -> Result<Tag, TagError> {
        let tag = Tag::parse(text)?;
        if tag.game == game {
            Ok(tag)
        } else {
            Err(TagError::WrongGame {
                expected: game,
                found: tag.game,
            })
        }
    }
}

/// A corner of the play mat. Its marker is a QR code reading `TS1:M:<corner>:<check>`, e.g.
/// `TS1:M:TL:…`; the four markers give the camera-to-mat homography.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Corner {
    /// Top left (as the mat is printed).
    TopLeft,
    /// Top right.
    TopRight,
    /// Bottom right.
    BottomRight,
    /// Bottom left.
    BottomLeft,
}

impl Corner {
    /// The four corners, clockwise from top left.
    pub const ALL: [Corner; 4] = [
        Corner::TopLeft,
        Corner::TopRight,
        Corner::BottomRight,
        Corner::BottomLeft,
    ];

    /// The two-letter code in the marker.
    pub fn code(self) -> &'static str {
        match self {
            Corner::TopLeft => "TL",
            Corner::TopRight => "TR",
            Corner::BottomRight => "BR",
            Corner::BottomLeft => "BL",
        }
    }

    /// The marker's text (for the QR code).
    pub fn encode(self) -> String {
        let body = format!("{PREFIX}M:{}", self.code());
        // Every character is alphanumeric, so the check character exists.
        let check = check_char(&body).unwrap_or('0');
        format!("{body}:{check}")
    }

    /// A name for people, e.g. on the printed marker.
    pub fn label(self) -> &'static str {
        match self {
            Corner::TopLeft => "top left",
            Corner::TopRight => "top right",
            Corner::BottomRight => "bottom right",
            Corner::BottomLeft => "bottom left",
        }
    }
}

/// What a QR code in view is: a card's tag or a mat corner marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scanned {
    /// A physical card.
    Card(Tag),
    /// A mat corner.
    Corner(Corner),
}

/// Reads any Tableside code: a card tag or a mat corner marker.
pub fn scan(text: &str) -> Result<Scanned, TagError> {
    if text.starts_with("TS1:M:") {
        let (body, check) = split_check(text).ok_or(TagError::Shape)?;
        let code = body.strip_prefix("TS1:M:").ok_or(TagError::Shape)?;
        let corner = Corner::ALL
            .into_iter()
            .find(|c| c.code() == code)
            .ok_or(TagError::Shape)?;
        let expected = check_char(body).ok_or(TagError::Shape)?;
        if check.len() != 1 || !check.starts_with(expected) {
            return Err(TagError::Check {
                expected,
                found: check.to_owned(),
            });
        }
        return Ok(Scanned::Corner(corner));
    }
    Tag::parse(text).map(Scanned::Card)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_demo_card_and_copy_round_trips_within_a_version_2_code() {
        let cat = crate::catalogue::Catalogue::jaken_demo().unwrap();
        for card in &cat.cards {
            for copy in 1..=3 {
                let tag = Tag {
                    game: GameId::Jaken,
                    card: card.id.clone(),
                    copy,
                };
                let text = tag.encode().unwrap();
                assert_eq!(Tag::parse(&text).unwrap(), tag, "{text}");
                // Version 2, level Q holds 29 alphanumeric characters.
                assert!(text.len() <= 29, "{text}");
            }
        }
    }

    #[test]
    fn foreign_and_damaged_texts_are_refused_with_a_reason() {
        let good = Tag {
            game: GameId::Jaken,
            card: "JD07".into(),
            copy: 2,
        }
        .encode()
        .unwrap();
        assert_eq!(good, "TS1:J:JD07:2:P");
        assert_eq!(
            Tag::parse("https://jyaken.online/JD07"),
            Err(TagError::NotATag)
        );
        assert_eq!(
            Tag::parse("WIFI:S:home;T:WPA;P:secret;;"),
            Err(TagError::NotATag)
        );
        assert_eq!(
            Tag::parse("TS2:J:JD07:2:X"),
            Err(TagError::UnknownFormat("2".into()))
        );
        assert!(matches!(
            Tag::parse("TS1:J:JD07:2:A"),
            Err(TagError::Check { .. })
        ));
        assert!(matches!(
            Tag::parse("TS1:J:JD08:2:P"),
            Err(TagError::Check { .. })
        ));
        assert_eq!(Tag::parse("TS1:J:JD07:T"), Err(TagError::Shape));
        assert_eq!(
            Tag::parse_for(GameId::SpaceJunk, &good),
            Err(TagError::WrongGame {
                expected: GameId::SpaceJunk,
                found: GameId::Jaken
            })
        );
        let lower = Tag {
            game: GameId::Jaken,
            card: "n32".into(),
            copy: 1,
        };
        assert_eq!(lower.encode(), Err(TagError::CardId("n32".into())));
        let zero = Tag {
            game: GameId::Yomi,
            card: "A".into(),
            copy: 0,
        };
        assert!(matches!(zero.encode(), Err(TagError::Copy(_))));
    }

    #[test]
    fn the_longest_tag_fits_version_2_at_level_q() {
        let tag = Tag {
            game: GameId::RockmanExe,
            card: "A".repeat(MAX_CARD_ID),
            copy: MAX_COPY,
        };
        assert_eq!(tag.encode().unwrap().len(), 29);
        let too_long = Tag {
            card: "A".repeat(MAX_CARD_ID + 1),
            ..tag
        };
        assert!(matches!(too_long.encode(), Err(TagError::CardId(_))));
    }

    #[test]
    fn a_tag_whose_check_character_is_a_colon_reads_back() {
        // Found by printing the Space Junk demo deck: SJ03 copy 1 sums to 44 mod 45, `:`.
        let tag = Tag {
            game: GameId::SpaceJunk,
            card: "SJ03".into(),
            copy: 1,
        };
        let text = tag.encode().unwrap();
        assert_eq!(text, "TS1:S:SJ03:1::");
        assert_eq!(Tag::parse(&text), Ok(tag));
        assert!(matches!(
            Tag::parse("TS1:S:SJ03:1:"),
            Err(TagError::Check { .. } | TagError::Shape)
        ));
    }

    #[test]
    fn corner_markers_read_back_and_are_not_cards() {
        for c in Corner::ALL {
            let text = c.encode();
            assert_eq!(scan(&text), Ok(Scanned::Corner(c)), "{text}");
            assert!(Tag::parse(&text).is_err(), "{text}");
        }
        assert_eq!(Corner::TopLeft.encode().len(), 10);
        assert!(matches!(scan("TS1:M:TL:0"), Err(TagError::Check { .. })));
        assert_eq!(scan("TS1:M:XX:0"), Err(TagError::Shape));
        assert_eq!(
            scan("TS1:J:JD07:2:P"),
            Ok(Scanned::Card(Tag {
                game: GameId::Jaken,
                card: "JD07".into(),
                copy: 2
            }))
        );
    }

    proptest! {
        #[test]
        fn arbitrary_text_never_panics_and_every_refusal_has_a_reason(text in ".{0,40}") {
            if let Err(e) = Tag::parse(&text) {
                prop_assert!(!e.to_string().is_empty());
            }
            if let Err(e) = scan(&text) {
                prop_assert!(!e.to_string().is_empty());
            }
        }

        #[test]
        fn every_encodable_tag_reads_back(card in "[A-Z0-9.-]{1,17}", copy in 1u16..=999, g in 0usize..5) {
            let tag = Tag { game: GameId::ALL[g], card, copy };
            let text = tag.encode().unwrap();
            prop_assert_eq!(Tag::parse(&text), Ok(tag.clone()), "{}", text);
            prop_assert_eq!(scan(&text), Ok(Scanned::Card(tag)), "{}", text);
        }

        #[test]
        fn one_changed_character_is_always_caught(
            card in "[A-Z0-9.-]{1,17}", copy in 1u16..=999, at in 0usize..40, with in 0usize..45
        ) {
            let tag = Tag { game: GameId::JunkKen, card, copy };
            let text = tag.encode().unwrap();
            let mut bytes = text.clone().into_bytes();
            let i = at % bytes.len();
            let replacement = ALPHANUMERIC[with];
            prop_assume!(bytes[i] != replacement);
            bytes[i] = replacement;
            let damaged = String::from_utf8(bytes).unwrap();
            prop_assert!(Tag::parse(&damaged).is_err(), "{} read as {:?}", damaged, Tag::parse(&damaged));
        }
    }
}
