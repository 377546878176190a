//! The Yomi card schema: character cards, and the cards of each character's fixed deck (normals
//! 2–10, specials J/Q/K, supers A, Jokers), every move card with its two ends; and the fixed-deck
//! construction rules.
//!
//! Rules: `yomi.md` §2 (setup) and §6 (card data model). The file format and every default is
//! documented in `docs/catalogue-yomi.md`. A card names its character, so the cards of different
//! characters are told apart; [`load`] (and [`demo`]) also check what a single card cannot: that
//! every card's character exists, and that every character has exactly one complete fixed deck.
//!
//! ```
//! let cat = cards::catalogue::yomi::demo().unwrap();
//! let akane = cat.card("YO-A00").and_then(|c| c.yomi()).unwrap();
//! assert!(matches!(akane, cards::catalogue::YomiCard::Character(c) if c.hp == 80));
//! ```

use super::{Card, CardData, Catalogue, CatalogueError, Ctx, DeckList, RawCard, Span, raw_card};
use crate::core::{GameId, Violation};
use crate::decks::Deck;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The Yomi demo pair (two invented characters), embedded in the binary.
pub const DEMO_TOML: &str = include_str!("../../data/yomi-demo.toml");

/// The name the embedded demo file has in errors.
pub const DEMO_FILE: &str = "yomi-demo.toml (embedded)";

/// The hand limit when a character card gives none (second edition: 12 after the power-up phase).
pub const DEFAULT_HAND_LIMIT: u8 = 12;

/// Jokers in a character deck.
pub const JOKERS_PER_DECK: usize = 2;

/// Cards in a character deck, Jokers included, character card not included (a poker deck).
pub const DECK_SIZE: usize = 54;

/// The deck variant for the beginner game: the fixed deck without its Jokers (`yomi.md` §8).
pub const BEGINNER: &str = "beginner";

const REF_DECK: &str = "yomi.md §1–§2 (fixed character deck); docs/catalogue-yomi.md";
const REF_CHARACTER: &str =
    "yomi.md §2 (starting HP on the character card), §10.12; docs/catalogue-yomi.md";

/// A card suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suit {
    /// Spades.
    Spades,
    /// Hearts.
    Hearts,
    /// Diamonds.
    Diamonds,
    /// Clubs.
    Clubs,
}

impl Suit {
    /// Every suit, in catalogue order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The name used in catalogue files (`spades`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    /// Parses the name used in catalogue files.
    pub fn parse(text: &str) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A card's rank. Jokers have none: they are their own kind of card ([`YomiCard::Joker`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Rank {
    /// 2 to 10: a normal move.
    Number(u8),
    /// J: a special move.
    Jack,
    /// Q: a special move.
    Queen,
    /// K: a special move.
    King,
    /// A: a super move.
    Ace,
}

/// What a rank makes a move card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveClass {
    /// 2–10: normal moves; normal attacks chain in sequence and draw a card when they hit or are
    /// blocked (seed 3-1).
    Normal,
    /// J, Q, K: special moves.
    Special,
    /// A: super moves, which may need more Aces (seed 2-2).
    Super,
}

impl Rank {
    /// Every rank, in catalogue order: 2, 3, … 10, J, Q, K, A.
    pub const ALL: [Rank; 13] = [
        Rank::Number(2),
        Rank::Number(3),
        Rank::Number(4),
        Rank::Number(5),
        Rank::Number(6),
        Rank::Number(7),
        Rank::Number(8),
        Rank::Number(9),
        Rank::Number(10),
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// Parses `2`…`10`, `J`, `Q`, `K` or `A`.
    pub fn parse(text: &str) -> Option<Rank> {
        match text {
            "J" => Some(Rank::Jack),
            "Q" => Some(Rank::Queen),
            "K" => Some(Rank::King),
            "A" => Some(Rank::Ace),
            n => n
                .parse::<u8>()
                .ok()
                .filter(|n| (2..=10).contains(n) && !text.starts_with('0'))
                .map(Rank::Number),
        }
    }

    /// The number of a normal (2–10), `None` for J, Q, K and A.
    pub fn number(self) -> Option<u8> {
        match self {
            Rank::Number(n) => Some(n),
            _ => None,
        }
    }

    /// Normal, special or super.
    pub fn class(self) -> MoveClass {
        match self {
            Rank::Number(_) => MoveClass::Normal,
            Rank::Jack | Rank::Queen | Rank::King => MoveClass::Special,
            Rank::Ace => MoveClass::Super,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Number(n) => write!(f, "{n}"),
            Rank::Jack => f.write_str("J"),
            Rank::Queen => f.write_str("Q"),
            Rank::King => f.write_str("K"),
            Rank::Ace => f.write_str("A"),
        }
    }
}

impl From<Rank> for String {
    fn from(rank: Rank) -> String {
        rank.to_string()
    }
}

impl TryFrom<String> for Rank {
    type Error = String;

    fn try_from(text: String) -> Result<Rank, String> {
        Rank::parse(&text).ok_or_else(|| format!("unknown rank `{text}`"))
    }
}

/// A move's speed, in tenths: `Speed(14)` is the printed 1.4. The **lower** is faster (`yomi.md`
/// §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Speed(pub u16);

impl Speed {
    /// The fastest and slowest speeds a catalogue may give, in tenths (0.0 and 20.0).
    pub const RANGE: std::ops::RangeInclusive<u16> = 0..=200;

    /// The speed in tenths.
    pub fn tenths(self) -> u16 {
        self.0
    }

    /// True when this move is faster than `other` (a lower number).
    pub fn is_faster_than(self, other: Speed) -> bool {
        self.0 < other.0
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// When a written ability is used: the timing words printed on cards (`yomi.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// `[Draw Phase]`: step 1-2.
    DrawPhase,
    /// `[Combat Reveal]`: step 2-3.
    CombatReveal,
    /// `[During Combat]`: steps 2-5 and 4-2.
    DuringCombat,
    /// `[End of Combat]`: step 5-2.
    EndOfCombat,
    /// `[Full Combo]`: step 5-2.
    FullCombo,
    /// `[End of Turn]`: step 5-6.
    EndOfTurn,
}

impl Timing {
    /// Every timing, in turn order.
    pub const ALL: [Timing; 6] = [
        Timing::DrawPhase,
        Timing::CombatReveal,
        Timing::DuringCombat,
        Timing::EndOfCombat,
        Timing::FullCombo,
        Timing::EndOfTurn,
    ];

    /// The name used in catalogue files (`draw-phase`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Timing::DrawPhase => "draw-phase",
            Timing::CombatReveal => "combat-reveal",
            Timing::DuringCombat => "during-combat",
            Timing::EndOfCombat => "end-of-combat",
            Timing::FullCombo => "full-combo",
            Timing::EndOfTurn => "end-of-turn",
        }
    }

    /// The printed timing word, e.g. `[Draw Phase]`.
    pub fn label(self) -> &'static str {
        match self {
            Timing::DrawPhase => "[Draw Phase]",
            Timing::CombatReveal => "[Combat Reveal]",
            Timing::DuringCombat => "[During Combat]",
            Timing::EndOfCombat => "[End of Combat]",
            Timing::FullCombo => "[Full Combo]",
            Timing::EndOfTurn => "[End of Turn]",
        }
    }

    /// Parses the name used in catalogue files.
    pub fn parse(text: &str) -> Option<Timing> {
        Timing::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// A written ability, resolved by the players; its timing tells the app when to prompt for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    /// When it is used; `None` for an ability that always applies or whose text says when.
    pub timing: Option<Timing>,
    /// The ability as printed.
    pub text: String,
}

/// What one end of a move card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveKind {
    /// An attack: beats throws, loses to blocks and dodges.
    Attack,
    /// A throw: beats blocks and dodges, loses to attacks.
    Throw,
    /// A block: stops attacks and Jokers; the block card returns to hand and draws (seed 4-1).
    Block,
    /// A dodge: avoids attacks and Jokers; the winner may retaliate with one move.
    Dodge,
    /// Not a combat move: an ability printed in its place, resolved by the players.
    Ability,
}

impl MoveKind {
    /// The name used in catalogue files (`attack`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            MoveKind::Attack => "attack",
            MoveKind::Throw => "throw",
            MoveKind::Block => "block",
            MoveKind::Dodge => "dodge",
            MoveKind::Ability => "ability",
        }
    }

    /// True for attacks and throws: the moves with speed and damage that can hit and combo.
    pub fn strikes(self) -> bool {
        matches!(self, MoveKind::Attack | MoveKind::Throw)
    }
}

/// A move's place in a combo (`yomi.md` §6; outside the seed: Y6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ComboRole {
    /// May start a combo.
    Starter,
    /// May continue a combo.
    Linker,
    /// May end a combo.
    Ender,
}

impl ComboRole {
    fn parse(text: &str) -> Option<ComboRole> {
        match text {
            "starter" => Some(ComboRole::Starter),
            "linker" => Some(ComboRole::Linker),
            "ender" => Some(ComboRole::Ender),
            _ => None,
        }
    }
}

/// A pump: pay extra cards to add damage to the move (`yomi.md` §6; outside the seed: Y4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pump {
    /// Damage added by each pump.
    pub damage: u16,
    /// Cards discarded for each pump (which cards, and how often, is in the move's abilities).
    pub cost: u8,
}

