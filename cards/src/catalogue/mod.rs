//! The card catalogue: one TOML file per game and set.
//!
//! A catalogue names its game and set, lists its cards with Japanese and English names, the rules
//! text shown to players, and the numbers the rules use; it may also list ready-made decks. The
//! loader takes the file's *text* and its name (it reads no file itself) and reports every problem
//! with the file, line, column and field:
//!
//! ```
//! let text = r#"
//! format = 1
//! game = "jaken"
//! [set]
//! id = "mini"
//! name_en = "Mini"
//! name_ja = "ミニ"
//! [[cards]]
//! id = "X1"
//! name_ja = "灯り小僧"
//! name_en = "Lantern Imp"
//! kind = "em"
//! cost = 1
//! atk = 2
//! def = 1
//! tribe = "暗灯族"
//! "#;
//! let err = cards::catalogue::Catalogue::load("mini.toml", text).unwrap_err();
//! assert_eq!(err.line, 12); // the `kind = "em"` line: an effect monster needs a wind
//! assert_eq!(err.field.as_deref(), Some("wind"));
//! ```

pub mod csv;
pub mod ja;
// The old paths of each game's card schema (the cards now live in `games/<game>/`).
pub mod jaken;
pub mod junk_ken;
pub mod rockman;
pub mod space_junk;
pub mod yomi;

pub use crate::games::jaken::card::{JakenBattleGround, JakenCard, JakenMonster, Wind};
pub use crate::games::junk_ken::card::JunkKenCard;
pub use crate::games::rockman::card::RockmanCard;
pub use crate::games::space_junk::card::SpaceJunkCard;
pub use crate::games::yomi::card::YomiCard;

use crate::core::GameId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// The catalogue format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// The Jaken demo set, embedded in the binary.
pub const JAKEN_DEMO_TOML: &str = crate::games::jaken::demo::TOML;

/// The catalogues built into this build: (file name, TOML text), one demo set per game, in the
/// order of [`GameId::ALL`] (each game's descriptor names its own, `GameDescriptor::demo`).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        crate::games::jaken::demo::FILE,
        crate::games::jaken::demo::TOML,
    ),
    (
        crate::games::junk_ken::demo::FILE,
        crate::games::junk_ken::demo::TOML,
    ),
    (
        crate::games::rockman::demo::FILE,
        crate::games::rockman::demo::TOML,
    ),
    (
        crate::games::space_junk::demo::FILE,
        crate::games::space_junk::demo::TOML,
    ),
    (
        crate::games::yomi::demo::FILE,
        crate::games::yomi::demo::TOML,
    ),
];

/// An embedded demo catalogue: its name in errors and its TOML text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DemoSet {
    /// The name errors give the text, e.g. `jaken-demo.toml (embedded)`.
    pub file: &'static str,
    /// The catalogue, as TOML.
    pub text: &'static str,
}

/// A problem in a catalogue file, located to the line and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CatalogueError {
    /// The file's name as given to the loader.
    pub file: String,
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column of the problem.
    pub column: usize,
    /// The field concerned, when one is.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl CatalogueError {
    /// The problem in Japanese, at the same place ([`ja::message_ja`]).
    pub fn ja(&self) -> String {
        let mut out = format!("{}:{}:{}: ", self.file, self.line, self.column);
        if let Some(field) = &self.field {
            out.push_str(&format!("欄 `{field}`: "));
        }
        out.push_str(&ja::message_ja(&self.message));
        out
    }
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// The game-specific numbers of a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "kebab-case")]
pub enum CardData {
    /// A Jaken card.
    Jaken(JakenCard),
    /// A JUNK-KEN card.
    JunkKen(JunkKenCard),
    /// A Rockman EXE card.
    RockmanExe(RockmanCard),
    /// A Space Junk card.
    SpaceJunk(SpaceJunkCard),
    /// A Yomi card.
    Yomi(YomiCard),
}

/// One card of a catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// Id within the set, e.g. `JD07`.
    pub id: String,
    /// Japanese name as printed.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Rules text, shown to players for effects they resolve themselves.
    pub text: String,
    /// Flavour text.
    pub flavor: String,
    /// The numbers the rules use.
    pub data: CardData,
}

impl Card {
    /// The Jaken data of this card, if it is a Jaken card.
    pub fn jaken(&self) -> Option<&JakenCard> {
        match &self.data {
            CardData::Jaken(c) => Some(c),
            _ => None,
        }
    }

