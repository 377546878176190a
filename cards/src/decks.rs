//! Decks: which physical copies a player brings, checked against the game's construction rules,
//! and registered so that a scanned copy tells whose card it is.
//!
//! A deck file is TOML. Each card line gives the copies by their tag copy numbers (`[1, 2]`), or a
//! count `n` meaning copies 1 to n:
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::decks::{Deck, Registry};
//! let cat = Catalogue::jaken_demo().unwrap();
//! let text = r#"
//! format = 1
//! game = "jaken"
//! set = "jaken-demo"
//! name = "Lanterns"
//! owner = "Aki"
//! [main]
//! JD01 = 2
//! JD02 = 2
//! JD03 = [1, 2]
//! JD04 = 2
//! JD05 = 2
//! JD06 = 2
//! JD07 = 1
//! JD08 = 1
//! JD25 = 1
//! "#;
//! let deck = Deck::load("lanterns.toml", text).unwrap();
//! let problems = deck.check(&cat).unwrap();
//! assert!(problems.is_empty(), "{problems:?}");
//!
//! let mut registry = Registry::default();
//! registry.register(&deck).unwrap();
//! let tag = cards::tags::Tag { game: cards::core::GameId::Jaken, card: "JD03".into(), copy: 2 };
//! assert_eq!(registry.owner(&tag).map(|r| r.owner.as_str()), Some("Aki"));
//! // The same physical copy cannot be in two registered decks.
//! let mut other = deck.clone();
//! other.owner = "Ben".into();
//! other.name = "Borrowed".into();
//! assert!(registry.register(&other).is_err());
//! ```

use crate::catalogue::{Catalogue, CatalogueError};
use crate::core::{GameId, Violation};
use crate::tags::{MAX_COPY, Tag};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The deck file format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// One physical copy of a card: the card id and the copy number printed in its tag.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CopyRef {
    /// Card id in the catalogue.
    pub card: String,
    /// Copy number (1-based), as in the card's tag.
    pub copy: u16,
}

impl fmt::Display for CopyRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} #{}", self.card, self.copy)
    }
}

/// A player's deck: the physical copies, by section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    /// The game.
    pub game: GameId,
    /// The catalogue set the cards come from.
    pub set: String,
    /// The deck's name.
    pub name: String,
    /// Whose deck it is.
    pub owner: String,
    /// The construction variant, e.g. `draft` for JUNK-KEN's draft; `None` for the standard rules.
    pub variant: Option<String>,
    /// The main deck, sorted.
    pub main: Vec<CopyRef>,
    /// The extra deck (JUNK-KEN's EX cards), sorted; empty for games without one.
    pub extra: Vec<CopyRef>,
}

