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

use crate::core::GameId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// The catalogue format version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// The Jaken demo set, embedded in the binary.
pub const JAKEN_DEMO_TOML: &str = include_str!("../data/jaken-demo.toml");

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

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// The wind (effect condition) of a Jaken effect monster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wind {
    /// 自家 (jicha): works only while its owner is the parent.
    Jicha,
    /// 他家 (tacha): works only while the opponent is the parent.
    Tacha,
    /// 両家 (ryancha): works whoever is the parent.
    Ryancha,
}

impl Wind {
    /// The printed term with its reading.
    pub fn label(self) -> &'static str {
        match self {
            Wind::Jicha => "自家 (jicha)",
            Wind::Tacha => "他家 (tacha)",
            Wind::Ryancha => "両家 (ryancha)",
        }
    }
}

/// A Jaken monster (NM, or EM when it has an effect).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JakenMonster {
    /// 召喚コスト: playable when cost ≤ the turn number.
    pub cost: u8,
    /// 攻撃力.
    pub atk: i32,
    /// 守備力.
    pub def: i32,
    /// 種族, e.g. 暗灯族.
    pub tribe: String,
    /// The effect's wind condition; `Some` for an effect monster (EM), `None` for a normal one (NM).
    pub wind: Option<Wind>,
}

/// A Jaken battle-ground (BG) card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JakenBattleGround {
    /// 対象種族: the BG works only for monsters of this tribe.
    pub target_tribe: String,
    /// How many uses the card allows before it is turned face down.
    pub use_limit: u8,
}

/// What a Jaken card is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum JakenCard {
    /// NM or EM.
    Monster(JakenMonster),
    /// BG.
    BattleGround(JakenBattleGround),
}

/// The game-specific numbers of a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "kebab-case")]
pub enum CardData {
    /// A Jaken card.
    Jaken(JakenCard),
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
    /// A name for the players.
    pub name: String,
    /// Card ids, one per physical copy.
    pub cards: Vec<String>,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    format: u32,
    game: String,
    set: RawSet,
    #[serde(default)]
    cards: Vec<toml::Spanned<RawCard>>,
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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    id: String,
    name_ja: String,
    name_en: String,
    kind: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    flavor: String,
    cost: Option<u8>,
    atk: Option<i32>,
    def: Option<i32>,
    tribe: Option<String>,
    wind: Option<String>,
    target_tribe: Option<String>,
    use_limit: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeck {
    id: String,
    name: String,
    cards: Vec<String>,
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |nl| {
        before[nl + 1..].chars().count()
    }) + 1;
    (line, column)
}

struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn err(
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
    fn field_offset(&self, span: &std::ops::Range<usize>, key: &str) -> usize {
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

impl Catalogue {
    /// Loads a catalogue from its text; `file` names it in errors.
    pub fn load(file: &str, text: &str) -> Result<Catalogue, CatalogueError> {
        let ctx = Ctx { file, text };
        let raw: RawFile = toml::from_str(text).map_err(|e| {
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
        })?;
        if raw.format != FORMAT_VERSION {
            return Err(ctx.err(
                ctx.field_offset(&(0..text.len()), "format"),
                Some("format"),
                format!(
                    "catalogue format {} is not supported (this build reads format {FORMAT_VERSION})",
                    raw.format
                ),
            ));
        }
        let game = GameId::parse(&raw.game).ok_or_else(|| {
            ctx.err(
                ctx.field_offset(&(0..text.len()), "game"),
                Some("game"),
                format!(
                    "unknown game `{}` (expected one of: {})",
                    raw.game,
                    GameId::ALL.map(GameId::as_str).join(", ")
                ),
            )
        })?;
        let mut cards = Vec::with_capacity(raw.cards.len());
        let mut ids = BTreeSet::new();
        for spanned in &raw.cards {
            let span = spanned.span();
            let rc = spanned.get_ref();
            if rc.id.trim().is_empty()
                || !rc
                    .id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(ctx.err(
                    ctx.field_offset(&span, "id"),
                    Some("id"),
                    format!(
                        "card id `{}` must be non-empty and use only letters, digits, `-` and `_`",
                        rc.id
                    ),
                ));
            }
            if !ids.insert(rc.id.clone()) {
                return Err(ctx.err(
                    ctx.field_offset(&span, "id"),
                    Some("id"),
                    format!("card id `{}` appears twice", rc.id),
                ));
            }
            let data = match game {
                GameId::Jaken => CardData::Jaken(jaken_card(&ctx, &span, rc)?),
                other => {
                    return Err(ctx.err(
                        ctx.field_offset(&(0..text.len()), "game"),
                        Some("game"),
                        format!("this build has no card schema for {other} yet"),
                    ));
                }
            };
            cards.push(Card {
                id: rc.id.clone(),
                name_ja: rc.name_ja.clone(),
                name_en: rc.name_en.clone(),
                text: rc.text.clone(),
                flavor: rc.flavor.clone(),
                data,
            });
        }
        cards.sort_by(|a, b| a.id.cmp(&b.id));
        let mut decks = Vec::with_capacity(raw.decks.len());
        let mut deck_ids = BTreeSet::new();
        for spanned in &raw.decks {
            let span = spanned.span();
            let rd = spanned.get_ref();
            if !deck_ids.insert(rd.id.clone()) {
                return Err(ctx.err(
                    ctx.field_offset(&span, "id"),
                    Some("id"),
                    format!("deck id `{}` appears twice", rd.id),
                ));
            }
            if let Some(unknown) = rd.cards.iter().find(|c| !ids.contains(*c)) {
                return Err(ctx.err(
                    ctx.field_offset(&span, "cards"),
                    Some("cards"),
                    format!(
                        "deck `{}` names card `{unknown}`, which is not in this catalogue",
                        rd.id
                    ),
                ));
            }
            decks.push(DeckList {
                id: rd.id.clone(),
                name: rd.name.clone(),
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
            },
            cards,
            decks,
        })
    }

    /// The embedded Jaken demo set.
    pub fn jaken_demo() -> Result<Catalogue, CatalogueError> {
        Catalogue::load("jaken-demo.toml (embedded)", JAKEN_DEMO_TOML)
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

fn jaken_card(
    ctx: &Ctx<'_>,
    span: &std::ops::Range<usize>,
    rc: &RawCard,
) -> Result<JakenCard, CatalogueError> {
    let need = |field: &str, present: bool| -> Result<(), CatalogueError> {
        if present {
            Ok(())
        } else {
            Err(ctx.err(
                ctx.field_offset(span, "kind"),
                Some(field),
                format!("card `{}` ({}) needs `{field}`", rc.id, rc.kind),
            ))
        }
    };
    let forbid = |field: &str, present: bool| -> Result<(), CatalogueError> {
        if present {
            Err(ctx.err(
                ctx.field_offset(span, field),
                Some(field),
                format!(
                    "card `{}` is of kind `{}`, which has no `{field}`",
                    rc.id, rc.kind
                ),
            ))
        } else {
            Ok(())
        }
    };
    match rc.kind.as_str() {
        "nm" | "em" => {
            need("cost", rc.cost.is_some())?;
            need("atk", rc.atk.is_some())?;
            need("def", rc.def.is_some())?;
            need("tribe", rc.tribe.is_some())?;
            forbid("target_tribe", rc.target_tribe.is_some())?;
            forbid("use_limit", rc.use_limit.is_some())?;
            let wind = if rc.kind == "em" {
                need("wind", rc.wind.is_some())?;
                let w = rc.wind.as_deref().unwrap_or_default();
                Some(match w {
                    "jicha" | "自家" => Wind::Jicha,
                    "tacha" | "他家" => Wind::Tacha,
                    "ryancha" | "両家" => Wind::Ryancha,
                    other => {
                        return Err(ctx.err(
                            ctx.field_offset(span, "wind"),
                            Some("wind"),
                            format!("unknown wind `{other}` (expected jicha, tacha or ryancha)"),
                        ));
                    }
                })
            } else {
                forbid("wind", rc.wind.is_some())?;
                None
            };
            let (atk, def) = (rc.atk.unwrap_or_default(), rc.def.unwrap_or_default());
            for (field, v) in [("atk", atk), ("def", def)] {
                if !(0..=99).contains(&v) {
                    return Err(ctx.err(
                        ctx.field_offset(span, field),
                        Some(field),
                        format!("{field} {v} is outside 0..=99"),
                    ));
                }
            }
            Ok(JakenCard::Monster(JakenMonster {
                cost: rc.cost.unwrap_or_default(),
                atk,
                def,
                tribe: rc.tribe.clone().unwrap_or_default(),
                wind,
            }))
        }
        "bg" => {
            need("target_tribe", rc.target_tribe.is_some())?;
            need("use_limit", rc.use_limit.is_some())?;
            for (field, present) in [
                ("cost", rc.cost.is_some()),
                ("atk", rc.atk.is_some()),
                ("def", rc.def.is_some()),
                ("wind", rc.wind.is_some()),
            ] {
                forbid(field, present)?;
            }
            if rc.use_limit == Some(0) {
                return Err(ctx.err(
                    ctx.field_offset(span, "use_limit"),
                    Some("use_limit"),
                    "a BG card needs a use limit of at least 1",
                ));
            }
            Ok(JakenCard::BattleGround(JakenBattleGround {
                target_tribe: rc.target_tribe.clone().unwrap_or_default(),
                use_limit: rc.use_limit.unwrap_or(1),
            }))
        }
        other => Err(ctx.err(
            ctx.field_offset(span, "kind"),
            Some("kind"),
            format!("unknown Jaken card kind `{other}` (expected nm, em or bg)"),
        )),
    }
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