    /// The JUNK-KEN data of this card, if it is a JUNK-KEN card.
    pub fn junk_ken(&self) -> Option<&JunkKenCard> {
        match &self.data {
            CardData::JunkKen(c) => Some(c),
            _ => None,
        }
    }

    /// The Rockman EXE data of this card, if it is a Rockman EXE card.
    pub fn rockman(&self) -> Option<&RockmanCard> {
        match &self.data {
            CardData::RockmanExe(c) => Some(c),
            _ => None,
        }
    }

    /// The Space Junk data of this card, if it is a Space Junk card.
    pub fn space_junk(&self) -> Option<&SpaceJunkCard> {
        match &self.data {
            CardData::SpaceJunk(c) => Some(c),
            _ => None,
        }
    }

    /// The Yomi data of this card, if it is a Yomi card.
    pub fn yomi(&self) -> Option<&YomiCard> {
        match &self.data {
            CardData::Yomi(c) => Some(c),
            _ => None,
        }
    }

    /// The name in the requested language (`ja` or anything else for English).
    pub fn name(&self, lang: &str) -> &str {
        if lang == "ja" {
            &self.name_ja
        } else {
            &self.name_en
        }
    }
}

/// A ready-made deck listed in a catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckList {
    /// Id within the set, e.g. `lantern`.
    pub id: String,
    /// A name for the players (in the catalogue's language).
    pub name: String,
    /// The name in Japanese, where the catalogue gives one (`name_ja`; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name_ja: String,
    /// Card ids, one per physical copy.
    pub cards: Vec<String>,
}

impl DeckList {
    /// The name in the requested language (`ja` or anything else for `name`): the Japanese
    /// one where the catalogue gives it, else `name`.
    pub fn name_in(&self, lang: &str) -> &str {
        if lang == "ja" && !self.name_ja.is_empty() {
            &self.name_ja
        } else {
            &self.name
        }
    }
}

/// Who made the set and what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetInfo {
    /// Set id, e.g. `jaken-demo`.
    pub id: String,
    /// English set name.
    pub name_en: String,
    /// Japanese set name.
    pub name_ja: String,
    /// True for a set made for this app (not official cards).
    pub demo: bool,
    /// A note shown with the set, e.g. where it comes from.
    pub note: String,
    /// The note in Japanese, where the catalogue gives one (`note_ja`; empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note_ja: String,
}

impl SetInfo {
    /// The set's name in the requested language (`ja` or anything else for English).
    pub fn name_in(&self, lang: &str) -> &str {
        if lang == "ja" {
            &self.name_ja
        } else {
            &self.name_en
        }
    }

    /// The note in the requested language (`ja` or anything else for `note`): the Japanese
    /// one where the catalogue gives it, else `note`.
    pub fn note_in(&self, lang: &str) -> &str {
        if lang == "ja" && !self.note_ja.is_empty() {
            &self.note_ja
        } else {
            &self.note
        }
    }
}

/// A loaded catalogue: one game's set of cards and decks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalogue {
    /// The game.
    pub game: GameId,
    /// The set.
    pub set: SetInfo,
    /// Cards sorted by id.
    pub cards: Vec<Card>,
    /// Decks sorted by id.
    pub decks: Vec<DeckList>,
}

/// The file with the cards still as generic TOML: read first, to learn the game.
#[derive(Deserialize)]
struct RawHead {
    format: u32,
    game: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound = "C: serde::de::DeserializeOwned")]
struct RawFile<C> {
    #[allow(dead_code)]
    format: u32,
    #[allow(dead_code)]
    game: String,
    set: RawSet,
    #[serde(default = "Vec::new")]
    cards: Vec<toml::Spanned<C>>,
    #[serde(default)]
    decks: Vec<toml::Spanned<RawDeck>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    id: String,
    name_en: String,
    name_ja: String,
    #[serde(default)]
    demo: bool,
    #[serde(default)]
    note: String,
    #[serde(default)]
    note_ja: String,
}

/// The fields every card has, whatever its game.
pub(crate) struct Common<'a> {
    pub(crate) id: &'a str,
    pub(crate) name_ja: &'a str,
    pub(crate) name_en: &'a str,
    pub(crate) text: &'a str,
    pub(crate) flavor: &'a str,
}

/// A game's card as read from TOML (its own fields plus the common ones).
pub(crate) trait RawCard: serde::de::DeserializeOwned {
    /// The common fields.
    fn common(&self) -> Common<'_>;
    /// Checks the game's fields and builds the card's data.
    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError>;