#[derive(Deserialize)]
struct RawHead {
    format: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeckFile {
    #[allow(dead_code)]
    format: u32,
    game: String,
    set: String,
    name: String,
    owner: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    main: BTreeMap<String, toml::Spanned<RawCopies>>,
    #[serde(default)]
    extra: BTreeMap<String, toml::Spanned<RawCopies>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawCopies {
    Count(i64),
    Copies(Vec<i64>),
}

fn err_at(
    file: &str,
    text: &str,
    offset: usize,
    field: Option<&str>,
    message: impl Into<String>,
) -> CatalogueError {
    let (line, column) = crate::catalogue::line_col(text, offset);
    CatalogueError {
        file: file.to_owned(),
        line,
        column,
        field: field.map(str::to_owned),
        message: message.into(),
    }
}

fn field_offset(text: &str, key: &str) -> usize {
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(key)
            && rest.trim_start().starts_with('=')
        {
            return pos + (line.len() - trimmed.len());
        }
        pos += line.len();
    }
    0
}

impl Deck {
    /// Reads a deck file; `file` names it in errors, which give line, column and field.
    pub fn load(file: &str, text: &str) -> Result<Deck, CatalogueError> {
        let toml_err = |e: toml::de::Error| {
            let offset = e.span().map_or(0, |s| s.start);
            let message = e.message().to_owned();
            let field = message
                .split('`')
                .nth(1)
                .filter(|_| message.contains("field"))
                .map(str::to_owned);
            err_at(file, text, offset, field.as_deref(), message)
        };
        let head: RawHead = toml::from_str(text).map_err(toml_err)?;
        if head.format != FORMAT_VERSION {
            return Err(err_at(
                file,
                text,
                field_offset(text, "format"),
                Some("format"),
                format!(
                    "deck format {} is not supported (this build reads format {FORMAT_VERSION})",
                    head.format
                ),
            ));
        }
        let raw: RawDeckFile = toml::from_str(text).map_err(toml_err)?;
        let game = GameId::parse(&raw.game).ok_or_else(|| {
            err_at(
                file,
                text,
                field_offset(text, "game"),
                Some("game"),
                format!(
                    "unknown game `{}` (expected one of: {})",
                    raw.game,
                    GameId::ALL.map(GameId::as_str).join(", ")
                ),
            )
        })?;
        if raw.owner.trim().is_empty() {
            return Err(err_at(
                file,
                text,
                field_offset(text, "owner"),
                Some("owner"),
                "a deck needs an owner (the player's name)",
            ));
        }
        let section = |section: &str,
                       entries: &BTreeMap<String, toml::Spanned<RawCopies>>|
         -> Result<Vec<CopyRef>, CatalogueError> {
            let mut out = Vec::new();
            for (card, spanned) in entries {
                let at = spanned.span().start;
                let copies: Vec<i64> = match spanned.get_ref() {
                    RawCopies::Count(n) => {
                        if !(1..=i64::from(MAX_COPY)).contains(n) {
                            return Err(err_at(
                                file,
                                text,
                                at,
                                Some(card),
                                format!(
                                    "{section}: `{card} = {n}`: a count of copies must be 1 to {MAX_COPY}"
                                ),
                            ));
                        }
                        (1..=*n).collect()
                    }
                    RawCopies::Copies(list) => list.clone(),
                };
                if copies.is_empty() {
                    return Err(err_at(
                        file,
                        text,
                        at,
                        Some(card),
                        format!("{section}: `{card}` lists no copies"),
                    ));
                }
                for c in copies {
                    let copy = u16::try_from(c)
                        .ok()
                        .filter(|c| (1..=MAX_COPY).contains(c))
                        .ok_or_else(|| {
                            err_at(
                                file,
                                text,
                                at,
                                Some(card),
                                format!(
                                    "{section}: `{card}` copy {c}: copy numbers run from 1 to {MAX_COPY}"
                                ),
                            )
                        })?;
                    out.push(CopyRef {
                        card: card.clone(),
                        copy,
                    });
                }
            }
            Ok(out)
        };
        let mut main = section("main", &raw.main)?;
        let mut extra = section("extra", &raw.extra)?;
        main.sort();
        extra.sort();
        let mut seen = BTreeMap::new();
        for c in main.iter().chain(&extra) {
            if seen.insert(c.clone(), ()).is_some() {
                return Err(err_at(
                    file,
                    text,
                    field_offset(text, &c.card),
                    Some(&c.card),
                    format!("copy {c} is listed twice (a physical card is in one place only)"),
                ));
            }
        }
        Ok(Deck {
            game,
            set: raw.set,
            name: raw.name,
            owner: raw.owner,
            variant: raw.variant,
            main,
            extra,
        })
    }

    /// A catalogue's ready-made deck as a deck of physical copies, numbering the copies of each
    /// card 1, 2, … on from the set's lists before it (in id order), so that the lists of a set
    /// are distinct physical cards. The game says ([`crate::games::ListDeck`]) which cards go to the extra deck
    /// (JUNK-KEN's awakening and field cards) and whose the deck is (a Space Junk list is the
    /// table's shared pile, owner `table` whatever `owner` says, its character pool when it
    /// holds characters).
    pub fn from_list(catalogue: &Catalogue, list_id: &str, owner: &str) -> Option<Deck> {
        let rules = catalogue.game.descriptor().list_deck;
        let list = catalogue.deck(list_id)?;
        let mut main = Vec::new();
        let mut extra = Vec::new();
        let mut count: BTreeMap<&str, u16> = BTreeMap::new();
        // The set's lists share one box of physical cards: a card's copies are numbered on
        // from the lists before this one, so no two lists of a set name the same copy.
        for other in catalogue.decks.iter().take_while(|d| d.id != list.id) {
            for id in &other.cards {
                *count.entry(id.as_str()).or_default() += 1;
            }
        }
        let mut cards = Vec::new();
        for id in &list.cards {
            let n = count.entry(id.as_str()).or_default();
            *n = n.saturating_add(1);
            let copy = CopyRef {
                card: id.clone(),
                copy: *n,
            };
            let card = catalogue.card(id);
            cards.extend(card);
            if card.is_some_and(rules.is_extra) {
                extra.push(copy);
            } else {
                main.push(copy);
            }
        }
        main.sort();
        extra.sort();
        let (owner, variant) = (rules.owner)(&cards, owner);
        Some(Deck {
            game: catalogue.game,
            set: catalogue.set.id.clone(),
            name: list.name.clone(),
            owner,
            variant,
            main,
            extra,
        })
    }