/// One end of a move card: the move shown when that end faces the opponent (seed 2-1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEnd {
    /// Attack, throw, block, dodge or ability.
    pub kind: MoveKind,
    /// The move's Japanese name; may be empty.
    pub name_ja: String,
    /// The move's English name; may be empty.
    pub name_en: String,
    /// Speed of an attack or throw; `None` for the other kinds.
    pub speed: Option<Speed>,
    /// Damage of an attack or throw when it hits; `None` for the other kinds.
    pub damage: Option<u16>,
    /// Damage an attack deals when it is blocked (chip damage); `None` when none is printed.
    pub block_damage: Option<u16>,
    /// Combo points the move costs in a combo; `None` for the kinds that cannot combo.
    pub combo_points: Option<u8>,
    /// Its combo roles, sorted; empty for a move without one (e.g. a normal attack, which chains
    /// by rank).
    pub combo: Vec<ComboRole>,
    /// 転倒属性: when it is the last hit of a turn, the player hit is knocked down (seed 4-4b).
    pub knockdown: bool,
    /// A mix-up attack: harder to block against a knocked-down player (by hand; outside the seed:
    /// Y7).
    pub mix_up: bool,
    /// The pump, if the move has one.
    pub pump: Option<Pump>,
    /// Ace cards the move needs in all, this card included: 1 or more for an Ace's super move, 0
    /// for every other move. See [`MoveEnd::extra_aces`].
    pub aces: u8,
    /// Written abilities, resolved by the players.
    pub abilities: Vec<Ability>,
}

impl MoveEnd {
    /// The Aces to put out besides this card when the move is revealed (seed 2-2).
    pub fn extra_aces(&self) -> u8 {
        self.aces.saturating_sub(1)
    }

    /// True when the move has this combo role.
    pub fn has_role(&self, role: ComboRole) -> bool {
        self.combo.contains(&role)
    }
}

/// Which end of a move card faces the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// The end listed as `top` in the catalogue.
    Top,
    /// The end listed as `bottom` in the catalogue.
    Bottom,
}

/// A character card: set aside at setup, it gives the starting HP and the character's abilities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YomiCharacter {
    /// Starting HP, also the HP cap (`yomi.md` §2).
    pub hp: u16,
    /// Combo limit: the combo points the player may spend in one turn's combo.
    pub combo_points: u8,
    /// The hand limit applied at step 5-7 ([`DEFAULT_HAND_LIMIT`] unless printed otherwise).
    pub hand_limit: u8,
    /// Written abilities, resolved by the players.
    pub abilities: Vec<Ability>,
}

/// A card with a move on each end (2–10, J, Q, K or A of a suit).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YomiMoveCard {
    /// The id of its character's card.
    pub character: String,
    /// Its rank.
    pub rank: Rank,
    /// Its suit.
    pub suit: Suit,
    /// The `top` end.
    pub top: MoveEnd,
    /// The `bottom` end.
    pub bottom: MoveEnd,
}

impl YomiMoveCard {
    /// One end of the card.
    pub fn end(&self, end: End) -> &MoveEnd {
        match end {
            End::Top => &self.top,
            End::Bottom => &self.bottom,
        }
    }

    /// Both ends, top first.
    pub fn ends(&self) -> [&MoveEnd; 2] {
        [&self.top, &self.bottom]
    }
}

/// A Joker of a character's deck: gold burst in combat, blue burst as an escape card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YomiJoker {
    /// The id of its character's card.
    pub character: String,
}

/// A Yomi card's data.
#[allow(
    clippy::large_enum_variant,
    reason = "a catalogue holds a few hundred cards; a plain variant keeps matching simple"
)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum YomiCard {
    /// A character card.
    Character(YomiCharacter),
    /// A card with two moves (normal, special or super by rank).
    Move(YomiMoveCard),
    /// A Joker.
    Joker(YomiJoker),
}

impl YomiCard {
    /// The character a deck card belongs to (its character card's id); `None` for a character card.
    pub fn character(&self) -> Option<&str> {
        match self {
            YomiCard::Character(_) => None,
            YomiCard::Move(m) => Some(&m.character),
            YomiCard::Joker(j) => Some(&j.character),
        }
    }

    /// The rank of a move card; `None` for character cards and Jokers.
    pub fn rank(&self) -> Option<Rank> {
        match self {
            YomiCard::Move(m) => Some(m.rank),
            _ => None,
        }
    }
}

/// Loads a Yomi catalogue, as [`Catalogue::load`] does (which checks what no single card can:
/// every card's character exists, a character has one card per rank and suit, and every
/// character has exactly one complete fixed deck), and refuses a catalogue of another game.
/// Errors name the file, line and field.
pub fn load(file: &str, text: &str) -> Result<Catalogue, CatalogueError> {
    let ctx = Ctx { file, text };
    let cat = Catalogue::load(file, text)?;
    if cat.game != GameId::Yomi {
        return Err(ctx.err(
            ctx.field_offset(&(0..text.len()), "game"),
            Some("game"),
            format!("this is a {} catalogue, not a Yomi one", cat.game),
        ));
    }
    // `Catalogue::load` has run the cross-card checks of a Yomi set.
    Ok(cat)
}

/// The embedded demo pair (checked like [`load`]).
pub fn demo() -> Result<Catalogue, CatalogueError> {
    load(DEMO_FILE, DEMO_TOML)
}

// ------------------------------------------------------------------------------------------------
// Reading cards