    /// Checks what links cards of the set (e.g. an evolution names a card of the set), once
    /// every card has been built.
    fn check_set(_ctx: &Ctx<'_>, _cards: &[toml::Spanned<Self>]) -> Result<(), CatalogueError> {
        Ok(())
    }
}

/// Declares a game's raw card struct: the common fields (`id`, `name_ja`, `name_en`, `text`,
/// `flavor`) plus the listed ones, unknown fields refused.
macro_rules! raw_card {
    ($name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct $name {
            pub(crate) id: String,
            pub(crate) name_ja: String,
            pub(crate) name_en: String,
            #[serde(default)]
            pub(crate) text: String,
            #[serde(default)]
            pub(crate) flavor: String,
            $($(#[$fm])* pub(crate) $field: $ty,)*
        }
        impl $name {
            fn common_fields(&self) -> $crate::catalogue::Common<'_> {
                $crate::catalogue::Common {
                    id: &self.id,
                    name_ja: &self.name_ja,
                    name_en: &self.name_en,
                    text: &self.text,
                    flavor: &self.flavor,
                }
            }
        }
    };
}
pub(crate) use raw_card;

/// A byte range in the catalogue text.
pub(crate) type Span = std::ops::Range<usize>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    id: String,
    name: String,
    #[serde(default)]
    name_ja: String,
    cards: Vec<String>,
}

/// 1-based line and column (in characters) of a byte offset in a text: where a TOML error is,
/// for the catalogue, deck, mat layout and config loaders alike.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |nl| {
        before[nl + 1..].chars().count()
    }) + 1;
    (line, column)
}

/// The file being loaded, for locating errors.
pub(crate) struct Ctx<'a> {
    /// The file's name as given to the loader.
    pub(crate) file: &'a str,
    /// The file's text.
    pub(crate) text: &'a str,
    /// The text as parsed TOML, when [`Catalogue::load`] has parsed it to read the head: the
    /// game's loader takes it instead of parsing the text a second time.
    pub(crate) doc: std::cell::Cell<Option<toml::Spanned<toml::de::DeTable<'a>>>>,
}

impl Ctx<'_> {
    /// An error at a byte offset.
    pub(crate) fn err(
        &self,
        offset: usize,
        field: Option<&str>,
        message: impl Into<String>,
    ) -> CatalogueError {
        let (line, column) = line_col(self.text, offset);
        CatalogueError {
            file: self.file.to_owned(),
            line,
            column,
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }

    /// Offset of `key =` inside the span of a table, or the table's start.
    pub(crate) fn field_offset(&self, span: &Span, key: &str) -> usize {
        // A table's span may cover only its `[[header]]`: read on to the next header.
        let body = self.text.get(span.start..).unwrap_or("");
        let mut pos = 0;
        for (i, line) in body.split_inclusive('\n').enumerate() {
            let trimmed = line.trim_start();
            if i > 0 && trimmed.starts_with('[') {
                break;
            }
            if let Some(rest) = trimmed.strip_prefix(key)
                && rest.trim_start().starts_with('=')
            {
                return span.start + pos + (line.len() - trimmed.len());
            }
            pos += line.len();
        }
        span.start
    }
}

impl Ctx<'_> {
    /// An error about `field` of the card whose table is at `span`.
    pub(crate) fn field_err(
        &self,
        span: &Span,
        field: &str,
        message: impl Into<String>,
    ) -> CatalogueError {
        self.err(self.field_offset(span, field), Some(field), message)
    }

    /// Fails unless a field that this kind of card needs is present.
    pub(crate) fn need<T>(
        &self,
        span: &Span,
        card: &str,
        kind: &str,
        field: &str,
        value: &Option<T>,
    ) -> Result<(), CatalogueError> {
        if value.is_some() {
            Ok(())
        } else {
            Err(self.err(
                self.field_offset(span, "kind"),
                Some(field),
                format!("card `{card}` ({kind}) needs `{field}`"),
            ))
        }
    }

    /// Fails if a field that this kind of card does not have is present.
    pub(crate) fn forbid<T>(
        &self,
        span: &Span,
        card: &str,
        kind: &str,
        field: &str,
        value: &Option<T>,
    ) -> Result<(), CatalogueError> {
        if value.is_some() {
            Err(self.field_err(
                span,
                field,
                format!("card `{card}` is of kind `{kind}`, which has no `{field}`"),
            ))
        } else {
            Ok(())
        }
    }

    /// Fails unless `value` lies in `range`.
    pub(crate) fn in_range<T: PartialOrd + fmt::Display + Copy>(
        &self,
        span: &Span,
        field: &str,
        value: T,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<(), CatalogueError> {
        if range.contains(&value) {
            Ok(())
        } else {
            Err(self.field_err(
                span,
                field,
                format!(
                    "{field} {value} is outside {}..={}",
                    range.start(),
                    range.end()
                ),
            ))
        }
    }
}