    /// Every copy, main deck then extra deck.
    pub fn copies(&self) -> impl Iterator<Item = &CopyRef> {
        self.main.iter().chain(&self.extra)
    }

    /// The card ids of the main deck, one per copy (sorted).
    pub fn main_ids(&self) -> Vec<String> {
        self.main.iter().map(|c| c.card.clone()).collect()
    }

    /// The card ids of the extra deck, one per copy (sorted).
    pub fn extra_ids(&self) -> Vec<String> {
        self.extra.iter().map(|c| c.card.clone()).collect()
    }

    /// The deck as a deck file ([`Deck::load`] reads it back as the same deck): each card's
    /// copies as a count when they are 1 to n, else as the list of copy numbers.
    pub fn to_toml(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let key = |s: &str| {
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                s.to_owned()
            } else {
                quote(s)
            }
        };
        let mut out = format!(
            "format = {FORMAT_VERSION}\ngame = {}\nset = {}\nname = {}\nowner = {}\n",
            quote(self.game.as_str()),
            quote(&self.set),
            quote(&self.name),
            quote(&self.owner)
        );
        if let Some(v) = &self.variant {
            out.push_str(&format!("variant = {}\n", quote(v)));
        }
        for (section, copies) in [("main", &self.main), ("extra", &self.extra)] {
            if copies.is_empty() && section == "extra" {
                continue;
            }
            out.push_str(&format!("\n[{section}]\n"));
            let mut by_card: BTreeMap<&str, Vec<u16>> = BTreeMap::new();
            for c in copies {
                by_card.entry(c.card.as_str()).or_default().push(c.copy);
            }
            for (card, mut numbers) in by_card {
                numbers.sort_unstable();
                let counted = numbers
                    .iter()
                    .enumerate()
                    .all(|(i, n)| usize::from(*n) == i + 1);
                let value = if counted {
                    numbers.len().to_string()
                } else {
                    let list: Vec<String> = numbers.iter().map(u16::to_string).collect();
                    format!("[{}]", list.join(", "))
                };
                out.push_str(&format!("{} = {value}\n", key(card)));
            }
        }
        out
    }

    /// The tags of every copy.
    pub fn tags(&self) -> Vec<Tag> {
        self.copies()
            .map(|c| Tag {
                game: self.game,
                card: c.card.clone(),
                copy: c.copy,
            })
            .collect()
    }

    /// Checks the deck against its catalogue and its game's construction rules. `Err` when the
    /// deck cannot be checked against this catalogue at all (another game or set, unknown cards);
    /// otherwise every broken construction rule, each with its own sentence (empty: legal).
    pub fn check(&self, catalogue: &Catalogue) -> Result<Vec<Violation>, DeckError> {
        if catalogue.game != self.game {
            return Err(DeckError::WrongGame {
                deck: self.game,
                catalogue: catalogue.game,
            });
        }
        if catalogue.set.id != self.set {
            return Err(DeckError::WrongSet {
                deck: self.set.clone(),
                catalogue: catalogue.set.id.clone(),
            });
        }
        let mut unknown: Vec<String> = self
            .copies()
            .filter(|c| catalogue.card(&c.card).is_none())
            .map(|c| c.card.clone())
            .collect();
        unknown.dedup();
        if !unknown.is_empty() {
            return Err(DeckError::UnknownCards {
                set: self.set.clone(),
                cards: unknown,
            });
        }
        let mut problems = Vec::new();
        let too_long: Vec<&str> = self
            .copies()
            .map(|c| c.card.as_str())
            .filter(|id| id.len() > crate::tags::MAX_CARD_ID)
            .collect();
        if !too_long.is_empty() {
            problems.push(
                Violation::new(
                    "deck.tag-id",
                    format!(
                        "Card ids longer than {} characters cannot be tagged: {}.",
                        crate::tags::MAX_CARD_ID,
                        too_long.join(", ")
                    ),
                    "docs/catalogue.md (tags)",
                )
                .ja(format!(
                    "{}文字より長いカードIDはタグにできません: {}。",
                    crate::tags::MAX_CARD_ID,
                    too_long.join(", ")
                )),
            );
        }
        problems.extend((self.game.descriptor().check_deck)(self, catalogue));
        Ok(problems)
    }
}