/// A value given either alone or as a list.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A rank given as text (`"7"`, `"J"`) or as a number (`7`).
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum RawRank {
    Number(i64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAbility {
    #[serde(default)]
    timing: Option<String>,
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEnd {
    kind: String,
    #[serde(default)]
    name_ja: String,
    #[serde(default)]
    name_en: String,
    speed: Option<f64>,
    damage: Option<i64>,
    block_damage: Option<i64>,
    combo_points: Option<i64>,
    combo: Option<OneOrMany>,
    knockdown: Option<bool>,
    mix_up: Option<bool>,
    pump_damage: Option<i64>,
    pump_cost: Option<i64>,
    aces: Option<i64>,
    abilities: Option<Vec<RawAbility>>,
}

raw_card!(RawYomiCard {
    kind: String,
    character: Option<String>,
    hp: Option<i64>,
    combo_points: Option<i64>,
    hand_limit: Option<i64>,
    abilities: Option<Vec<RawAbility>>,
    rank: Option<RawRank>,
    suit: Option<String>,
    top: Option<RawEnd>,
    bottom: Option<RawEnd>,
});

impl RawCard for RawYomiCard {
    fn common(&self) -> super::Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        yomi_card(ctx, span, self).map(CardData::Yomi)
    }

    fn check_catalogue(ctx: &Ctx<'_>, cat: Catalogue) -> Result<Catalogue, CatalogueError> {
        cross_check(ctx, cat)
    }
}

/// True when `line` (trimmed) assigns `key`.
fn assigns(line: &str, key: &str) -> bool {
    line.strip_prefix(key)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// Where `key` of the end `end` (`top` or `bottom`) of the card at `span` is written, whether the
/// end is a `[cards.top]` table, dotted keys (`top.speed = …`) or an inline table (`top = {…}`);
/// with `key` `None`, or when the key is not found, where the end starts (else the card's start).
fn end_offset(ctx: &Ctx<'_>, span: &Span, end: &str, key: Option<&str>) -> usize {
    let body = ctx.text.get(span.start..).unwrap_or("");
    let mut pos = span.start;
    let mut in_end = false;
    let mut end_start = None;
    let dotted = key.map(|k| format!("{end}.{k}"));
    for (i, line) in body.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        let at = pos + (line.len() - trimmed.len());
        pos += line.len();
        if i > 0 && trimmed.starts_with("[[") {
            break;
        }
        if let Some(header) = trimmed.strip_prefix('[') {
            let name: String = header
                .split(']')
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            in_end = name == format!("cards.{end}");
            if in_end && end_start.is_none() {
                end_start = Some(at);
            }
            continue;
        }
        if in_end {
            if key.is_some_and(|k| assigns(trimmed, k)) {
                return at;
            }
        } else if dotted.as_deref().is_some_and(|d| assigns(trimmed, d)) {
            return at;
        } else if (assigns(trimmed, end) || trimmed.starts_with(&format!("{end}.")))
            && end_start.is_none()
        {
            end_start = Some(at);
        }
    }
    end_start.unwrap_or(span.start)
}

/// Where the quoted `value` is written at or after `from`, within the same card; else `from`.
fn value_offset(ctx: &Ctx<'_>, from: usize, value: &str) -> usize {
    let rest = ctx.text.get(from..).unwrap_or("");
    let block_end = rest.find("\n[[").unwrap_or(rest.len());
    rest.get(..block_end)
        .and_then(|block| block.find(&format!("\"{value}\"")))
        .map_or(from, |i| from + i)
}

/// A whole number checked against its range, as the field's type.
fn int<T: TryFrom<i64>>(
    ctx: &Ctx<'_>,
    at: usize,
    field: &str,
    value: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<T, CatalogueError> {
    let err = || {
        ctx.err(
            at,
            Some(field),
            format!(
                "{field} {value} is outside {}..={}",
                range.start(),
                range.end()
            ),
        )
    };
    if !range.contains(&value) {
        return Err(err());
    }
    T::try_from(value).map_err(|_| err())
}

fn abilities(
    ctx: &Ctx<'_>,
    at: usize,
    field: &str,
    raw: &[RawAbility],
) -> Result<Vec<Ability>, CatalogueError> {
    raw.iter()
        .map(|a| {
            let timing = match a.timing.as_deref() {
                None => None,
                Some(t) => Some(Timing::parse(t).ok_or_else(|| {
                    ctx.err(
                        value_offset(ctx, at, t),
                        Some(field),
                        format!(
                            "unknown timing `{t}` (expected one of: {})",
                            Timing::ALL.map(Timing::as_str).join(", ")
                        ),
                    )
                })?),
            };
            if a.text.trim().is_empty() {
                return Err(ctx.err(at, Some(field), "an ability needs its text"));
            }
            Ok(Ability {
                timing,
                text: a.text.clone(),
            })
        })
        .collect()
}

fn yomi_card(ctx: &Ctx<'_>, span: &Span, rc: &RawYomiCard) -> Result<YomiCard, CatalogueError> {
    let (id, kind) = (rc.id.as_str(), rc.kind.as_str());
    let at = |field: &str| ctx.field_offset(span, field);
    let forbid_end = |field: &str, value: &Option<RawEnd>| -> Result<(), CatalogueError> {
        if value.is_some() {
            Err(ctx.err(
                end_offset(ctx, span, field, None),
                Some(field),
                format!("card `{id}` is of kind `{kind}`, which has no `{field}`"),
            ))
        } else {
            Ok(())
        }
    };
    let character = |rc: &RawYomiCard| -> Result<String, CatalogueError> {
        ctx.need(span, id, kind, "character", &rc.character)?;
        let c = rc.character.clone().unwrap_or_default();
        if c.trim().is_empty() {
            return Err(ctx.field_err(
                span,
                "character",
                "`character` must name the id of this card's character card",
            ));
        }
        Ok(c)
    };
    match kind {
        "character" => {
            ctx.need(span, id, kind, "hp", &rc.hp)?;
            ctx.need(span, id, kind, "combo_points", &rc.combo_points)?;
            ctx.forbid(span, id, kind, "character", &rc.character)?;
            ctx.forbid(span, id, kind, "rank", &rc.rank)?;
            ctx.forbid(span, id, kind, "suit", &rc.suit)?;
            forbid_end("top", &rc.top)?;
            forbid_end("bottom", &rc.bottom)?;
            Ok(YomiCard::Character(YomiCharacter {
                hp: int(ctx, at("hp"), "hp", rc.hp.unwrap_or_default(), 1..=999)?,
                combo_points: int(
                    ctx,
                    at("combo_points"),
                    "combo_points",
                    rc.combo_points.unwrap_or_default(),
                    1..=20,
                )?,
                hand_limit: match rc.hand_limit {
                    Some(h) => int(ctx, at("hand_limit"), "hand_limit", h, 1..=54)?,
                    None => DEFAULT_HAND_LIMIT,
                },
                abilities: abilities(
                    ctx,
                    at("abilities"),
                    "abilities",
                    rc.abilities.as_deref().unwrap_or_default(),
                )?,
            }))
        }
        "move" => {
            let character = character(rc)?;
            ctx.need(span, id, kind, "rank", &rc.rank)?;
            ctx.need(span, id, kind, "suit", &rc.suit)?;
            ctx.need(span, id, kind, "top", &rc.top)?;
            ctx.need(span, id, kind, "bottom", &rc.bottom)?;
            forbid_card_fields(ctx, span, rc)?;
            let rank = match &rc.rank {
                Some(RawRank::Number(n)) => Rank::parse(&n.to_string()),
                Some(RawRank::Text(t)) => Rank::parse(t),
                None => None,
            }
            .ok_or_else(|| {
                let shown = match &rc.rank {
                    Some(RawRank::Number(n)) => n.to_string(),
                    Some(RawRank::Text(t)) => t.clone(),
                    None => String::new(),
                };
                ctx.field_err(
                    span,
                    "rank",
                    format!("unknown rank `{shown}` (expected 2 to 10, J, Q, K or A)"),
                )
            })?;
            let suit_text = rc.suit.as_deref().unwrap_or_default();
            let suit = Suit::parse(suit_text).ok_or_else(|| {
                ctx.field_err(
                    span,
                    "suit",
                    format!(
                        "unknown suit `{suit_text}` (expected spades, hearts, diamonds or clubs)"
                    ),
                )
            })?;
            let mut ends = Vec::with_capacity(2);
            for (name, raw) in [("top", &rc.top), ("bottom", &rc.bottom)] {
                if let Some(raw) = raw {
                    ends.push(move_end(ctx, span, id, name, raw, rank)?);
                }
            }
            let mut ends = ends.into_iter();
            match (ends.next(), ends.next()) {
                (Some(top), Some(bottom)) => Ok(YomiCard::Move(YomiMoveCard {
                    character,
                    rank,
                    suit,
                    top,
                    bottom,
                })),
                _ => Err(ctx.field_err(span, "kind", "a move card needs a top and a bottom end")),
            }
        }
        "joker" => {
            let character = character(rc)?;
            forbid_card_fields(ctx, span, rc)?;
            ctx.forbid(span, id, kind, "rank", &rc.rank)?;
            ctx.forbid(span, id, kind, "suit", &rc.suit)?;
            forbid_end("top", &rc.top)?;
            forbid_end("bottom", &rc.bottom)?;
            Ok(YomiCard::Joker(YomiJoker { character }))
        }
        other => Err(ctx.field_err(
            span,
            "kind",
            format!("unknown Yomi card kind `{other}` (expected character, move or joker)"),
        )),
    }
}

/// Refuses the character-card fields on a deck card.
fn forbid_card_fields(ctx: &Ctx<'_>, span: &Span, rc: &RawYomiCard) -> Result<(), CatalogueError> {
    let (id, kind) = (rc.id.as_str(), rc.kind.as_str());
    ctx.forbid(span, id, kind, "hp", &rc.hp)?;
    ctx.forbid(span, id, kind, "combo_points", &rc.combo_points)?;
    ctx.forbid(span, id, kind, "hand_limit", &rc.hand_limit)?;
    ctx.forbid(span, id, kind, "abilities", &rc.abilities)
}

fn move_end(
    ctx: &Ctx<'_>,
    span: &Span,
    id: &str,
    end: &str,
    raw: &RawEnd,
    rank: Rank,
) -> Result<MoveEnd, CatalogueError> {
    let at = |key: &str| end_offset(ctx, span, end, Some(key));
    let field = |key: &str| format!("{end}.{key}");
    let kind = match raw.kind.as_str() {
        "attack" => MoveKind::Attack,
        "throw" => MoveKind::Throw,
        "block" => MoveKind::Block,
        "dodge" => MoveKind::Dodge,
        "ability" => MoveKind::Ability,
        other => {
            return Err(ctx.err(
                at("kind"),
                Some(&field("kind")),
                format!(
                    "unknown move kind `{other}` (expected attack, throw, block, dodge or ability)"
                ),
            ));
        }
    };
    let need = |key: &str, present: bool| -> Result<(), CatalogueError> {
        if present {
            Ok(())
        } else {
            Err(ctx.err(
                at("kind"),
                Some(&field(key)),
                format!(
                    "the {end} end of card `{id}` ({}) needs `{key}`",
                    kind.as_str()
                ),
            ))
        }
    };
    let forbid = |key: &str, present: bool, why: &str| -> Result<(), CatalogueError> {
        if present {
            Err(ctx.err(
                at(key),
                Some(&field(key)),
                format!(
                    "the {end} end of card `{id}` is a {}, which has no `{key}`{why}",
                    kind.as_str()
                ),
            ))
        } else {
            Ok(())
        }
    };
    if kind.strikes() {
        need("speed", raw.speed.is_some())?;
        need("damage", raw.damage.is_some())?;
        need("combo_points", raw.combo_points.is_some())?;
    } else {
        for (key, present) in [
            ("speed", raw.speed.is_some()),
            ("damage", raw.damage.is_some()),
            ("combo_points", raw.combo_points.is_some()),
            ("combo", raw.combo.is_some()),
            ("knockdown", raw.knockdown.is_some()),
            ("pump_damage", raw.pump_damage.is_some()),
            ("pump_cost", raw.pump_cost.is_some()),
            ("aces", raw.aces.is_some()),
        ] {
            forbid(key, present, "")?;
        }
    }
    if kind != MoveKind::Attack {
        forbid(
            "block_damage",
            raw.block_damage.is_some(),
            " (only an attack can be blocked)",
        )?;
        forbid(
            "mix_up",
            raw.mix_up.is_some(),
            " (only attacks are mix-ups)",
        )?;
    }
    if kind == MoveKind::Ability && raw.abilities.as_ref().is_none_or(Vec::is_empty) {
        return Err(ctx.err(
            at("kind"),
            Some(&field("abilities")),
            format!("the {end} end of card `{id}` is an ability end, which needs `abilities`"),
        ));
    }
    if raw.aces.is_some() && rank != Rank::Ace {
        return Err(ctx.err(
            at("aces"),
            Some(&field("aces")),
            format!("card `{id}` is a {rank}: only an Ace's super moves need Aces"),
        ));
    }
    if raw.pump_cost.is_some() && raw.pump_damage.is_none() {
        need("pump_damage", false)?;
    }
    let speed = match raw.speed {
        None => None,
        Some(s) => {
            let tenths = (s * 10.0).round();
            let range = Speed::RANGE;
            if !(f64::from(*range.start())..=f64::from(*range.end())).contains(&tenths)
                || (s * 10.0 - tenths).abs() > 1e-6
            {
                return Err(ctx.err(
                    at("speed"),
                    Some(&field("speed")),
                    format!("speed {s} must be 0.0 to 20.0 in steps of 0.1"),
                ));
            }
            Some(Speed(int(
                ctx,
                at("speed"),
                &field("speed"),
                tenths as i64,
                0..=200,
            )?))
        }
    };
    let opt_int = |key: &str, value: Option<i64>, range: std::ops::RangeInclusive<i64>| {
        value
            .map(|v| int::<u16>(ctx, at(key), &field(key), v, range))
            .transpose()
    };
    let damage = opt_int("damage", raw.damage, 0..=99)?;
    let block_damage = opt_int("block_damage", raw.block_damage, 0..=99)?;
    let combo_points = opt_int("combo_points", raw.combo_points, 0..=20)?
        .map(|v| u8::try_from(v).unwrap_or(u8::MAX));
    let mut combo = Vec::new();
    for role in raw.combo.as_ref().map(OneOrMany::items).unwrap_or_default() {
        let parsed = ComboRole::parse(role).ok_or_else(|| {
            ctx.err(
                at("combo"),
                Some(&field("combo")),
                format!("unknown combo role `{role}` (expected starter, linker or ender)"),
            )
        })?;
        if !combo.contains(&parsed) {
            combo.push(parsed);
        }
    }
    combo.sort();
    let pump = match raw.pump_damage {
        None => None,
        Some(d) => Some(Pump {
            damage: int(ctx, at("pump_damage"), &field("pump_damage"), d, 1..=99)?,
            cost: match raw.pump_cost {
                Some(c) => int(ctx, at("pump_cost"), &field("pump_cost"), c, 1..=4)?,
                None => 1,
            },
        }),
    };
    let aces = match (rank, kind.strikes(), raw.aces) {
        (_, _, Some(a)) => int(ctx, at("aces"), &field("aces"), a, 1..=4)?,
        (Rank::Ace, true, None) => 1,
        _ => 0,
    };
    Ok(MoveEnd {
        kind,
        name_ja: raw.name_ja.clone(),
        name_en: raw.name_en.clone(),
        speed,
        damage,
        block_damage,
        combo_points,
        combo,
        knockdown: raw.knockdown.unwrap_or(false),
        mix_up: raw.mix_up.unwrap_or(false),
        pump,
        aces,
        abilities: abilities(
            ctx,
            at("abilities"),
            &field("abilities"),
            raw.abilities.as_deref().unwrap_or_default(),
        )?,
    })
}

// ------------------------------------------------------------------------------------------------
// Checks across cards

/// Where the `[[table]]` entry with this id starts (else the file's start).
fn entry_offset(ctx: &Ctx<'_>, table: &str, id: &str) -> usize {
    let header = format!("[[{table}]]");
    let wanted = format!("\"{id}\"");
    let mut pos = 0;
    let mut current: Option<usize> = None;
    for line in ctx.text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let at = pos + (line.len() - trimmed.len());
        pos += line.len();
        if trimmed.starts_with('[') {
            current = trimmed.starts_with(&header).then_some(at);
            continue;
        }
        if let Some(start) = current
            && assigns(trimmed, "id")
            && trimmed
                .split_once('=')
                .is_some_and(|(_, v)| v.trim().starts_with(&wanted))
        {
            return start;
        }
    }
    0
}

fn entry_err(ctx: &Ctx<'_>, table: &str, id: &str, field: &str, message: String) -> CatalogueError {
    let start = entry_offset(ctx, table, id);
    ctx.field_err(&(start..start), field, message)
}

/// A card as players name it: id, English name, and rank and suit for a move card.
fn describe(card: &Card) -> String {
    match card.yomi() {
        Some(YomiCard::Move(m))
            if !card
                .name_en
                .to_lowercase()
                .contains(&format!("{} of {}", m.rank, m.suit).to_lowercase()) =>
        {
            format!("{} “{}” ({} of {})", card.id, card.name_en, m.rank, m.suit)
        }
        _ => format!("{} “{}”", card.id, card.name_en),
    }
}

/// What is wrong with a fixed deck list, if anything; else its character's id.
fn fixed_deck_problem(cat: &Catalogue, list: &DeckList) -> Result<String, String> {
    let yomi = |id: &str| cat.card(id).and_then(Card::yomi);
    let characters: Vec<&str> = list
        .cards
        .iter()
        .map(String::as_str)
        .filter(|id| matches!(yomi(id), Some(YomiCard::Character(_))))
        .collect();
    let [character] = characters.as_slice() else {
        return Err(format!(
            "fixed deck `{}` must list exactly one character card (it lists {}: {})",
            list.id,
            characters.len(),
            characters.join(", ")
        ));
    };
    let mut slots: BTreeMap<(Rank, Suit), usize> = BTreeMap::new();
    let mut jokers = 0;
    for id in &list.cards {
        let Some(card) = yomi(id) else { continue };
        match card.character() {
            Some(owner) if owner != *character => {
                return Err(format!(
                    "fixed deck `{}` of character `{character}` lists `{id}`, a card of character `{owner}`",
                    list.id
                ));
            }
            _ => {}
        }
        match card {
            YomiCard::Move(m) => *slots.entry((m.rank, m.suit)).or_default() += 1,
            YomiCard::Joker(_) => jokers += 1,
            YomiCard::Character(_) => {}
        }
    }
    let mut problems = Vec::new();
    let mut missing = Vec::new();
    let mut twice = Vec::new();
    for suit in Suit::ALL {
        for rank in Rank::ALL {
            match slots.get(&(rank, suit)).copied().unwrap_or(0) {
                0 => missing.push(format!("{rank} of {suit}")),
                1 => {}
                n => twice.push(format!("{rank} of {suit} ×{n}")),
            }
        }
    }
    if !missing.is_empty() {
        problems.push(format!("it has no {}", missing.join(", ")));
    }
    if !twice.is_empty() {
        problems.push(format!("it has {}", twice.join(", ")));
    }
    if jokers != JOKERS_PER_DECK {
        problems.push(format!(
            "it has {jokers} Joker(s) instead of {JOKERS_PER_DECK}"
        ));
    }
    if problems.is_empty() {
        Ok((*character).to_owned())
    } else {
        Err(format!(
            "fixed deck `{}` is not a full Yomi deck (one card of each rank 2–A in each suit, and {JOKERS_PER_DECK} Jokers): {}",
            list.id,
            problems.join("; ")
        ))
    }
}

/// The checks across cards of a loaded Yomi catalogue; returns it when they pass.
pub(crate) fn cross_check(ctx: &Ctx<'_>, cat: Catalogue) -> Result<Catalogue, CatalogueError> {
    let mut slots: BTreeMap<(&str, Rank, Suit), &str> = BTreeMap::new();
    for card in &cat.cards {
        let Some(data) = card.yomi() else { continue };
        let Some(owner) = data.character() else {
            continue;
        };
        match cat.card(owner).and_then(Card::yomi) {
            Some(YomiCard::Character(_)) => {}
            Some(_) => {
                return Err(entry_err(
                    ctx,
                    "cards",
                    &card.id,
                    "character",
                    format!(
                        "card `{}` names `{owner}` as its character, but `{owner}` is not a character card",
                        card.id
                    ),
                ));
            }
            None => {
                return Err(entry_err(
                    ctx,
                    "cards",
                    &card.id,
                    "character",
                    format!(
                        "card `{}` names character `{owner}`, which is not in this catalogue",
                        card.id
                    ),
                ));
            }
        }
        if let YomiCard::Move(m) = data
            && let Some(other) = slots.insert((owner, m.rank, m.suit), &card.id)
        {
            return Err(entry_err(
                ctx,
                "cards",
                &card.id,
                "rank",
                format!(
                    "card `{}` is the {} of {} of character `{owner}`, like card `{other}`: a character has one card per rank and suit",
                    card.id, m.rank, m.suit
                ),
            ));
        }
    }
    let mut deck_of: BTreeMap<String, &str> = BTreeMap::new();
    for list in &cat.decks {
        let character = fixed_deck_problem(&cat, list)
            .map_err(|message| entry_err(ctx, "decks", &list.id, "cards", message))?;
        if let Some(first) = deck_of.insert(character.clone(), &list.id) {
            return Err(entry_err(
                ctx,
                "decks",
                &list.id,
                "id",
                format!(
                    "character `{character}` already has fixed deck `{first}`: Yomi decks are fixed, one per character"
                ),
            ));
        }
    }
    for card in &cat.cards {
        if matches!(card.yomi(), Some(YomiCard::Character(_))) && !deck_of.contains_key(&card.id) {
            return Err(entry_err(
                ctx,
                "cards",
                &card.id,
                "id",
                format!(
                    "character `{}` has no fixed deck: add a [[decks]] entry listing its character card and its {DECK_SIZE} cards",
                    card.id
                ),
            ));
        }
    }
    Ok(cat)
}

// ------------------------------------------------------------------------------------------------
// Deck rules

/// The character a deck is for: its one character card, else the character most of its cards
/// belong to (ties: the lower id).
fn deck_character<'a>(have: &BTreeMap<&'a str, usize>, cat: &'a Catalogue) -> Option<&'a str> {
    let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut character_cards = Vec::new();
    for (&id, &n) in have {
        match cat.card(id).and_then(Card::yomi) {
            Some(YomiCard::Character(_)) => {
                character_cards.push(id);
                *votes.entry(id).or_default() += n;
            }
            Some(c) => {
                if let Some(owner) = c.character() {
                    *votes.entry(owner).or_default() += n;
                }
            }
            None => {}
        }
    }
    if let [only] = character_cards.as_slice() {
        return Some(only);
    }
    let best = votes.values().copied().max()?;
    votes
        .into_iter()
        .find(|(_, n)| *n == best)
        .map(|(id, _)| id)
}

fn listing(cat: &Catalogue, counts: &BTreeMap<&str, usize>) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let name = cat.card(id).map_or_else(|| (*id).to_owned(), describe);
            if *n == 1 {
                name
            } else {
                format!("{name} ×{n}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks a deck against Yomi's construction rules: a Yomi deck is exactly one character's fixed
/// deck as listed in the catalogue's `[[decks]]` (its character card once, plus its 54 cards), with
/// nothing in the extra section. Variant `beginner`: the same without the Jokers. One violation per
/// broken rule; an empty list means the deck is legal.
pub fn check_deck(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let mut out = Vec::new();
    let beginner = match deck.variant.as_deref() {
        None => false,
        Some(BEGINNER) => true,
        Some(other) => {
            out.push(crate::decks::unknown_variant(
                GameId::Yomi,
                other,
                &[BEGINNER],
            ));
            false
        }
    };
    if !deck.extra.is_empty() {
        let mut extra: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &deck.extra {
            *extra.entry(c.card.as_str()).or_default() += 1;
        }
        out.push(Violation::new(
            "yomi.deck-extra",
            format!(
                "A Yomi deck has no extra section: every card goes in the main deck ({}).",
                listing(catalogue, &extra)
            ),
            REF_DECK,
        ));
    }
    let yomi = |id: &str| catalogue.card(id).and_then(Card::yomi);
    let mut have: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &deck.main {
        *have.entry(c.card.as_str()).or_default() += 1;
    }
    let Some(character) = deck_character(&have, catalogue) else {
        out.push(Violation::new(
            "yomi.deck-character-card",
            "The deck is empty: a Yomi deck is one character's fixed deck, with its character card.",
            REF_CHARACTER,
        ));
        return out;
    };
    let character_name = catalogue
        .card(character)
        .map_or(character, |c| c.name_en.as_str());
    // Exactly one character card, once.
    let character_cards: BTreeMap<&str, usize> = have
        .iter()
        .filter(|(id, _)| matches!(yomi(id), Some(YomiCard::Character(_))))
        .map(|(id, n)| (*id, *n))
        .collect();
    let problem = match character_cards.len() {
        0 => Some(format!(
            "The deck has no character card: add {} once (it gives the starting HP and is set aside at setup).",
            catalogue
                .card(character)
                .map_or_else(|| character.to_owned(), describe)
        )),
        1 => character_cards.values().next().filter(|n| **n > 1).map(|n| {
            format!(
                "The deck lists the character card {character} {n} times: it needs it exactly once."
            )
        }),
        _ => Some(format!(
            "The deck has {} character cards ({}): a Yomi deck is one character's deck, with exactly one character card.",
            character_cards.len(),
            listing(catalogue, &character_cards)
        )),
    };
    if let Some(sentence) = problem {
        out.push(Violation::new(
            "yomi.deck-character-card",
            sentence,
            REF_CHARACTER,
        ));
    }
    // No cards of another character.
    let foreign: BTreeMap<&str, usize> = have
        .iter()
        .filter(|(id, _)| {
            yomi(id)
                .and_then(YomiCard::character)
                .is_some_and(|o| o != character)
        })
        .map(|(id, n)| (*id, *n))
        .collect();
    if !foreign.is_empty() {
        out.push(Violation::new(
            "yomi.deck-other-character",
            format!(
                "A Yomi deck holds one character's cards only; these are not {character_name}'s: {}.",
                listing(catalogue, &foreign)
            ),
            REF_DECK,
        ));
    }
    // Exactly the fixed deck's cards.
    let fixed = catalogue
        .decks
        .iter()
        .find(|d| d.cards.iter().any(|c| c == character));
    let Some(fixed) = fixed else {
        out.push(Violation::new(
            "yomi.deck-fixed-list",
            format!(
                "The catalogue lists no fixed deck for {character_name} ({character}), so this deck cannot be compared with it."
            ),
            REF_DECK,
        ));
        return out;
    };
    let is_joker = |id: &str| matches!(yomi(id), Some(YomiCard::Joker(_)));
    let is_character = |id: &str| matches!(yomi(id), Some(YomiCard::Character(_)));
    let mut expected: BTreeMap<&str, usize> = BTreeMap::new();
    for id in &fixed.cards {
        let left_out = is_character(id) || (beginner && is_joker(id));
        if !left_out {
            *expected.entry(id.as_str()).or_default() += 1;
        }
    }
    let mut missing: BTreeMap<&str, usize> = BTreeMap::new();
    for (&id, &n) in &expected {
        let got = have.get(id).copied().unwrap_or(0);
        if got < n {
            missing.insert(id, n - got);
        }
    }
    let mut surplus: BTreeMap<&str, usize> = BTreeMap::new();
    let mut jokers: BTreeMap<&str, usize> = BTreeMap::new();
    for (&id, &n) in &have {
        if is_character(id) || foreign.contains_key(id) {
            continue;
        }
        if beginner && is_joker(id) {
            jokers.insert(id, n);
            continue;
        }
        let want = expected.get(id).copied().unwrap_or(0);
        if n > want {
            surplus.insert(id, n - want);
        }
    }
    if !missing.is_empty() {
        out.push(Violation::new(
            "yomi.deck-missing",
            format!(
                "{character_name}'s deck is fixed ({}); it is missing {}.",
                fixed.id,
                listing(catalogue, &missing)
            ),
            REF_DECK,
        ));
    }
    if !surplus.is_empty() {
        out.push(Violation::new(
            "yomi.deck-surplus",
            format!(
                "{character_name}'s deck is fixed ({}); it has more than the fixed deck: {}.",
                fixed.id,
                listing(catalogue, &surplus)
            ),
            REF_DECK,
        ));
    }
    if !jokers.is_empty() {
        out.push(Violation::new(
            "yomi.deck-beginner-jokers",
            format!(
                "The beginner game is played without Jokers: take out {}.",
                listing(catalogue, &jokers)
            ),
            "yomi.md §8 (beginner game; outside the seed: Y7)",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn demo_cat() -> Catalogue {
        demo().unwrap()
    }

    fn move_cards(cat: &Catalogue) -> Vec<(&Card, &YomiMoveCard)> {
        cat.cards
            .iter()
            .filter_map(|c| match c.yomi() {
                Some(YomiCard::Move(m)) => Some((c, m)),
                _ => None,
            })
            .collect()
    }

    fn ends(cat: &Catalogue) -> Vec<(Rank, &MoveEnd)> {
        move_cards(cat)
            .into_iter()
            .flat_map(|(_, m)| m.ends().map(|e| (m.rank, e)))
            .collect()
    }

    // ---------------------------------------------------------------- the demo set

    #[test]
    fn demo_loads_as_a_labelled_demo_with_two_characters_and_their_fixed_decks() {
        // Given the embedded demo file, when it is loaded,
        let cat = demo_cat();
        // then it is a Yomi set marked as made for this app,
        assert_eq!(cat.game, GameId::Yomi);
        assert!(cat.set.demo);
        assert!(cat.set.note.contains("Not official"), "{}", cat.set.note);
        // with two characters, each with one fixed deck of 1 + 54 cards,
        let characters: Vec<&Card> = cat
            .cards
            .iter()
            .filter(|c| matches!(c.yomi(), Some(YomiCard::Character(_))))
            .collect();
        assert_eq!(characters.len(), 2);
        assert_eq!(cat.decks.len(), 2);
        for ch in &characters {
            let list = cat.decks.iter().find(|d| d.cards.contains(&ch.id)).unwrap();
            assert_eq!(list.cards.len(), 1 + DECK_SIZE, "{}", list.id);
            // every card of which belongs to that character.
            for id in &list.cards {
                let card = cat.card(id).unwrap().yomi().unwrap();
                assert!(card.character().is_none_or(|o| o == ch.id), "{id}");
            }
        }
        // Both characters' cards are told apart by their `character` field.
        let a = cat.card("YO-A05").unwrap().yomi().unwrap();
        let b = cat.card("YO-B05").unwrap().yomi().unwrap();
        assert_eq!(
            (a.character(), b.character()),
            (Some("YO-A00"), Some("YO-B00"))
        );
    }

    #[test]
    fn demo_exercises_every_kind_and_attribute() {
        let cat = demo_cat();
        let all_ends = ends(&cat);
        for kind in [
            MoveKind::Attack,
            MoveKind::Throw,
            MoveKind::Block,
            MoveKind::Dodge,
            MoveKind::Ability,
        ] {
            assert!(all_ends.iter().any(|(_, e)| e.kind == kind), "{kind:?}");
        }
        for class in [MoveClass::Normal, MoveClass::Special, MoveClass::Super] {
            assert!(
                all_ends.iter().any(|(r, _)| r.class() == class),
                "{class:?}"
            );
        }
        for role in [ComboRole::Starter, ComboRole::Linker, ComboRole::Ender] {
            assert!(all_ends.iter().any(|(_, e)| e.has_role(role)), "{role:?}");
        }
        assert!(all_ends.iter().any(|(_, e)| e.combo.len() > 1));
        assert!(all_ends.iter().any(|(_, e)| e.knockdown));
        assert!(all_ends.iter().any(|(_, e)| e.mix_up));
        assert!(all_ends.iter().any(|(_, e)| e.block_damage.is_some()));
        assert!(all_ends.iter().any(|(_, e)| e.pump.is_some()));
        assert!(all_ends.iter().any(|(_, e)| e.extra_aces() >= 1));
        assert!(
            all_ends
                .iter()
                .any(|(r, e)| *r == Rank::Ace && e.aces == 1 && e.kind.strikes())
        );
        // Every timing word is used somewhere (character or move).
        let mut timings = BTreeSet::new();
        for card in &cat.cards {
            match card.yomi() {
                Some(YomiCard::Character(c)) => {
                    timings.extend(c.abilities.iter().filter_map(|a| a.timing));
                }
                Some(YomiCard::Move(m)) => {
                    for e in m.ends() {
                        timings.extend(e.abilities.iter().filter_map(|a| a.timing));
                    }
                }
                _ => {}
            }
        }
        assert_eq!(timings.len(), Timing::ALL.len(), "{timings:?}");
        // Jokers, one per character, listed twice in each fixed deck.
        let jokers: Vec<&Card> = cat
            .cards
            .iter()
            .filter(|c| matches!(c.yomi(), Some(YomiCard::Joker(_))))
            .collect();
        assert_eq!(jokers.len(), 2);
        // Characters: HP, combo points, a default and a printed hand limit.
        let chars: Vec<&YomiCharacter> = cat
            .cards
            .iter()
            .filter_map(|c| match c.yomi() {
                Some(YomiCard::Character(ch)) => Some(ch),
                _ => None,
            })
            .collect();
        assert!(chars.iter().any(|c| c.hand_limit == DEFAULT_HAND_LIMIT));
        assert!(chars.iter().any(|c| c.hand_limit != DEFAULT_HAND_LIMIT));
        assert!(chars.iter().all(|c| c.hp > 0 && c.combo_points > 0));
        // Strikes have speed and damage; blocks and dodges have neither.
        for (_, e) in &all_ends {
            assert_eq!(e.kind.strikes(), e.speed.is_some());
            assert_eq!(e.kind.strikes(), e.damage.is_some());
        }
    }

    #[test]
    fn demo_values_read_as_printed() {
        let cat = demo_cat();
        // YO-A13 is the ace of spades: two supers, needing only itself.
        let Some(YomiCard::Move(ace)) = cat.card("YO-A13").and_then(Card::yomi) else {
            panic!("YO-A13 is a move card");
        };
        assert_eq!((ace.rank, ace.suit), (Rank::Ace, Suit::Spades));
        assert_eq!(ace.top.speed, Some(Speed(4)));
        assert_eq!(ace.top.speed.map(|s| s.to_string()).as_deref(), Some("0.4"));
        assert_eq!(ace.end(End::Bottom).kind, MoveKind::Throw);
        assert_eq!(ace.top.extra_aces(), 0);
        // YO-A01 is the 2 of spades, a normal: attack on top, block below.
        let Some(YomiCard::Move(two)) = cat.card("YO-A01").and_then(Card::yomi) else {
            panic!("YO-A01 is a move card");
        };
        assert_eq!(two.rank.number(), Some(2));
        assert_eq!(two.rank.class(), MoveClass::Normal);
        assert_eq!(two.top.kind, MoveKind::Attack);
        assert_eq!(two.top.aces, 0);
        assert_eq!(two.bottom.kind, MoveKind::Block);
    }

    #[test]
    fn demo_card_ids_fit_in_tags_and_names_are_bilingual() {
        let cat = demo_cat();
        for card in &cat.cards {
            assert!(card.id.len() <= crate::tags::MAX_CARD_ID, "{}", card.id);
            assert!(
                card.id
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                card.id
            );
            assert!(card.id.starts_with("YO-"), "{}", card.id);
            assert!(
                !card.name_ja.is_empty() && !card.name_en.is_empty(),
                "{}",
                card.id
            );
            assert!(!card.name_ja.is_ascii(), "{}", card.id);
        }
    }

    #[test]
    fn card_data_round_trips_through_json() {
        let cat = demo_cat();
        let card = cat.card("YO-B26").unwrap();
        let json = serde_json::to_string(&card.data).unwrap();
        let back: CardData = serde_json::from_str(&json).unwrap();
        assert_eq!(back, card.data);
    }

    // ---------------------------------------------------------------- card fields

    const HEAD: &str =
        "format = 1\ngame = \"yomi\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n";
    // Lines 1-6 are HEAD; a card starts at line 7.

    fn char_card() -> &'static str {
        "[[cards]]\nid = \"C\"\nname_ja = \"c\"\nname_en = \"c\"\nkind = \"character\"\nhp = 80\ncombo_points = 4\n"
    }

    /// A move card starting at line 7; `top` and `bottom` are its end tables.
    fn move_card(extra: &str, top: &str, bottom: &str) -> String {
        format!(
            "{HEAD}[[cards]]\nid = \"M\"\nname_ja = \"m\"\nname_en = \"m\"\nkind = \"move\"\ncharacter = \"C\"\nrank = \"7\"\nsuit = \"hearts\"\n{extra}[cards.top]\n{top}[cards.bottom]\n{bottom}"
        )
    }

    const ATTACK: &str = "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\n";
    const BLOCK: &str = "kind = \"block\"\n";

    /// Loads with the per-card checks only (the card tests use a character `C` that is not there),
    /// whether or not `Catalogue::load` runs the cross-card checks.
    fn per_card(text: &str) -> Result<Catalogue, CatalogueError> {
        super::super::load_cards::<RawYomiCard>(
            &Ctx {
                file: "x.toml",
                text,
            },
            GameId::Yomi,
        )
    }

    fn load_err(text: &str) -> CatalogueError {
        per_card(text).unwrap_err()
    }

    fn at(err: &CatalogueError) -> (usize, Option<&str>) {
        (err.line, err.field.as_deref())
    }

    #[test]
    fn a_minimal_move_card_loads() {
        // Given a move card with an attack on top and a block below,
        let text = move_card("", ATTACK, BLOCK);
        // when loaded (card by card),
        let cat = per_card(&text).unwrap();
        // then its numbers are read.
        let Some(YomiCard::Move(m)) = cat.card("M").and_then(Card::yomi) else {
            panic!("M is a move card");
        };
        assert_eq!(m.rank, Rank::Number(7));
        assert_eq!(m.suit, Suit::Hearts);
        assert_eq!(m.top.speed, Some(Speed(72)));
        assert_eq!(m.top.damage, Some(5));
        assert_eq!(m.bottom.kind, MoveKind::Block);
        assert!(!m.top.knockdown && m.top.pump.is_none());
    }

    #[test]
    fn inline_ends_and_number_ranks_load() {
        let text = format!(
            "{HEAD}[[cards]]\nid = \"M\"\nname_ja = \"m\"\nname_en = \"m\"\nkind = \"move\"\ncharacter = \"C\"\nrank = 10\nsuit = \"clubs\"\ntop = {{ kind = \"throw\", speed = 9, damage = 6, combo_points = 1, combo = [\"starter\", \"ender\"] }}\nbottom = {{ kind = \"dodge\" }}\n"
        );
        let cat = per_card(&text).unwrap();
        let Some(YomiCard::Move(m)) = cat.card("M").and_then(Card::yomi) else {
            panic!("M is a move card");
        };
        assert_eq!(m.rank, Rank::Number(10));
        assert_eq!(m.top.speed, Some(Speed(90)));
        assert_eq!(m.top.combo, [ComboRole::Starter, ComboRole::Ender]);
    }

    #[test]
    fn bad_values_name_their_line_and_field() {
        // Given bad values in various places, each error names the line and field.
        // Speed with hundredths (line 17: HEAD 6 + card 8 + header + kind).
        let text = move_card(
            "",
            "kind = \"attack\"\nspeed = 7.25\ndamage = 5\ncombo_points = 1\n",
            BLOCK,
        );
        let err = load_err(&text);
        assert_eq!(at(&err), (17, Some("top.speed")), "{err}");
        // Damage out of range on the bottom end.
        let text = move_card(
            "",
            ATTACK,
            "kind = \"throw\"\nspeed = 9.0\ndamage = 150\ncombo_points = 1\n",
        );
        let err = load_err(&text);
        assert_eq!(at(&err), (23, Some("bottom.damage")), "{err}");
        // Unknown suit, rank, end kind, combo role and timing.
        let err = load_err(&move_card("", ATTACK, BLOCK).replace("hearts", "stars"));
        assert_eq!(at(&err), (14, Some("suit")), "{err}");
        let err = load_err(&move_card("", ATTACK, BLOCK).replace("\"7\"", "\"11\""));
        assert_eq!(at(&err), (13, Some("rank")), "{err}");
        let err = load_err(&move_card("", ATTACK, "kind = \"parry\"\n"));
        assert_eq!(at(&err), (21, Some("bottom.kind")), "{err}");
        let err = load_err(&move_card(
            "",
            "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\ncombo = \"finisher\"\n",
            BLOCK,
        ));
        assert_eq!(at(&err), (20, Some("top.combo")), "{err}");
        let err = load_err(&move_card(
            "",
            "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\nabilities = [\n  { timing = \"end-of-combat\", text = \"ok\" },\n  { timing = \"whenever\", text = \"x\" },\n]\n",
            BLOCK,
        ));
        assert_eq!(at(&err), (22, Some("top.abilities")), "{err}");
        assert!(err.message.contains("whenever"), "{err}");
        // A character's HP out of range (line 12).
        let err = load_err(&format!(
            "{HEAD}{}",
            char_card().replace("hp = 80", "hp = 0")
        ));
        assert_eq!(at(&err), (12, Some("hp")), "{err}");
        // An unknown card kind (line 11).
        let err = load_err(&format!(
            "{HEAD}{}",
            char_card().replace("character", "fighter")
        ));
        assert_eq!(at(&err), (11, Some("kind")), "{err}");
        // A field no end has (serde's unknown field, at its line).
        let err = load_err(&move_card("", ATTACK, "kind = \"block\"\nstun = 2\n"));
        assert_eq!(err.line, 22, "{err}");
        assert!(err.message.contains("stun"), "{err}");
    }

    #[test]
    fn fields_each_kind_needs_are_required() {
        // A character without HP: reported at its kind line, naming the field.
        let err = load_err(&format!("{HEAD}{}", char_card().replace("hp = 80\n", "")));
        assert_eq!(at(&err), (11, Some("hp")), "{err}");
        // A move card without a suit.
        let err = load_err(&move_card("", ATTACK, BLOCK).replace("suit = \"hearts\"\n", ""));
        assert_eq!(at(&err), (11, Some("suit")), "{err}");
        // A move card without its character.
        let err = load_err(&move_card("", ATTACK, BLOCK).replace("character = \"C\"\n", ""));
        assert_eq!(at(&err), (11, Some("character")), "{err}");
        // A move card without a bottom end.
        let text = move_card("", ATTACK, "").replace("[cards.bottom]\n", "");
        let err = load_err(&text);
        assert_eq!(at(&err), (11, Some("bottom")), "{err}");
        // An attack without damage: at the end's kind line.
        let err = load_err(&move_card(
            "",
            "kind = \"attack\"\nspeed = 7.2\ncombo_points = 1\n",
            BLOCK,
        ));
        assert_eq!(at(&err), (16, Some("top.damage")), "{err}");
        // An ability end without abilities.
        let err = load_err(&move_card("", ATTACK, "kind = \"ability\"\n"));
        assert_eq!(at(&err), (21, Some("bottom.abilities")), "{err}");
        // A Joker without its character.
        let err = load_err(&format!(
            "{HEAD}[[cards]]\nid = \"J\"\nname_ja = \"j\"\nname_en = \"j\"\nkind = \"joker\"\n"
        ));
        assert_eq!(at(&err), (11, Some("character")), "{err}");
    }

    #[test]
    fn fields_a_kind_does_not_have_are_refused() {
        // A block with damage, at the damage line.
        let err = load_err(&move_card("", ATTACK, "kind = \"block\"\ndamage = 2\n"));
        assert_eq!(at(&err), (22, Some("bottom.damage")), "{err}");
        // A throw with block damage.
        let err = load_err(&move_card(
            "",
            "kind = \"throw\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\nblock_damage = 1\n",
            BLOCK,
        ));
        assert_eq!(at(&err), (20, Some("top.block_damage")), "{err}");
        // A dodge with knockdown.
        let err = load_err(&move_card(
            "",
            ATTACK,
            "kind = \"dodge\"\nknockdown = true\n",
        ));
        assert_eq!(at(&err), (22, Some("bottom.knockdown")), "{err}");
        // Aces on a 7.
        let err = load_err(&move_card(
            "",
            "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\naces = 2\n",
            BLOCK,
        ));
        assert_eq!(at(&err), (20, Some("top.aces")), "{err}");
        // A pump cost without pump damage.
        let err = load_err(&move_card(
            "",
            "kind = \"attack\"\nspeed = 7.2\ndamage = 5\ncombo_points = 1\npump_cost = 1\n",
            BLOCK,
        ));
        assert_eq!(at(&err), (16, Some("top.pump_damage")), "{err}");
        // HP on a move card.
        let err = load_err(&move_card("hp = 5\n", ATTACK, BLOCK));
        assert_eq!(at(&err), (15, Some("hp")), "{err}");
        // A suit on a Joker.
        let err = load_err(&format!(
            "{HEAD}[[cards]]\nid = \"J\"\nname_ja = \"j\"\nname_en = \"j\"\nkind = \"joker\"\ncharacter = \"C\"\nsuit = \"hearts\"\n"
        ));
        assert_eq!(at(&err), (13, Some("suit")), "{err}");
        // Ends on a character card, at the end's table.
        let err = load_err(&format!("{HEAD}{}[cards.top]\n{BLOCK}", char_card()));
        assert_eq!(at(&err), (14, Some("top")), "{err}");
        // A rank on a character card.
        let err = load_err(&format!("{HEAD}{}rank = \"A\"\n", char_card()));
        assert_eq!(at(&err), (14, Some("rank")), "{err}");
    }

    #[test]
    fn ace_supers_default_to_one_ace_and_may_need_more() {
        let text = move_card(
            "",
            ATTACK,
            "kind = \"throw\"\nspeed = 0.2\ndamage = 20\ncombo_points = 0\naces = 3\n",
        )
        .replace("\"7\"", "\"A\"");
        let cat = per_card(&text).unwrap();
        let Some(YomiCard::Move(m)) = cat.card("M").and_then(Card::yomi) else {
            panic!("M is a move card");
        };
        assert_eq!((m.top.aces, m.top.extra_aces()), (1, 0));
        assert_eq!((m.bottom.aces, m.bottom.extra_aces()), (3, 2));
        // More than four Aces cannot exist in a deck.
        let err = load_err(&text.replace("aces = 3", "aces = 5"));
        assert_eq!(at(&err), (25, Some("bottom.aces")), "{err}");
    }

    // ---------------------------------------------------------------- checks across cards

    /// The demo text with one substitution, loaded with the cross checks.
    fn demo_with(from: &str, to: &str) -> CatalogueError {
        assert!(DEMO_TOML.contains(from), "{from}");
        load("d.toml", &DEMO_TOML.replacen(from, to, 1)).unwrap_err()
    }

    fn line_of(text: &str, needle: &str) -> usize {
        let at = text.find(needle).unwrap();
        text[..at].matches('\n').count() + 1
    }

    #[test]
    fn a_card_naming_a_missing_character_is_refused_at_its_character_line() {
        let from = "id = \"YO-A05\"\nname_ja = \"風蹴り（スペードの6）\"\nname_en = \"Wind Kick (6 of Spades)\"\nkind = \"move\"\ncharacter = \"YO-A00\"";
        let to = from.replace("character = \"YO-A00\"", "character = \"YO-Z00\"");
        let err = demo_with(from, &to);
        let text = DEMO_TOML.replacen(from, &to, 1);
        assert_eq!(
            at(&err),
            (line_of(&text, "character = \"YO-Z00\""), Some("character")),
            "{err}"
        );
        assert!(err.message.contains("YO-Z00"), "{err}");
        // Naming a move card as the character is refused too.
        let to = from.replace("character = \"YO-A00\"", "character = \"YO-A01\"");
        let err = demo_with(from, &to);
        assert!(err.message.contains("not a character card"), "{err}");
    }

    #[test]
    fn two_cards_of_one_rank_and_suit_are_refused() {
        // YO-A02 (3 of spades) relabelled as the 2 of spades.
        let from = "character = \"YO-A00\"\nrank = \"3\"\nsuit = \"spades\"";
        let err = demo_with(
            from,
            "character = \"YO-A00\"\nrank = \"2\"\nsuit = \"spades\"",
        );
        assert_eq!(err.field.as_deref(), Some("rank"), "{err}");
        assert!(err.message.contains("YO-A01"), "{err}");
    }

    #[test]
    fn an_incomplete_or_mixed_fixed_deck_is_refused() {
        // One Joker instead of two.
        let err = demo_with("\"YO-A53\", \"YO-A53\",", "\"YO-A53\",");
        assert_eq!(err.field.as_deref(), Some("cards"), "{err}");
        assert!(err.message.contains("1 Joker(s)"), "{err}");
        // A card of the other character.
        let err = demo_with("\"YO-A52\", \"YO-A53\",", "\"YO-B52\", \"YO-A53\",");
        assert!(err.message.contains("YO-B52"), "{err}");
        assert_eq!(err.line, line_of(DEMO_TOML, "id = \"akane\"") + 2, "{err}");
        // No character card.
        let err = demo_with("  \"YO-A00\", ", "  ");
        assert!(err.message.contains("exactly one character card"), "{err}");
    }

    #[test]
    fn every_character_needs_exactly_one_fixed_deck() {
        // A second deck for Akane.
        let text = format!(
            "{DEMO_TOML}\n[[decks]]\nid = \"akane2\"\nname = \"again\"\ncards = {:?}\n",
            demo_cat().deck("akane").unwrap().cards
        );
        let err = load("d.toml", &text).unwrap_err();
        assert_eq!(
            at(&err),
            (line_of(&text, "id = \"akane2\""), Some("id")),
            "{err}"
        );
        // No deck for Gou.
        let cut = DEMO_TOML.find("[[decks]]\nid = \"gou\"").unwrap();
        let err = load("d.toml", &DEMO_TOML[..cut]).unwrap_err();
        assert_eq!(
            at(&err),
            (line_of(DEMO_TOML, "id = \"YO-B00\""), Some("id")),
            "{err}"
        );
    }

    #[test]
    fn load_refuses_another_games_catalogue() {
        let err = load("j.toml", super::super::JAKEN_DEMO_TOML).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("game"), "{err}");
    }

    // ---------------------------------------------------------------- deck rules

    /// A deck file for the demo set: `[main]` from a list of card ids (one per copy).
    fn deck_text(ids: &[&str], variant: Option<&str>, extra: &[&str]) -> String {
        let count = |ids: &[&str]| {
            let mut m: BTreeMap<String, usize> = BTreeMap::new();
            for id in ids {
                *m.entry((*id).to_owned()).or_default() += 1;
            }
            m.into_iter()
                .map(|(id, n)| format!("{id} = {n}\n"))
                .collect::<String>()
        };
        let variant = variant.map_or(String::new(), |v| format!("variant = \"{v}\"\n"));
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!("[extra]\n{}", count(extra))
        };
        format!(
            "format = 1\ngame = \"yomi\"\nset = \"yomi-demo\"\nname = \"Mine\"\nowner = \"Aki\"\n{variant}[main]\n{}{extra}",
            count(ids)
        )
    }

    fn fixed(cat: &Catalogue, id: &str) -> Vec<String> {
        cat.deck(id).unwrap().cards.clone()
    }

    fn rules_of(cat: &Catalogue, text: &str) -> Vec<String> {
        let deck = Deck::load("d.toml", text).unwrap();
        deck.check(cat)
            .unwrap()
            .into_iter()
            .map(|v| v.rule)
            .collect()
    }

    fn violations(cat: &Catalogue, text: &str) -> Vec<Violation> {
        Deck::load("d.toml", text).unwrap().check(cat).unwrap()
    }

    fn refs(ids: &[String]) -> Vec<&str> {
        ids.iter().map(String::as_str).collect()
    }

    #[test]
    fn each_fixed_deck_is_legal() {
        let cat = demo_cat();
        for id in ["akane", "gou"] {
            // Given a player's deck holding exactly the fixed deck,
            let ids = fixed(&cat, id);
            // when checked, then nothing is wrong.
            let problems = violations(&cat, &deck_text(&refs(&ids), None, &[]));
            assert!(problems.is_empty(), "{id}: {problems:?}");
        }
    }

    #[test]
    fn a_missing_card_is_reported() {
        let cat = demo_cat();
        let ids = fixed(&cat, "akane");
        let mut short = refs(&ids);
        short.retain(|c| *c != "YO-A07");
        let v = violations(&cat, &deck_text(&short, None, &[]));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].rule, "yomi.deck-missing");
        assert!(v[0].sentence.contains("YO-A07"), "{}", v[0].sentence);
        // One Joker short is missing too.
        let mut one_joker = refs(&ids);
        one_joker.pop();
        assert_eq!(
            rules_of(&cat, &deck_text(&one_joker, None, &[])),
            ["yomi.deck-missing"]
        );
    }

    #[test]
    fn a_surplus_copy_is_reported() {
        let cat = demo_cat();
        let ids = fixed(&cat, "gou");
        let mut more = refs(&ids);
        more.push("YO-B13");
        let v = violations(&cat, &deck_text(&more, None, &[]));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].rule, "yomi.deck-surplus");
        assert!(v[0].sentence.contains("YO-B13"), "{}", v[0].sentence);
    }

    #[test]
    fn another_characters_card_is_reported() {
        let cat = demo_cat();
        let ids = fixed(&cat, "akane");
        let mut mixed = refs(&ids);
        mixed.push("YO-B05");
        let v = violations(&cat, &deck_text(&mixed, None, &[]));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].rule, "yomi.deck-other-character");
        assert!(v[0].sentence.contains("YO-B05"), "{}", v[0].sentence);
        // Swapped for one of Akane's: the swap shows as missing too.
        let swapped: Vec<&str> = refs(&ids)
            .into_iter()
            .map(|c| if c == "YO-A05" { "YO-B05" } else { c })
            .collect();
        assert_eq!(
            rules_of(&cat, &deck_text(&swapped, None, &[])),
            ["yomi.deck-other-character", "yomi.deck-missing"]
        );
    }

    #[test]
    fn the_character_card_is_needed_exactly_once() {
        let cat = demo_cat();
        let ids = fixed(&cat, "akane");
        // Without it.
        let without: Vec<&str> = refs(&ids).into_iter().filter(|c| *c != "YO-A00").collect();
        let v = violations(&cat, &deck_text(&without, None, &[]));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].rule, "yomi.deck-character-card");
        assert!(v[0].sentence.contains("YO-A00"), "{}", v[0].sentence);
        // Twice.
        let mut twice = refs(&ids);
        twice.push("YO-A00");
        assert_eq!(
            rules_of(&cat, &deck_text(&twice, None, &[])),
            ["yomi.deck-character-card"]
        );
        // With the other character's card as well.
        let mut two = refs(&ids);
        two.push("YO-B00");
        assert_eq!(
            rules_of(&cat, &deck_text(&two, None, &[])),
            ["yomi.deck-character-card"]
        );
    }

    #[test]
    fn an_extra_section_is_reported() {
        let cat = demo_cat();
        let ids = fixed(&cat, "gou");
        let v = violations(&cat, &deck_text(&refs(&ids), None, &["YO-A53"]));
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].rule, "yomi.deck-extra");
    }

    #[test]
    fn variants_beginner_is_known_others_are_not() {
        let cat = demo_cat();
        let ids = fixed(&cat, "akane");
        let no_jokers: Vec<&str> = refs(&ids).into_iter().filter(|c| *c != "YO-A53").collect();
        // The beginner game: the fixed deck without its Jokers is legal,
        assert!(violations(&cat, &deck_text(&no_jokers, Some(BEGINNER), &[])).is_empty());
        // with them it is not,
        assert_eq!(
            rules_of(&cat, &deck_text(&refs(&ids), Some(BEGINNER), &[])),
            ["yomi.deck-beginner-jokers"]
        );
        // and the standard game needs them.
        assert_eq!(
            rules_of(&cat, &deck_text(&no_jokers, None, &[])),
            ["yomi.deck-missing"]
        );
        // An unknown variant.
        assert_eq!(
            rules_of(&cat, &deck_text(&refs(&ids), Some("draft"), &[])),
            ["deck.variant"]
        );
    }

    #[test]
    fn a_catalogue_without_the_fixed_deck_cannot_confirm_it() {
        // Loaded without the cross checks, a catalogue may lack a character's fixed deck.
        let mut cat = demo_cat();
        let ids = fixed(&cat, "akane");
        cat.decks.retain(|d| d.id != "akane");
        assert_eq!(
            rules_of(&cat, &deck_text(&refs(&ids), None, &[])),
            ["yomi.deck-fixed-list"]
        );
    }

    #[test]
    fn an_empty_deck_is_reported() {
        let cat = demo_cat();
        assert_eq!(
            rules_of(&cat, &deck_text(&[], None, &[])),
            ["yomi.deck-character-card"]
        );
    }

    #[test]
    fn every_violation_has_a_sentence_and_reference() {
        let cat = demo_cat();
        let ids = fixed(&cat, "akane");
        let mut bad: Vec<&str> = refs(&ids)
            .into_iter()
            .filter(|c| *c != "YO-A00" && *c != "YO-A07")
            .collect();
        bad.push("YO-B05");
        bad.push("YO-A13");
        let v = violations(&cat, &deck_text(&bad, Some("draft"), &["YO-B01"]));
        let rules: BTreeSet<&str> = v.iter().map(|v| v.rule.as_str()).collect();
        assert_eq!(v.len(), rules.len(), "one violation per rule: {v:?}");
        assert_eq!(v.len(), 6, "{v:?}");
        for v in &v {
            assert!(v.sentence.ends_with('.'), "{v}");
            assert!(!v.reference.is_empty(), "{v}");
        }
    }
}
