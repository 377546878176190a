//! Yomi's cards: character cards, and the cards of each character's fixed deck (normals 2–10,
//! specials J/Q/K, supers A, Jokers), every move card with its two ends.
//!
//! Rules: `yomi.md` §2 (setup) and §6 (card data model). The file format and every default is
//! documented in `docs/catalogue-yomi.md`.
//!
//! ```
//! let cat = cards::catalogue::yomi::demo().unwrap();
//! let akane = cat.card("YO-A00").and_then(|c| c.yomi()).unwrap();
//! assert!(matches!(akane, cards::catalogue::YomiCard::Character(c) if c.hp == 80));
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The hand limit when a character card gives none (second edition: 12 after the power-up phase).
pub const DEFAULT_HAND_LIMIT: u8 = 12;

/// Jokers in a character deck.
pub const JOKERS_PER_DECK: usize = 2;

/// Cards in a character deck, Jokers included, character card not included (a poker deck).
pub const DECK_SIZE: usize = 54;

/// The deck variant for the beginner game: the fixed deck without its Jokers (`yomi.md` §8).
pub const BEGINNER: &str = "beginner";
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

    /// The kind's Japanese name, as the seed and the window call it (打撃, 投げ, 防御, 回避, 能力).
    pub fn name_ja(self) -> &'static str {
        match self {
            MoveKind::Attack => "打撃",
            MoveKind::Throw => "投げ",
            MoveKind::Block => "防御",
            MoveKind::Dodge => "回避",
            MoveKind::Ability => "能力",
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
    pub(super) fn parse(text: &str) -> Option<ComboRole> {
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