/// The violation for a variant name a game does not have.
pub fn unknown_variant(game: GameId, variant: &str, known: &[&str]) -> Violation {
    let (known, known_ja) = if known.is_empty() {
        ("none".to_owned(), "なし".to_owned())
    } else {
        (known.join(", "), known.join(", "))
    };
    Violation::new(
        "deck.variant",
        format!("{game} has no deck variant `{variant}` (variants: {known})."),
        "docs/decks.md",
    )
    .ja(format!(
        "{game} にデッキの種類 `{variant}` はありません(種類: {known_ja})。"
    ))
}

/// Why a deck cannot be checked against a catalogue, or registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// The deck is for another game than the catalogue.
    #[error("the deck is a {deck} deck, the catalogue is for {catalogue}")]
    WrongGame {
        /// The deck's game.
        deck: GameId,
        /// The catalogue's game.
        catalogue: GameId,
    },
    /// The deck names another set.
    #[error("the deck uses set `{deck}`, the catalogue is set `{catalogue}`")]
    WrongSet {
        /// The deck's set.
        deck: String,
        /// The catalogue's set.
        catalogue: String,
    },
    /// Cards the catalogue does not have.
    #[error("set `{set}` has no card {}", cards.join(", "))]
    UnknownCards {
        /// The set.
        set: String,
        /// The unknown ids.
        cards: Vec<String>,
    },
    /// A copy already belongs to another registered deck.
    #[error("{card} #{copy} is already registered to {owner}'s deck “{deck}”")]
    CopyTaken {
        /// The card.
        card: String,
        /// The copy.
        copy: u16,
        /// The owner it is registered to.
        owner: String,
        /// That deck's name.
        deck: String,
    },
    /// The owner already has a registered deck of that name for that game.
    #[error("{owner} already has a registered {game} deck named “{name}”")]
    NameTaken {
        /// The game.
        game: GameId,
        /// The owner.
        owner: String,
        /// The deck name.
        name: String,
    },
}

impl DeckError {
    /// The problem in Japanese.
    pub fn ja(&self) -> String {
        match self {
            DeckError::WrongGame { deck, catalogue } => {
                format!("このデッキは {deck} のデッキですが、カタログは {catalogue} のものです")
            }
            DeckError::WrongSet { deck, catalogue } => format!(
                "このデッキはセット `{deck}` のものですが、カタログはセット `{catalogue}` です"
            ),
            DeckError::UnknownCards { set, cards } => {
                format!("セット `{set}` にカード {} はありません", cards.join(", "))
            }
            DeckError::CopyTaken {
                card,
                copy,
                owner,
                deck,
            } => format!("{card} #{copy} はすでに{owner}さんのデッキ「{deck}」に登録されています"),
            DeckError::NameTaken { game, owner, name } => {
                format!("{owner}さんにはすでに「{name}」という名前の {game} の登録デッキがあります")
            }
        }
    }
}

/// Whose a registered copy is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    /// The owner's name.
    pub owner: String,
    /// The deck's name.
    pub deck: String,
}

/// The registered decks: every physical copy bound to its owner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registry {
    copies: BTreeMap<(GameId, String, u16), Registration>,
    decks: BTreeMap<(GameId, String, String), Deck>,
}

impl Registry {
    /// Registers a deck; refused (and nothing changed) if any of its copies is already registered,
    /// or its owner has a deck of that name for that game.
    pub fn register(&mut self, deck: &Deck) -> Result<(), DeckError> {
        let key = (deck.game, deck.owner.clone(), deck.name.clone());
        if self.decks.contains_key(&key) {
            return Err(DeckError::NameTaken {
                game: deck.game,
                owner: deck.owner.clone(),
                name: deck.name.clone(),
            });
        }
        for c in deck.copies() {
            if let Some(r) = self.copies.get(&(deck.game, c.card.clone(), c.copy)) {
                return Err(DeckError::CopyTaken {
                    card: c.card.clone(),
                    copy: c.copy,
                    owner: r.owner.clone(),
                    deck: r.deck.clone(),
                });
            }
        }
        for c in deck.copies() {
            self.copies.insert(
                (deck.game, c.card.clone(), c.copy),
                Registration {
                    owner: deck.owner.clone(),
                    deck: deck.name.clone(),
                },
            );
        }
        self.decks.insert(key, deck.clone());
        Ok(())
    }

    /// Removes a registered deck, freeing its copies; returns it.
    pub fn unregister(&mut self, game: GameId, owner: &str, name: &str) -> Option<Deck> {
        let deck = self
            .decks
            .remove(&(game, owner.to_owned(), name.to_owned()))?;
        for c in deck.copies() {
            self.copies.remove(&(game, c.card.clone(), c.copy));
        }
        Some(deck)
    }