fn toml_err(ctx: &Ctx<'_>, e: &toml::de::Error) -> CatalogueError {
    let offset = e.span().map_or(0, |s| s.start);
    let message = e.message().to_owned();
    let field = message
        .split('`')
        .nth(1)
        .filter(|_| message.contains("field"))
        .map(str::to_owned);
    let mut err = ctx.err(offset, None, message);
    err.field = field;
    err
}

impl Catalogue {
    /// Loads a catalogue from its text; `file` names it in errors.
    pub fn load(file: &str, text: &str) -> Result<Catalogue, CatalogueError> {
        let mut ctx = Ctx {
            file,
            text,
            doc: std::cell::Cell::new(None),
        };
        // Parsed once: the head is read from its two keys, and the game's loader reads the
        // whole document from the same tree (a 5,000-card file is about 1 MB of TOML).
        let doc = toml::de::DeTable::parse(text).map_err(|e| toml_err(&ctx, &e))?;
        let mut head_keys = toml::de::DeTable::new();
        for (key, value) in doc.get_ref() {
            if matches!(key.get_ref().as_ref(), "format" | "game") {
                head_keys.insert(key.clone(), value.clone());
            }
        }
        let head = RawHead::deserialize(toml::de::Deserializer::from(toml::Spanned::new(
            doc.span(),
            head_keys,
        )))
        .map_err(|e| toml_err(&ctx, &e))?;
        ctx.doc = std::cell::Cell::new(Some(doc));
        if head.format != FORMAT_VERSION {
            return Err(ctx.err(
                ctx.field_offset(&(0..text.len()), "format"),
                Some("format"),
                format!(
                    "catalogue format {} is not supported (this build reads format {FORMAT_VERSION})",
                    head.format
                ),
            ));
        }
        let game = GameId::parse(&head.game).ok_or_else(|| {
            ctx.err(
                ctx.field_offset(&(0..text.len()), "game"),
                Some("game"),
                format!(
                    "unknown game `{}` (expected one of: {})",
                    head.game,
                    GameId::ALL.map(GameId::as_str).join(", ")
                ),
            )
        })?;
        (game.descriptor().load)(&ctx)
    }

    /// The embedded demo set of a game (made for Tableside, not official cards).
    pub fn builtin(game: GameId) -> Result<Catalogue, CatalogueError> {
        let demo = game.descriptor().demo;
        Catalogue::load(demo.file, demo.text)
    }

    /// The embedded Jaken demo set.
    pub fn jaken_demo() -> Result<Catalogue, CatalogueError> {
        Catalogue::builtin(GameId::Jaken)
    }

    /// The card with this id.
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards
            .binary_search_by(|c| c.id.as_str().cmp(id))
            .ok()
            .and_then(|i| self.cards.get(i))
    }

    /// The deck with this id.
    pub fn deck(&self, id: &str) -> Option<&DeckList> {
        self.decks.iter().find(|d| d.id == id)
    }
}

/// Reads the cards and decks of a catalogue of `game`, each card through the game's raw card
/// type `C`; the head (format, game) has been checked.
pub(crate) fn load_cards<C: RawCard>(
    ctx: &Ctx<'_>,
    game: GameId,
) -> Result<Catalogue, CatalogueError> {
    let raw: RawFile<C> = match ctx.doc.take() {
        Some(doc) => RawFile::deserialize(toml::de::Deserializer::from(doc)),
        None => toml::from_str(ctx.text),
    }
    .map_err(|e| toml_err(ctx, &e))?;
    let mut cards = Vec::with_capacity(raw.cards.len());
    let mut ids = BTreeSet::new();
    for spanned in &raw.cards {
        let span = spanned.span();
        let rc = spanned.get_ref();
        let common = rc.common();
        if common.id.trim().is_empty()
            || !common
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ctx.field_err(
                &span,
                "id",
                format!(
                    "card id `{}` must be non-empty and use only letters, digits, `-` and `_`",
                    common.id
                ),
            ));
        }
        if !ids.insert(common.id.to_owned()) {
            return Err(ctx.field_err(
                &span,
                "id",
                format!("card id `{}` appears twice", common.id),
            ));
        }
        let data = rc.build(ctx, &span)?;
        cards.push(Card {
            id: common.id.to_owned(),
            name_ja: common.name_ja.to_owned(),
            name_en: common.name_en.to_owned(),
            text: common.text.to_owned(),
            flavor: common.flavor.to_owned(),
            data,
        });
    }
    C::check_set(ctx, &raw.cards)?;
    cards.sort_by(|a, b| a.id.cmp(&b.id));
    let mut decks = Vec::with_capacity(raw.decks.len());
    let mut deck_ids = BTreeSet::new();
    for spanned in &raw.decks {
        let span = spanned.span();
        let rd = spanned.get_ref();
        if !deck_ids.insert(rd.id.clone()) {
            return Err(ctx.field_err(&span, "id", format!("deck id `{}` appears twice", rd.id)));
        }
        if let Some(unknown) = rd.cards.iter().find(|c| !ids.contains(*c)) {
            return Err(ctx.field_err(
                &span,
                "cards",
                format!(
                    "deck `{}` names card `{unknown}`, which is not in this catalogue",
                    rd.id
                ),
            ));
        }
        decks.push(DeckList {
            id: rd.id.clone(),
            name: rd.name.clone(),
            name_ja: rd.name_ja.clone(),
            cards: rd.cards.clone(),
        });
    }
    decks.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Catalogue {
        game,
        set: SetInfo {
            id: raw.set.id,
            name_en: raw.set.name_en,
            name_ja: raw.set.name_ja,
            demo: raw.set.demo,
            note: raw.set.note,
            note_ja: raw.set.note_ja,
        },
        cards,
        decks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_set_loads_with_every_kind_and_wind() {
        let cat = Catalogue::jaken_demo().unwrap();
        assert!(cat.set.demo);
        assert!(cat.cards.len() >= 24);
        let monsters: Vec<_> = cat
            .cards
            .iter()
            .filter_map(|c| match c.jaken() {
                Some(JakenCard::Monster(m)) => Some(m),
                _ => None,
            })
            .collect();
        assert!(monsters.iter().any(|m| m.wind.is_none()));
        for w in [Wind::Jicha, Wind::Tacha, Wind::Ryancha] {
            assert!(monsters.iter().any(|m| m.wind == Some(w)), "{w:?}");
        }
        assert!(
            cat.cards
                .iter()
                .any(|c| matches!(c.jaken(), Some(JakenCard::BattleGround(_))))
        );
        assert!(cat.decks.len() >= 2);
    }

    #[test]
    fn syntax_error_names_line() {
        let err = Catalogue::load("x.toml", "format = 1\ngame = \"jaken\"\n[set\n").unwrap_err();
        assert_eq!(err.file, "x.toml");
        assert_eq!(err.line, 3);
    }

    #[test]
    fn wrong_type_names_line_and_field() {
        let text = "format = 1\ngame = \"jaken\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n[[cards]]\nid = \"A\"\nname_ja = \"a\"\nname_en = \"a\"\nkind = \"nm\"\ncost = \"three\"\n";
        let err = Catalogue::load("x.toml", text).unwrap_err();
        assert_eq!(err.line, 12, "{err}");
        assert!(err.to_string().contains("x.toml:12"), "{err}");
    }

    #[test]
    fn unknown_wind_names_line_and_field() {
        let text = "format = 1\ngame = \"jaken\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n[[cards]]\nid = \"A\"\nname_ja = \"a\"\nname_en = \"a\"\nkind = \"em\"\ncost = 1\natk = 1\ndef = 1\ntribe = \"t\"\nwind = \"east\"\n";
        let err = Catalogue::load("x.toml", text).unwrap_err();
        assert_eq!(
            (err.line, err.field.as_deref()),
            (16, Some("wind")),
            "{err}"
        );
    }

    #[test]
    fn deck_with_unknown_card_is_refused() {
        let text = "format = 1\ngame = \"jaken\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n[[decks]]\nid = \"d\"\nname = \"D\"\ncards = [\"NOPE\"]\n";
        let err = Catalogue::load("x.toml", text).unwrap_err();
        assert_eq!(
            (err.line, err.field.as_deref()),
            (10, Some("cards")),
            "{err}"
        );
        assert!(err.message.contains("NOPE"));
    }

    #[test]
    fn future_format_is_refused() {
        let err = Catalogue::load(
            "x.toml",
            "format = 9\ngame = \"jaken\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n",
        )
        .unwrap_err();
        assert_eq!((err.line, err.field.as_deref()), (1, Some("format")));
    }
}