    /// Whose this scanned copy is, if it is registered.
    pub fn owner(&self, tag: &Tag) -> Option<&Registration> {
        self.copies.get(&(tag.game, tag.card.clone(), tag.copy))
    }

    /// The registered decks, sorted by game, owner and name.
    pub fn decks(&self) -> impl Iterator<Item = &Deck> {
        self.decks.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_written_as_a_file_reads_back_as_the_same_deck() {
        let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
        for list in &cat.decks {
            let mut deck = Deck::from_list(&cat, &list.id, "Aki \"the bold\"").unwrap();
            let first = deck.main[0].card.clone();
            deck.main.retain(|c| c.copy != 1 || c.card != first);
            let back = Deck::load("d.toml", &deck.to_toml()).unwrap();
            assert_eq!(back, deck, "{}", deck.to_toml());
        }
    }

    const HEAD: &str =
        "format = 1\ngame = \"jaken\"\nset = \"jaken-demo\"\nname = \"D\"\nowner = \"Aki\"\n";

    #[test]
    fn count_and_list_give_copies() {
        let d = Deck::load(
            "d.toml",
            &format!("{HEAD}[main]\nJD01 = 2\nJD02 = [3, 5]\n"),
        )
        .unwrap();
        let got: Vec<String> = d.main.iter().map(ToString::to_string).collect();
        assert_eq!(got, ["JD01 #1", "JD01 #2", "JD02 #3", "JD02 #5"]);
    }

    #[test]
    fn copy_listed_twice_is_refused() {
        let err = Deck::load("d.toml", &format!("{HEAD}[main]\nJD01 = [1, 1]\n")).unwrap_err();
        assert!(err.message.contains("JD01 #1"), "{err}");
        assert_eq!(err.line, 7, "{err}");
    }

    #[test]
    fn bad_copy_number_names_line_and_card() {
        let err = Deck::load("d.toml", &format!("{HEAD}[main]\nJD01 = [0]\n")).unwrap_err();
        assert_eq!((err.line, err.field.as_deref()), (7, Some("JD01")), "{err}");
        let err = Deck::load("d.toml", &format!("{HEAD}[main]\nJD01 = \"two\"\n")).unwrap_err();
        assert_eq!(err.line, 7, "{err}");
    }

    #[test]
    fn missing_owner_is_refused() {
        let err = Deck::load(
            "d.toml",
            "format = 1\ngame = \"jaken\"\nset = \"s\"\nname = \"D\"\n",
        )
        .unwrap_err();
        assert_eq!(err.field.as_deref(), Some("owner"), "{err}");
    }

    #[test]
    fn unknown_cards_and_other_games_cannot_be_checked() {
        let cat = Catalogue::jaken_demo().unwrap();
        let d = Deck::load("d.toml", &format!("{HEAD}[main]\nNOPE = 1\n")).unwrap();
        assert!(matches!(d.check(&cat), Err(DeckError::UnknownCards { .. })));
        let mut d = d;
        d.game = GameId::Yomi;
        assert!(matches!(d.check(&cat), Err(DeckError::WrongGame { .. })));
    }

    #[test]
    fn every_ready_made_deck_of_every_demo_set_is_legal() {
        for game in GameId::ALL {
            let cat = Catalogue::builtin(game).unwrap();
            assert!(!cat.decks.is_empty(), "{game}");
            for list in &cat.decks {
                let deck = Deck::from_list(&cat, &list.id, "Aki").unwrap();
                let problems = deck.check(&cat).unwrap();
                assert!(problems.is_empty(), "{game} {}: {problems:?}", list.id);
                assert_eq!(deck.copies().count(), list.cards.len());
            }
        }
    }

    #[test]
    fn registering_frees_on_unregister() {
        let d = Deck::load("d.toml", &format!("{HEAD}[main]\nJD01 = 2\n")).unwrap();
        let mut r = Registry::default();
        r.register(&d).unwrap();
        assert!(matches!(r.register(&d), Err(DeckError::NameTaken { .. })));
        let mut e = d.clone();
        e.name = "E".into();
        assert!(matches!(
            r.register(&e),
            Err(DeckError::CopyTaken { copy: 1, .. })
        ));
        assert!(r.unregister(GameId::Jaken, "Aki", "D").is_some());
        r.register(&e).unwrap();
        let tag = Tag {
            game: GameId::Jaken,
            card: "JD01".into(),
            copy: 2,
        };
        assert_eq!(r.owner(&tag).map(|o| o.deck.as_str()), Some("E"));
    }
}
