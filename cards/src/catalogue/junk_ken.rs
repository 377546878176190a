//! The JUNK-KEN (JUNK-拳) card schema and deck construction rules.
//!
//! Four kinds of card (`docs/catalogue-junk-ken.md` is the full reference):
//!
//! - `character` (キャラクターカード): a main-deck card. Face up in the battle zone it is the
//!   character: an HP die, one action (ATK/DRAW/HP and an amount) per janken hand, skill icons.
//!   Face down in the support zone it is the supporter (サポーター): an attribute (属性) hand, the
//!   action it adds when its owner wins with that hand, and a SUPPORT SKILL (maybe `<PASSIVE>`).
//! - `gear` (ギアカード): a main-deck card placed face up in the support zone, with a cost and a
//!   durability (耐久度) die.
//! - `awakening` (覚醒カード, EX): an extra-deck card stacked on a 【character】 or a 《category》
//!   card that stayed two turns in the battle zone; it is a character of its own.
//! - `field` (フィールドカード): an extra-deck card with a countdown die (カウント), an attribute,
//!   the players its effect targets and what using the effect lowers the die by.
//!
//! Skill icons ([`SkillIcon`]) are structured: Bullet I–III with the marked hands and the counters
//! an effect costs, Clockwise, Dice rolling with its `{1d6=6}⇒` condition and effect, Haste, Limited
//! and Necromancy with the marked hands. Effects the players resolve by hand stay text: the card's
//! `text` (its CHARACTER SKILL, or the gear or field effect) and the supporter's `support_skill`.
//!
//! A card as typed in a catalogue:
//!
//! ```toml
//! [[cards]]
//! id = "JK06"
//! name_ja = "鉄くず銃士"
//! name_en = "Scrap Gunner"
//! kind = "character"
//! cost = 3
//! categories = ["機械"]
//! rock = "atk 2"
//! scissors = "draw 1"
//! paper = "hp 1"
//! support_hand = "rock"
//! support_action = "atk 2"
//! bullet = 2
//! bullet_hands = ["rock"]
//! bullet_cost = 2
//! text = "BULLET II (グー): remove 2 counters: deal 3 damage to the opposing character."
//! ```

use super::{Card, CardData, Catalogue, CatalogueError, Ctx, RawCard, Span, raw_card};
use crate::core::Violation;
use crate::decks::Deck;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The JUNK-KEN demo set, embedded in the binary (invented for Tableside, not official cards).
pub const DEMO_TOML: &str = include_str!("../../data/junk-ken-demo.toml");

/// Loads the embedded JUNK-KEN demo set.
pub fn demo() -> Result<Catalogue, CatalogueError> {
    Catalogue::load("junk-ken-demo.toml (embedded)", DEMO_TOML)
}

/// A janken hand (じゃんけんの手).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hand {
    /// グー (rock, ✊).
    Rock,
    /// チョキ (scissors, ✌).
    Scissors,
    /// パー (paper, ✋).
    Paper,
}

impl Hand {
    /// The three hands, in the order rock, scissors, paper.
    pub const ALL: [Hand; 3] = [Hand::Rock, Hand::Scissors, Hand::Paper];

    /// True when this hand beats `other` (rock beats scissors beats paper beats rock).
    pub fn beats(self, other: Hand) -> bool {
        matches!(
            (self, other),
            (Hand::Rock, Hand::Scissors)
                | (Hand::Scissors, Hand::Paper)
                | (Hand::Paper, Hand::Rock)
        )
    }

    /// The catalogue key of this hand: `rock`, `scissors` or `paper`.
    pub fn key(self) -> &'static str {
        match self {
            Hand::Rock => "rock",
            Hand::Scissors => "scissors",
            Hand::Paper => "paper",
        }
    }

    /// The Japanese term with the English one, e.g. `グー (rock)`.
    pub fn label(self) -> &'static str {
        match self {
            Hand::Rock => "グー (rock)",
            Hand::Scissors => "チョキ (scissors)",
            Hand::Paper => "パー (paper)",
        }
    }

    /// Reads a hand as typed in a catalogue: `rock`/`グー`/`✊`, `scissors`/`チョキ`/`✌`,
    /// `paper`/`パー`/`✋` (English words in any case).
    pub fn parse(text: &str) -> Option<Hand> {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "rock" | "gu" | "goo" | "グー" | "✊" => Some(Hand::Rock),
            "scissors" | "choki" | "チョキ" | "✌" | "✌\u{fe0f}" => Some(Hand::Scissors),
            "paper" | "pa" | "パー" | "✋" => Some(Hand::Paper),
            _ => None,
        }
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What a janken win does: 「ATK」「DRAW」「HP」.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// ATK: the opposing character takes this much damage (攻撃).
    Atk,
    /// DRAW: draw this many cards from the deck.
    Draw,
    /// HP: your own character gets back this much HP (体力回復).
    Hp,
}

impl ActionKind {
    /// The printed term: `ATK`, `DRAW` or `HP`.
    pub fn label(self) -> &'static str {
        match self {
            ActionKind::Atk => "ATK",
            ActionKind::Draw => "DRAW",
            ActionKind::Hp => "HP",
        }
    }
}

/// An action with its amount, e.g. ATK 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    /// ATK, DRAW or HP.
    pub kind: ActionKind,
    /// The amount, 1–9.
    pub value: u8,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.label(), self.value)
    }
}

/// The highest amount an action may print.
pub const MAX_ACTION_VALUE: u8 = 9;

/// Reads `atk 2`, `DRAW 1`, `hp+2`: the kind, then the amount. `Err` says what is wrong.
fn parse_action(text: &str) -> Result<Action, String> {
    let t = text.trim().to_ascii_lowercase();
    let split = t
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let (word, rest) = t.split_at(split);
    let kind = match word {
        "atk" => ActionKind::Atk,
        "draw" => ActionKind::Draw,
        "hp" => ActionKind::Hp,
        _ => {
            return Err(format!(
                "unknown action `{text}` (expected `atk N`, `draw N` or `hp N`)"
            ));
        }
    };
    let number = rest.trim().trim_start_matches('+').trim();
    let value: u8 = number
        .parse()
        .map_err(|_| format!("action `{text}` needs an amount, e.g. `{word} 2`"))?;
    if !(1..=MAX_ACTION_VALUE).contains(&value) {
        return Err(format!(
            "action `{text}`: the amount must be 1 to {MAX_ACTION_VALUE}"
        ));
    }
    Ok(Action { kind, value })
}

/// A character's action per winning hand (the printed hand table). `None`: that hand does nothing
/// when it wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandActions {
    /// After a win with グー (rock).
    pub rock: Option<Action>,
    /// After a win with チョキ (scissors).
    pub scissors: Option<Action>,
    /// After a win with パー (paper).
    pub paper: Option<Action>,
}

impl HandActions {
    /// The action for a win with `hand`.
    pub fn get(&self, hand: Hand) -> Option<Action> {
        match hand {
            Hand::Rock => self.rock,
            Hand::Scissors => self.scissors,
            Hand::Paper => self.paper,
        }
    }
}

/// The supporter side (サポーター) of a character card, used while it lies face down in the support
/// zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Supporter {
    /// 属性: when its owner wins with this hand, the supporter acts too (and is destroyed at the end
    /// of that turn).
    pub hand: Hand,
    /// The action the supporter adds after such a win (Haste may add +1 to its amount).
    pub action: Action,
    /// SUPPORT SKILL text, resolved by the players; empty when the card prints none.
    pub skill: String,
    /// `<PASSIVE>` (パッシブスキル): the skill is on all the time, win or lose.
    pub passive: bool,
}

/// How a dice-rolling condition compares the total rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// `=`: exactly the value.
    Eq,
    /// `>=` or `≥`: the value or more.
    AtLeast,
    /// `<=` or `≤`: the value or less.
    AtMost,
    /// `>`: more than the value.
    Above,
    /// `<`: less than the value.
    Below,
}

impl Comparison {
    /// The symbol as printed.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Eq => "=",
            Comparison::AtLeast => ">=",
            Comparison::AtMost => "<=",
            Comparison::Above => ">",
            Comparison::Below => "<",
        }
    }

    fn holds(self, total: u32, value: u32) -> bool {
        match self {
            Comparison::Eq => total == value,
            Comparison::AtLeast => total >= value,
            Comparison::AtMost => total <= value,
            Comparison::Above => total > value,
            Comparison::Below => total < value,
        }
    }
}

/// The roll of a Dice-rolling skill (ダイスロールスキル), printed `{1d6=6}⇒`: roll `dice` dice
/// of `sides` faces at the start of each set phase; the effect is on when the total satisfies the
/// comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiceRoll {
    /// How many dice (the `1` of `1d6`).
    pub dice: u8,
    /// Faces per die (the `6` of `1d6`).
    pub sides: u8,
    /// How the total is compared.
    pub comparison: Comparison,
    /// The value compared with (the last `6` of `{1d6=6}`).
    pub value: u16,
}

impl DiceRoll {
    /// Reads `{1d6=6}`, `1d6=6`, `{2d6>=10}⇒`, `d6≥5` (braces and the trailing `⇒` are optional;
    /// a missing dice count means 1). `Err` says what is wrong.
    pub fn parse(text: &str) -> Result<DiceRoll, String> {
        let bad = |why: &str| {
            format!("dice roll `{text}` {why} (expected e.g. `{{1d6=6}}` or `{{2d6>=10}}`)")
        };
        let mut t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        for suffix in ["⇒", "=>", "→"] {
            if let Some(s) = t.strip_suffix(suffix) {
                t = s.to_owned();
            }
        }
        let t = match (t.strip_prefix('{'), t.ends_with('}')) {
            (Some(inner), true) => inner.trim_end_matches('}').to_owned(),
            (None, false) => t,
            _ => return Err(bad("has unbalanced braces")),
        };
        let t = t.to_ascii_lowercase();
        let (count, rest) = t.split_once('d').ok_or_else(|| bad("has no `d`"))?;
        let dice: u8 = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| bad("has a bad dice count"))?
        };
        let op_at = rest
            .find(|c: char| !c.is_ascii_digit())
            .ok_or_else(|| bad("has no condition"))?;
        let (sides, cond) = rest.split_at(op_at);
        let sides: u8 = sides.parse().map_err(|_| bad("has bad die faces"))?;
        let (comparison, value) = [
            (">=", Comparison::AtLeast),
            ("≥", Comparison::AtLeast),
            ("<=", Comparison::AtMost),
            ("≤", Comparison::AtMost),
            ("==", Comparison::Eq),
            ("=", Comparison::Eq),
            (">", Comparison::Above),
            ("<", Comparison::Below),
        ]
        .into_iter()
        .find_map(|(sym, cmp)| cond.strip_prefix(sym).map(|v| (cmp, v)))
        .ok_or_else(|| bad("has an unknown comparison"))?;
        let value: u16 = value.parse().map_err(|_| bad("has a bad value"))?;
        if !(1..=9).contains(&dice) {
            return Err(bad("must roll 1 to 9 dice"));
        }
        if !(2..=100).contains(&sides) {
            return Err(bad("must use dice of 2 to 100 faces"));
        }
        let roll = DiceRoll {
            dice,
            sides,
            comparison,
            value,
        };
        let (lo, hi) = (roll.min_total(), roll.max_total());
        let hits = (lo..=hi).filter(|&t| roll.holds(t)).count();
        if hits == 0 {
            return Err(bad("can never succeed"));
        }
        if u32::try_from(hits).unwrap_or(u32::MAX) == hi - lo + 1 {
            return Err(bad("always succeeds"));
        }
        Ok(roll)
    }

    /// The lowest total the dice can show.
    pub fn min_total(&self) -> u32 {
        u32::from(self.dice)
    }

    /// The highest total the dice can show.
    pub fn max_total(&self) -> u32 {
        u32::from(self.dice) * u32::from(self.sides)
    }

    /// True when a rolled total switches the effect on.
    pub fn holds(&self, total: u32) -> bool {
        self.comparison.holds(total, u32::from(self.value))
    }

    /// The printed form, e.g. `{1d6=6}`.
    pub fn notation(&self) -> String {
        format!(
            "{{{}d{}{}{}}}",
            self.dice,
            self.sides,
            self.comparison.symbol(),
            self.value
        )
    }
}

impl fmt::Display for DiceRoll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

/// A skill icon: a name and mark for cards that need special handling or components.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "icon", rename_all = "kebab-case")]
pub enum SkillIcon {
    /// バレットスキル Bullet I–III: a counter at the end of each turn the character threw a marked
    /// hand (not while replacing, and only if it survived), up to `level` counters; removing `cost`
    /// counters uses the effect in the card's text.
    Bullet {
        /// I, II or III: the most counters the character holds (1–3).
        level: u8,
        /// The hands with the Bullet mark (専用マーク).
        marked_hands: Vec<Hand>,
        /// Counters removed to use the effect (1..=level).
        cost: u8,
    },
    /// クロックワイズスキル Clockwise: enters turned 90° clockwise, turns 90° more at each set
    /// phase; the effect in the card's text is usable when it is upright again.
    Clockwise,
    /// ダイスロールスキル Dice rolling: at each set phase start, roll; when the condition holds the
    /// effect is on until the next set phase.
    DiceRolling {
        /// The roll and its condition, e.g. `{1d6=6}`.
        roll: DiceRoll,
        /// What holds while the roll succeeded (resolved by the players).
        effect: String,
    },
    /// ヘイストスキル Haste: turn your supporter face up for +1 to its ATK, DRAW or HP amount; that
    /// card is destroyed at the end of the turn. Never for gear; never stacks.
    Haste,
    /// リミテッドカード Limited: at most one copy in a deck, extra deck included.
    Limited,
    /// ネクロマンシースキル Necromancy: at the end of each turn the character threw a marked hand (and
    /// survived, not replacing), flip one card of either graveyard face down.
    Necromancy {
        /// The hands with the Necromancy mark.
        marked_hands: Vec<Hand>,
    },
}

impl SkillIcon {
    /// The icon's name as printed, e.g. `Bullet II` or `Dice rolling {1d6=6}`.
    pub fn label(&self) -> String {
        match self {
            SkillIcon::Bullet { level, .. } => {
                let roman = match level {
                    1 => "I",
                    2 => "II",
                    _ => "III",
                };
                format!("Bullet {roman}")
            }
            SkillIcon::Clockwise => "Clockwise".to_owned(),
            SkillIcon::DiceRolling { roll, .. } => format!("Dice rolling {roll}"),
            SkillIcon::Haste => "Haste".to_owned(),
            SkillIcon::Limited => "Limited".to_owned(),
            SkillIcon::Necromancy { .. } => "Necromancy".to_owned(),
        }
    }
}

/// A character card: character face up in the battle zone, supporter face down in the support zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JunkKenCharacter {
    /// コスト: counts toward the deck-cost cap (25 in the standard rules).
    pub cost: u8,
    /// Faces of the HP (体力) die rolled when it enters the battle zone (default 6).
    pub hp_die: u8,
    /// The action per winning hand.
    pub actions: HandActions,
    /// The supporter side; `None` when the card prints none (face down it then only fills the zone).
    pub supporter: Option<Supporter>,
    /// 《カテゴリー》 names, which awakening cards may target.
    pub categories: Vec<String>,
    /// Skill icons, in the order Limited, Bullet, Clockwise, Dice rolling, Haste, Necromancy.
    pub icons: Vec<SkillIcon>,
}

/// A gear card (ギアカード): placed face up in the support zone with its durability die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JunkKenGear {
    /// コスト: counts toward the deck-cost cap.
    pub cost: u8,
    /// 耐久度 (the number in the pentagon): the die starts on it; below 1, the gear is removed from
    /// the game at the end of that turn.
    pub durability: u8,
    /// The events that lower the durability die by 1 (text; the players press the button).
    pub durability_event: String,
    /// 《カテゴリー》 names.
    pub categories: Vec<String>,
    /// Skill icons (only Limited).
    pub icons: Vec<SkillIcon>,
}

/// What an awakening card may be stacked on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", content = "name", rename_all = "kebab-case")]
pub enum AwakenTarget {
    /// 【キャラクター】: a card of this name (Japanese or English).
    Character(String),
    /// 《カテゴリー》: a card of this category.
    Category(String),
}

impl AwakenTarget {
    /// True when `card` (the character in the battle zone) is a valid base for the awakening.
    pub fn matches(&self, card: &Card) -> bool {
        match self {
            AwakenTarget::Character(name) => card.name_ja == *name || card.name_en == *name,
            AwakenTarget::Category(cat) => card
                .junk_ken()
                .is_some_and(|c| c.categories().iter().any(|c| c == cat)),
        }
    }
}

impl fmt::Display for AwakenTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AwakenTarget::Character(n) => write!(f, "【{n}】"),
            AwakenTarget::Category(c) => write!(f, "《{c}》"),
        }
    }
}

/// An awakening card (覚醒カード, EX card): from the extra deck onto a character that has been in
/// the battle zone two turns in a row; the stack is then one character with this card's data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JunkKenAwakening {
    /// The 【character】 or 《category》 it awakens.
    pub target: AwakenTarget,
    /// Faces of the HP die rolled once on awakening (default 6).
    pub hp_die: u8,
    /// The action per winning hand.
    pub actions: HandActions,
    /// 《カテゴリー》 names (a later awakening may target them).
    pub categories: Vec<String>,
    /// Skill icons.
    pub icons: Vec<SkillIcon>,
}

/// Whom a field card's effect concerns: 「自分」「相手」「全員」.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldScope {
    /// 自分: its owner.
    Own,
    /// 相手: the opponent.
    Opponent,
    /// 全員: every player.
    All,
}

impl FieldScope {
    /// The Japanese term with the English one.
    pub fn label(self) -> &'static str {
        match self {
            FieldScope::Own => "自分 (own)",
            FieldScope::Opponent => "相手 (opponent)",
            FieldScope::All => "全員 (all)",
        }
    }
}

/// A field card (フィールドカード): from the extra deck into the field zone with a countdown die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JunkKenField {
    /// カウント (the number in the circle by the clock icon): the die starts on it, loses 1 at each
    /// janken phase end; below 1 the card is destroyed and removed from the game.
    pub count: u8,
    /// 属性: a new field card of the advantaged attribute (janken order) destroys the opposing one.
    /// `None`: it neither destroys nor is destroyed that way.
    pub attribute: Option<Hand>,
    /// Whom the effect concerns.
    pub scope: FieldScope,
    /// How much the owner lowers the die to use the effect in the set phase; 0 when the effect is
    /// always on and cannot be used that way (default 1).
    pub spend: u8,
    /// 《カテゴリー》 names.
    pub categories: Vec<String>,
    /// Skill icons (only Limited).
    pub icons: Vec<SkillIcon>,
}

/// A JUNK-KEN card's data, by kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum JunkKenCard {
    /// キャラクターカード (also the サポーター when face down): main deck.
    Character(JunkKenCharacter),
    /// ギアカード: main deck.
    Gear(JunkKenGear),
    /// 覚醒カード (EX): extra deck.
    Awakening(JunkKenAwakening),
    /// フィールドカード: extra deck.
    Field(JunkKenField),
}

impl JunkKenCard {
    /// The kind as typed in a catalogue: `character`, `gear`, `awakening` or `field`.
    pub fn kind_name(&self) -> &'static str {
        match self {
            JunkKenCard::Character(_) => "character",
            JunkKenCard::Gear(_) => "gear",
            JunkKenCard::Awakening(_) => "awakening",
            JunkKenCard::Field(_) => "field",
        }
    }

    /// The kind's Japanese term.
    pub fn kind_ja(&self) -> &'static str {
        match self {
            JunkKenCard::Character(_) => "キャラクター",
            JunkKenCard::Gear(_) => "ギア",
            JunkKenCard::Awakening(_) => "覚醒",
            JunkKenCard::Field(_) => "フィールド",
        }
    }

    /// True for the cards of the extra deck (awakening and field).
    pub fn is_extra(&self) -> bool {
        matches!(self, JunkKenCard::Awakening(_) | JunkKenCard::Field(_))
    }

    /// The cost toward the deck-cost cap (0 for extra-deck cards, which print none).
    pub fn cost(&self) -> u8 {
        match self {
            JunkKenCard::Character(c) => c.cost,
            JunkKenCard::Gear(g) => g.cost,
            JunkKenCard::Awakening(_) | JunkKenCard::Field(_) => 0,
        }
    }

    /// The skill icons.
    pub fn icons(&self) -> &[SkillIcon] {
        match self {
            JunkKenCard::Character(c) => &c.icons,
            JunkKenCard::Gear(g) => &g.icons,
            JunkKenCard::Awakening(a) => &a.icons,
            JunkKenCard::Field(f) => &f.icons,
        }
    }

    /// The 《カテゴリー》 names.
    pub fn categories(&self) -> &[String] {
        match self {
            JunkKenCard::Character(c) => &c.categories,
            JunkKenCard::Gear(g) => &g.categories,
            JunkKenCard::Awakening(a) => &a.categories,
            JunkKenCard::Field(f) => &f.categories,
        }
    }

    /// True for a Limited (リミテッド) card.
    pub fn is_limited(&self) -> bool {
        self.icons().contains(&SkillIcon::Limited)
    }

    /// The action table, for cards that can be the character (character and awakening cards).
    pub fn actions(&self) -> Option<&HandActions> {
        match self {
            JunkKenCard::Character(c) => Some(&c.actions),
            JunkKenCard::Awakening(a) => Some(&a.actions),
            JunkKenCard::Gear(_) | JunkKenCard::Field(_) => None,
        }
    }

    /// The HP die's faces, for cards that can be the character.
    pub fn hp_die(&self) -> Option<u8> {
        match self {
            JunkKenCard::Character(c) => Some(c.hp_die),
            JunkKenCard::Awakening(a) => Some(a.hp_die),
            JunkKenCard::Gear(_) | JunkKenCard::Field(_) => None,
        }
    }
}

raw_card!(RawJunkKenCard {
    kind: String,
    cost: Option<i64>,
    categories: Option<Vec<String>>,
    limited: Option<bool>,
    hp_die: Option<i64>,
    rock: Option<String>,
    scissors: Option<String>,
    paper: Option<String>,
    support_hand: Option<String>,
    support_action: Option<String>,
    support_skill: Option<String>,
    support_passive: Option<bool>,
    bullet: Option<i64>,
    bullet_hands: Option<Vec<String>>,
    bullet_cost: Option<i64>,
    clockwise: Option<bool>,
    dice: Option<String>,
    dice_effect: Option<String>,
    haste: Option<bool>,
    necromancy_hands: Option<Vec<String>>,
    durability: Option<i64>,
    durability_event: Option<String>,
    target_character: Option<String>,
    target_category: Option<String>,
    count: Option<i64>,
    attribute: Option<String>,
    scope: Option<String>,
    spend: Option<i64>,
});

impl RawCard for RawJunkKenCard {
    fn common(&self) -> super::Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        Builder {
            ctx,
            span,
            rc: self,
        }
        .card()
        .map(CardData::JunkKen)
    }
}

/// The fields a character card may have besides the common ones.
const CHARACTER_FIELDS: &[&str] = &[
    "cost",
    "categories",
    "limited",
    "hp_die",
    "rock",
    "scissors",
    "paper",
    "support_hand",
    "support_action",
    "support_skill",
    "support_passive",
    "bullet",
    "bullet_hands",
    "bullet_cost",
    "clockwise",
    "dice",
    "dice_effect",
    "haste",
    "necromancy_hands",
];
/// The fields a gear card may have.
const GEAR_FIELDS: &[&str] = &[
    "cost",
    "categories",
    "limited",
    "durability",
    "durability_event",
];
/// The fields an awakening card may have.
const AWAKENING_FIELDS: &[&str] = &[
    "categories",
    "limited",
    "hp_die",
    "rock",
    "scissors",
    "paper",
    "bullet",
    "bullet_hands",
    "bullet_cost",
    "clockwise",
    "dice",
    "dice_effect",
    "haste",
    "necromancy_hands",
    "target_character",
    "target_category",
];
/// The fields a field card may have.
const FIELD_FIELDS: &[&str] = &[
    "categories",
    "limited",
    "count",
    "attribute",
    "scope",
    "spend",
];

/// The default faces of an HP die.
pub const DEFAULT_HP_DIE: u8 = 6;

struct Builder<'a, 'b> {
    ctx: &'a Ctx<'b>,
    span: &'a Span,
    rc: &'a RawJunkKenCard,
}

impl Builder<'_, '_> {
    fn err(&self, field: &str, message: impl Into<String>) -> CatalogueError {
        self.ctx.field_err(self.span, field, message)
    }

    /// An error about a missing `field`, shown on the line of `anchor` (a field that is there).
    fn missing_at(&self, anchor: &str, field: &str, message: impl Into<String>) -> CatalogueError {
        self.ctx.err(
            self.ctx.field_offset(self.span, anchor),
            Some(field),
            message,
        )
    }

    fn need<T>(&self, field: &str, value: &Option<T>) -> Result<(), CatalogueError> {
        self.ctx
            .need(self.span, &self.rc.id, &self.rc.kind, field, value)
    }

    /// Whether each optional field is present, in file-documentation order.
    fn present(&self) -> [(&'static str, bool); 27] {
        let r = self.rc;
        [
            ("cost", r.cost.is_some()),
            ("categories", r.categories.is_some()),
            ("limited", r.limited.is_some()),
            ("hp_die", r.hp_die.is_some()),
            ("rock", r.rock.is_some()),
            ("scissors", r.scissors.is_some()),
            ("paper", r.paper.is_some()),
            ("support_hand", r.support_hand.is_some()),
            ("support_action", r.support_action.is_some()),
            ("support_skill", r.support_skill.is_some()),
            ("support_passive", r.support_passive.is_some()),
            ("bullet", r.bullet.is_some()),
            ("bullet_hands", r.bullet_hands.is_some()),
            ("bullet_cost", r.bullet_cost.is_some()),
            ("clockwise", r.clockwise.is_some()),
            ("dice", r.dice.is_some()),
            ("dice_effect", r.dice_effect.is_some()),
            ("haste", r.haste.is_some()),
            ("necromancy_hands", r.necromancy_hands.is_some()),
            ("durability", r.durability.is_some()),
            ("durability_event", r.durability_event.is_some()),
            ("target_character", r.target_character.is_some()),
            ("target_category", r.target_category.is_some()),
            ("count", r.count.is_some()),
            ("attribute", r.attribute.is_some()),
            ("scope", r.scope.is_some()),
            ("spend", r.spend.is_some()),
        ]
    }

    /// Refuses every present field this kind does not have.
    fn only(&self, allowed: &[&str]) -> Result<(), CatalogueError> {
        for (field, present) in self.present() {
            if present && !allowed.contains(&field) {
                return Err(self.err(
                    field,
                    format!(
                        "card `{}` is of kind `{}`, which has no `{field}`",
                        self.rc.id, self.rc.kind
                    ),
                ));
            }
        }
        Ok(())
    }

    /// An integer field checked against its range.
    fn int(
        &self,
        field: &str,
        value: Option<i64>,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Option<u8>, CatalogueError> {
        let Some(v) = value else { return Ok(None) };
        self.ctx.in_range(self.span, field, v, range)?;
        u8::try_from(v)
            .map(Some)
            .map_err(|_| self.err(field, format!("{field} {v} is too large")))
    }

    /// A text field that, when present, must say something.
    fn text(&self, field: &str, value: &Option<String>) -> Result<String, CatalogueError> {
        match value {
            Some(t) if t.trim().is_empty() => Err(self.err(field, format!("`{field}` is empty"))),
            Some(t) => Ok(t.trim().to_owned()),
            None => Ok(String::new()),
        }
    }

    fn hand(&self, field: &str, text: &str) -> Result<Hand, CatalogueError> {
        Hand::parse(text).ok_or_else(|| {
            self.err(
                field,
                format!(
                    "unknown hand `{text}` (expected rock, scissors or paper: グー, チョキ, パー)"
                ),
            )
        })
    }

    fn hands(&self, field: &str, list: &[String]) -> Result<Vec<Hand>, CatalogueError> {
        if list.is_empty() {
            return Err(self.err(field, format!("`{field}` must name at least one hand")));
        }
        let mut out = Vec::with_capacity(list.len());
        for t in list {
            let h = self.hand(field, t)?;
            if out.contains(&h) {
                return Err(self.err(field, format!("`{field}` names {} twice", h.key())));
            }
            out.push(h);
        }
        out.sort();
        Ok(out)
    }

    fn action(&self, field: &str, text: &str) -> Result<Action, CatalogueError> {
        parse_action(text).map_err(|m| self.err(field, m))
    }

    /// The three hand fields (all needed; `none` for a hand that does nothing).
    fn actions(&self) -> Result<HandActions, CatalogueError> {
        let one = |field: &str, value: &Option<String>| -> Result<Option<Action>, CatalogueError> {
            self.need(field, value)?;
            let t = value.as_deref().unwrap_or_default();
            if matches!(t.trim().to_ascii_lowercase().as_str(), "none" | "-" | "—") {
                Ok(None)
            } else {
                self.action(field, t).map(Some)
            }
        };
        let actions = HandActions {
            rock: one("rock", &self.rc.rock)?,
            scissors: one("scissors", &self.rc.scissors)?,
            paper: one("paper", &self.rc.paper)?,
        };
        if actions.rock.is_none() && actions.scissors.is_none() && actions.paper.is_none() {
            return Err(self.err("rock", "a character needs an action for at least one hand"));
        }
        Ok(actions)
    }

    fn hp_die(&self) -> Result<u8, CatalogueError> {
        Ok(self
            .int("hp_die", self.rc.hp_die, 2..=20)?
            .unwrap_or(DEFAULT_HP_DIE))
    }

    fn categories(&self) -> Result<Vec<String>, CatalogueError> {
        let mut out: Vec<String> = Vec::new();
        for c in self.rc.categories.iter().flatten() {
            let name = strip_brackets(c, '《', '》');
            if name.is_empty() {
                return Err(self.err("categories", "a category name is empty"));
            }
            if out.contains(&name) {
                return Err(self.err("categories", format!("category `{name}` is listed twice")));
            }
            out.push(name);
        }
        Ok(out)
    }

    /// The skill icons; `character` when the kind may carry character skills.
    fn icons(&self, character: bool) -> Result<Vec<SkillIcon>, CatalogueError> {
        let r = self.rc;
        let mut icons = Vec::new();
        if r.limited == Some(true) {
            icons.push(SkillIcon::Limited);
        }
        if !character {
            return Ok(icons);
        }
        match r.bullet {
            Some(_) => {
                let level = self.int("bullet", r.bullet, 1..=3)?.unwrap_or(1);
                let Some(hands) = &r.bullet_hands else {
                    return Err(self.missing_at(
                        "bullet",
                        "bullet_hands",
                        "a Bullet card needs `bullet_hands`, the hands with the Bullet mark",
                    ));
                };
                let marked_hands = self.hands("bullet_hands", hands)?;
                if r.bullet_cost.is_none() {
                    return Err(self.missing_at(
                        "bullet",
                        "bullet_cost",
                        "a Bullet card needs `bullet_cost`, the counters its effect removes",
                    ));
                }
                let cost = self
                    .int("bullet_cost", r.bullet_cost, 1..=i64::from(level))?
                    .unwrap_or(1);
                icons.push(SkillIcon::Bullet {
                    level,
                    marked_hands,
                    cost,
                });
            }
            None => {
                for (field, present) in [
                    ("bullet_hands", r.bullet_hands.is_some()),
                    ("bullet_cost", r.bullet_cost.is_some()),
                ] {
                    if present {
                        return Err(self.err(field, format!("`{field}` only goes with `bullet`")));
                    }
                }
            }
        }
        if r.clockwise == Some(true) {
            icons.push(SkillIcon::Clockwise);
        }
        match &r.dice {
            Some(d) => {
                let roll = DiceRoll::parse(d).map_err(|m| self.err("dice", m))?;
                if r.dice_effect.is_none() {
                    return Err(self.missing_at(
                        "dice",
                        "dice_effect",
                        "a Dice-rolling card needs `dice_effect`, what holds while the roll succeeded",
                    ));
                }
                let effect = self.text("dice_effect", &r.dice_effect)?;
                icons.push(SkillIcon::DiceRolling { roll, effect });
            }
            None => {
                if r.dice_effect.is_some() {
                    return Err(self.err("dice_effect", "`dice_effect` only goes with `dice`"));
                }
            }
        }
        if r.haste == Some(true) {
            icons.push(SkillIcon::Haste);
        }
        if let Some(hands) = &r.necromancy_hands {
            let marked_hands = self.hands("necromancy_hands", hands)?;
            icons.push(SkillIcon::Necromancy { marked_hands });
        }
        Ok(icons)
    }

    fn supporter(&self) -> Result<Option<Supporter>, CatalogueError> {
        let r = self.rc;
        let Some(hand) = &r.support_hand else {
            for (field, present) in [
                ("support_action", r.support_action.is_some()),
                ("support_skill", r.support_skill.is_some()),
                ("support_passive", r.support_passive.is_some()),
            ] {
                if present {
                    return Err(self.err(
                        field,
                        format!("`{field}` needs `support_hand`, the supporter's attribute"),
                    ));
                }
            }
            return Ok(None);
        };
        let hand = self.hand("support_hand", hand)?;
        let Some(action) = &r.support_action else {
            return Err(self.missing_at(
                "support_hand",
                "support_action",
                "a supporter needs `support_action`, e.g. `atk 1`",
            ));
        };
        let action = self.action("support_action", action)?;
        let skill = self.text("support_skill", &r.support_skill)?;
        let passive = r.support_passive.unwrap_or(false);
        if passive && skill.is_empty() {
            return Err(self.missing_at(
                "support_passive",
                "support_skill",
                "a <PASSIVE> supporter needs `support_skill`",
            ));
        }
        Ok(Some(Supporter {
            hand,
            action,
            skill,
            passive,
        }))
    }

    fn card(&self) -> Result<JunkKenCard, CatalogueError> {
        let r = self.rc;
        match r.kind.as_str() {
            "character" => {
                self.only(CHARACTER_FIELDS)?;
                self.need("cost", &r.cost)?;
                let cost = self.int("cost", r.cost, 0..=10)?.unwrap_or(0);
                Ok(JunkKenCard::Character(JunkKenCharacter {
                    cost,
                    hp_die: self.hp_die()?,
                    actions: self.actions()?,
                    supporter: self.supporter()?,
                    categories: self.categories()?,
                    icons: self.icons(true)?,
                }))
            }
            "gear" => {
                self.only(GEAR_FIELDS)?;
                self.need("cost", &r.cost)?;
                self.need("durability", &r.durability)?;
                let cost = self.int("cost", r.cost, 0..=10)?.unwrap_or(0);
                let durability = self.int("durability", r.durability, 1..=20)?.unwrap_or(1);
                Ok(JunkKenCard::Gear(JunkKenGear {
                    cost,
                    durability,
                    durability_event: self.text("durability_event", &r.durability_event)?,
                    categories: self.categories()?,
                    icons: self.icons(false)?,
                }))
            }
            "awakening" => {
                self.only(AWAKENING_FIELDS)?;
                let target = match (&r.target_character, &r.target_category) {
                    (Some(_), Some(_)) => {
                        return Err(self.err(
                            "target_category",
                            "an awakening card targets a 【character】 or a 《category》, not both",
                        ));
                    }
                    (Some(name), None) => {
                        let name = strip_brackets(name, '【', '】');
                        if name.is_empty() {
                            return Err(self.err("target_character", "`target_character` is empty"));
                        }
                        AwakenTarget::Character(name)
                    }
                    (None, Some(cat)) => {
                        let cat = strip_brackets(cat, '《', '》');
                        if cat.is_empty() {
                            return Err(self.err("target_category", "`target_category` is empty"));
                        }
                        AwakenTarget::Category(cat)
                    }
                    (None, None) => {
                        return Err(self.missing_at(
                            "kind",
                            "target_character",
                            format!(
                                "card `{}` (awakening) needs `target_character` (【name】) or `target_category` (《category》)",
                                r.id
                            ),
                        ));
                    }
                };
                Ok(JunkKenCard::Awakening(JunkKenAwakening {
                    target,
                    hp_die: self.hp_die()?,
                    actions: self.actions()?,
                    categories: self.categories()?,
                    icons: self.icons(true)?,
                }))
            }
            "field" => {
                self.only(FIELD_FIELDS)?;
                self.need("count", &r.count)?;
                self.need("scope", &r.scope)?;
                let count = self.int("count", r.count, 1..=20)?.unwrap_or(1);
                let attribute = match &r.attribute {
                    Some(a) => Some(self.hand("attribute", a)?),
                    None => None,
                };
                let scope_text = r.scope.as_deref().unwrap_or_default();
                let scope = match scope_text.trim().to_ascii_lowercase().as_str() {
                    "own" | "self" | "自分" => FieldScope::Own,
                    "opponent" | "相手" => FieldScope::Opponent,
                    "all" | "全員" => FieldScope::All,
                    _ => {
                        return Err(self.err(
                            "scope",
                            format!(
                                "unknown scope `{scope_text}` (expected own, opponent or all: 自分, 相手, 全員)"
                            ),
                        ));
                    }
                };
                let spend = self
                    .int("spend", r.spend, 0..=i64::from(count))?
                    .unwrap_or(1);
                Ok(JunkKenCard::Field(JunkKenField {
                    count,
                    attribute,
                    scope,
                    spend,
                    categories: self.categories()?,
                    icons: self.icons(false)?,
                }))
            }
            other => Err(self.err(
                "kind",
                format!(
                    "unknown JUNK-KEN card kind `{other}` (expected character, gear, awakening or field)"
                ),
            )),
        }
    }
}

/// Trims a name and drops the printed brackets around it (`《機械》` → `機械`).
fn strip_brackets(text: &str, open: char, close: char) -> String {
    let t = text.trim();
    t.strip_prefix(open)
        .and_then(|s| s.strip_suffix(close))
        .unwrap_or(t)
        .trim()
        .to_owned()
}

// ---- deck construction -----------------------------------------------------------------------

/// The draft (pack purchase, パック購入) variant's name in a deck file.
pub const DRAFT: &str = "draft";

/// The deck variants JUNK-KEN knows (`None` is the standard game).
pub const VARIANTS: &[&str] = &[DRAFT];

/// The construction numbers of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckRules {
    /// Exact main-deck (山札) size.
    pub main_size: usize,
    /// Most cards in the extra deck (エクストラデッキ).
    pub extra_max: usize,
    /// Most total cost of the main deck; `None`: no cap.
    pub cost_cap: Option<u32>,
    /// Most copies of a Limited card, main and extra deck together.
    pub limited_copies: usize,
    /// Cards put face down in the side zone (サイド) at setup, from the top of the shuffled main deck.
    /// They are not chosen when building, so a deck file does not list them.
    pub side_cards: usize,
}

impl DeckRules {
    /// The standard (β) rules: 10 cards, extra 0–3, cost ≤ 25, 1 side card.
    pub const STANDARD: DeckRules = DeckRules {
        main_size: 10,
        extra_max: 3,
        cost_cap: Some(25),
        limited_copies: 1,
        side_cards: 1,
    };

    /// The draft variant: 30 cards, extra 0–3, no cost cap, 2 side cards.
    pub const DRAFT: DeckRules = DeckRules {
        main_size: 30,
        extra_max: 3,
        cost_cap: None,
        limited_copies: 1,
        side_cards: 2,
    };

    /// The rules of a deck variant (`None`: standard); `None` for a variant JUNK-KEN does not have.
    pub fn for_variant(variant: Option<&str>) -> Option<DeckRules> {
        match variant {
            None => Some(DeckRules::STANDARD),
            Some(DRAFT) => Some(DeckRules::DRAFT),
            Some(_) => None,
        }
    }
}

const REF_SIZE: &str = "junk-ken.md §2 (W1); seed エクストラデッキ「10枚のデッキ」";
const REF_SIZE_DRAFT: &str = "junk-ken.md §8; seed ドラフト「デッキ枚数を30枚」";
const REF_EXTRA_SIZE: &str = "junk-ken.md §2 (W1)";
const REF_EXTRA_SIZE_DRAFT: &str = "junk-ken.md §8; seed ドラフト「+EXカード最大3枚」";
const REF_EXTRA_KIND: &str =
    "junk-ken.md §2; seed エクストラデッキ「覚醒カード・フィールドカード」";
const REF_MAIN_KIND: &str = "junk-ken.md §1–§2 (zones); seed エクストラデッキ, 覚醒, フィールド";
const REF_COST: &str = "junk-ken.md §2 (W1: β cost cap 25)";
const REF_LIMITED: &str = "junk-ken.md §2; seed ■リミテッドカード";

/// Checks a deck against JUNK-KEN's construction rules (standard, or `variant = "draft"`): one
/// [`Violation`] per broken rule, naming the cards and numbers; empty when the deck is legal.
///
/// Rules: `junk-ken.deck-size` (main deck exactly 10; draft 30), `junk-ken.extra-size` (extra deck
/// at most 3), `junk-ken.main-kind` (awakening and field cards only in the extra deck),
/// `junk-ken.extra-kind` (only awakening and field cards in the extra deck), `junk-ken.cost-cap`
/// (main-deck cost ≤ 25; none in the draft), `junk-ken.limited` (a Limited card once, extra deck
/// included). An unknown variant gives only `deck.variant`: its rules are unknown. Side cards are
/// not part of a deck file (see [`DeckRules::side_cards`]).
pub fn check_deck(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let Some(rules) = DeckRules::for_variant(deck.variant.as_deref()) else {
        let variant = deck.variant.as_deref().unwrap_or_default();
        return vec![crate::decks::unknown_variant(deck.game, variant, VARIANTS)];
    };
    let draft = rules == DeckRules::DRAFT;
    let lookup = |id: &str| -> Option<(&Card, &JunkKenCard)> {
        catalogue
            .card(id)
            .and_then(|c| c.junk_ken().map(|j| (c, j)))
    };
    let mut out = Vec::new();

    if deck.main.len() != rules.main_size {
        out.push(Violation::new(
            "junk-ken.deck-size",
            format!(
                "The main deck must hold exactly {} cards{}; this one holds {}.",
                rules.main_size,
                if draft { " in the draft" } else { "" },
                deck.main.len()
            ),
            if draft { REF_SIZE_DRAFT } else { REF_SIZE },
        ));
    }

    if deck.extra.len() > rules.extra_max {
        out.push(Violation::new(
            "junk-ken.extra-size",
            format!(
                "The extra deck may hold at most {} cards; this one holds {} ({}).",
                rules.extra_max,
                deck.extra.len(),
                describe(
                    &counts(deck.extra.iter().map(|c| c.card.as_str())),
                    catalogue
                )
            ),
            if draft {
                REF_EXTRA_SIZE_DRAFT
            } else {
                REF_EXTRA_SIZE
            },
        ));
    }

    let misplaced_main = counts(
        deck.main
            .iter()
            .map(|c| c.card.as_str())
            .filter(|id| lookup(id).is_some_and(|(_, j)| j.is_extra())),
    );
    if !misplaced_main.is_empty() {
        out.push(Violation::new(
            "junk-ken.main-kind",
            format!(
                "Awakening and field cards go in the extra deck, not the main deck: {}.",
                describe_kinds(&misplaced_main, catalogue)
            ),
            REF_MAIN_KIND,
        ));
    }

    let misplaced_extra = counts(
        deck.extra
            .iter()
            .map(|c| c.card.as_str())
            .filter(|id| lookup(id).is_some_and(|(_, j)| !j.is_extra())),
    );
    if !misplaced_extra.is_empty() {
        out.push(Violation::new(
            "junk-ken.extra-kind",
            format!(
                "Only awakening and field cards go in the extra deck; these belong in the main deck: {}.",
                describe_kinds(&misplaced_extra, catalogue)
            ),
            REF_EXTRA_KIND,
        ));
    }

    if let Some(cap) = rules.cost_cap {
        let total: u32 = deck
            .main
            .iter()
            .filter_map(|c| lookup(&c.card))
            .map(|(_, j)| u32::from(j.cost()))
            .sum();
        if total > cap {
            out.push(Violation::new(
                "junk-ken.cost-cap",
                format!(
                    "The main deck's costs add up to {total}, over the cap of {cap} (the extra deck does not count)."
                ),
                REF_COST,
            ));
        }
    }

    let over_limit: BTreeMap<&str, usize> = counts(deck.copies().map(|c| c.card.as_str()))
        .into_iter()
        .filter(|(id, n)| {
            *n > rules.limited_copies && lookup(id).is_some_and(|(_, j)| j.is_limited())
        })
        .collect();
    if !over_limit.is_empty() {
        out.push(Violation::new(
            "junk-ken.limited",
            format!(
                "A Limited card may be in a deck only once, extra deck included: {}.",
                describe(&over_limit, catalogue)
            ),
            REF_LIMITED,
        ));
    }
    out
}

/// Copies per card id, sorted by id.
fn counts<'a>(ids: impl Iterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut m = BTreeMap::new();
    for id in ids {
        *m.entry(id).or_insert(0) += 1;
    }
    m
}

/// `JK10 Junk King ×2, JK18 Great Screw-Maru`.
fn describe(counts: &BTreeMap<&str, usize>, catalogue: &Catalogue) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let name = catalogue.card(id).map_or("", |c| c.name_en.as_str());
            let times = if *n > 1 {
                format!(" ×{n}")
            } else {
                String::new()
            };
            format!("{id} {name}{times}").replace("  ", " ")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `JK18 Great Screw-Maru (awakening), JK15 Rusty Shield (gear) ×2`.
fn describe_kinds(counts: &BTreeMap<&str, usize>, catalogue: &Catalogue) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let (name, kind) = catalogue.card(id).map_or(("", ""), |c| {
                (
                    c.name_en.as_str(),
                    c.junk_ken().map_or("", JunkKenCard::kind_name),
                )
            });
            let times = if *n > 1 {
                format!(" ×{n}")
            } else {
                String::new()
            };
            format!("{id} {name} ({kind}){times}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decks::Deck;

    /// A one-card catalogue with the given card body (after `name_en`); the card's lines start at 11.
    fn one(card: &str) -> Result<Catalogue, CatalogueError> {
        let text = format!(
            "format = 1\ngame = \"junk-ken\"\n[set]\nid = \"t\"\nname_en = \"T\"\nname_ja = \"T\"\n[[cards]]\nid = \"X1\"\nname_ja = \"x\"\nname_en = \"x\"\n{card}"
        );
        Catalogue::load("t.toml", &text)
    }

    const CHARACTER: &str = "kind = \"character\"\ncost = 2\nrock = \"atk 2\"\nscissors = \"draw 1\"\npaper = \"hp 1\"\n";

    fn err_of(card: &str) -> (usize, Option<String>, String) {
        let e = one(card).unwrap_err();
        (e.line, e.field, e.message)
    }

    fn data(card: &str) -> JunkKenCard {
        let cat = one(card).unwrap();
        cat.cards[0].junk_ken().unwrap().clone()
    }

    // ---- the demo set -------------------------------------------------------------------------

    #[test]
    fn demo_set_loads_with_every_kind_and_icon() {
        // Given the embedded demo set, when it loads,
        let cat = demo().unwrap();
        // then it is labelled as made for Tableside,
        assert!(cat.set.demo);
        assert!(
            cat.set.note.to_lowercase().contains("not official"),
            "{}",
            cat.set.note
        );
        let cards: Vec<&JunkKenCard> = cat.cards.iter().filter_map(Card::junk_ken).collect();
        assert_eq!(cards.len(), cat.cards.len());
        // and has every kind,
        for kind in ["character", "gear", "awakening", "field"] {
            assert!(cards.iter().any(|c| c.kind_name() == kind), "{kind}");
        }
        // every skill icon, Bullet at each level,
        let icons: Vec<&SkillIcon> = cards.iter().flat_map(|c| c.icons()).collect();
        for level in 1..=3 {
            assert!(
                icons
                    .iter()
                    .any(|i| matches!(i, SkillIcon::Bullet { level: l, .. } if *l == level)),
                "Bullet {level}"
            );
        }
        assert!(icons.contains(&&SkillIcon::Clockwise));
        assert!(icons.contains(&&SkillIcon::Haste));
        assert!(icons.contains(&&SkillIcon::Limited));
        assert!(
            icons
                .iter()
                .any(|i| matches!(i, SkillIcon::DiceRolling { .. }))
        );
        assert!(
            icons
                .iter()
                .any(|i| matches!(i, SkillIcon::Necromancy { .. }))
        );
        // supporters with and without a <PASSIVE> skill, and a card without a supporter side,
        let supporters: Vec<Option<&Supporter>> = cards
            .iter()
            .filter_map(|c| match c {
                JunkKenCard::Character(ch) => Some(ch.supporter.as_ref()),
                _ => None,
            })
            .collect();
        assert!(supporters.iter().any(|s| s.is_some_and(|s| s.passive)));
        assert!(
            supporters
                .iter()
                .any(|s| s.is_some_and(|s| !s.passive && !s.skill.is_empty()))
        );
        assert!(supporters.iter().any(Option::is_none));
        // and both kinds of awakening target.
        let targets: Vec<&AwakenTarget> = cards
            .iter()
            .filter_map(|c| match c {
                JunkKenCard::Awakening(a) => Some(&a.target),
                _ => None,
            })
            .collect();
        assert!(
            targets
                .iter()
                .any(|t| matches!(t, AwakenTarget::Character(_)))
        );
        assert!(
            targets
                .iter()
                .any(|t| matches!(t, AwakenTarget::Category(_)))
        );
    }

    #[test]
    fn demo_ids_names_and_targets_are_usable() {
        let cat = demo().unwrap();
        for c in &cat.cards {
            // Ids go into QR tags: A–Z, 0–9, `-`, at most 17 characters.
            assert!(c.id.len() <= crate::tags::MAX_CARD_ID, "{}", c.id);
            assert!(
                c.id.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                c.id
            );
            assert!(c.id.starts_with("JK"), "{}", c.id);
            assert!(!c.name_en.is_empty() && !c.text.is_empty(), "{}", c.id);
            assert!(!c.name_ja.is_ascii(), "{}: Japanese name", c.id);
            // Every awakening card can awaken some card of the set that is not in the extra deck.
            if let Some(JunkKenCard::Awakening(a)) = c.junk_ken() {
                assert!(
                    cat.cards
                        .iter()
                        .any(|b| b.junk_ken().is_some_and(|j| !j.is_extra()) && a.target.matches(b)),
                    "{}: {} matches no main-deck card",
                    c.id,
                    a.target
                );
            }
        }
    }

    /// A deck file from a catalogue deck list: EX cards go to `[extra]`, copies numbered 1, 2, ….
    fn deck_from_list(cat: &Catalogue, cards: &[&str], variant: Option<&str>) -> Deck {
        let mut main: BTreeMap<&str, usize> = BTreeMap::new();
        let mut extra: BTreeMap<&str, usize> = BTreeMap::new();
        for id in cards {
            let ex = cat
                .card(id)
                .and_then(Card::junk_ken)
                .is_some_and(JunkKenCard::is_extra);
            let section = if ex { &mut extra } else { &mut main };
            *section.entry(id).or_insert(0) += 1;
        }
        deck_text(&main, &extra, variant)
    }

    fn deck_text(
        main: &BTreeMap<&str, usize>,
        extra: &BTreeMap<&str, usize>,
        variant: Option<&str>,
    ) -> Deck {
        let mut text = String::from(
            "format = 1\ngame = \"junk-ken\"\nset = \"junk-ken-demo\"\nname = \"D\"\nowner = \"Aki\"\n",
        );
        if let Some(v) = variant {
            text.push_str(&format!("variant = \"{v}\"\n"));
        }
        text.push_str("[main]\n");
        for (id, n) in main {
            text.push_str(&format!("{id} = {n}\n"));
        }
        text.push_str("[extra]\n");
        for (id, n) in extra {
            text.push_str(&format!("{id} = {n}\n"));
        }
        Deck::load("d.toml", &text).unwrap()
    }

    #[test]
    fn demo_decks_are_legal_standard_decks() {
        let cat = demo().unwrap();
        assert!(cat.decks.len() >= 2);
        for list in &cat.decks {
            let ids: Vec<&str> = list.cards.iter().map(String::as_str).collect();
            let deck = deck_from_list(&cat, &ids, None);
            assert_eq!(deck.main.len(), 10, "{}", list.id);
            let problems = deck.check(&cat).unwrap();
            assert!(problems.is_empty(), "{}: {problems:?}", list.id);
        }
    }

    // ---- card fields ----------------------------------------------------------------------------

    #[test]
    fn character_reads_every_field() {
        // Given a character with every optional field,
        let c = data(&format!(
            "{CHARACTER}hp_die = 8\ncategories = [\"《機械》\", \"ガラクタ\"]\nlimited = true\nsupport_hand = \"パー\"\nsupport_action = \"HP+2\"\nsupport_skill = \"Always on.\"\nsupport_passive = true\nbullet = 3\nbullet_hands = [\"✌\", \"rock\"]\nbullet_cost = 2\nclockwise = true\ndice = \"{{2d6>=10}}⇒\"\ndice_effect = \"ATK +1\"\nhaste = true\nnecromancy_hands = [\"paper\"]\n"
        ));
        // when loaded, then every value is structured.
        let JunkKenCard::Character(ch) = c else {
            panic!("{c:?}")
        };
        assert_eq!((ch.cost, ch.hp_die), (2, 8));
        assert_eq!(ch.categories, ["機械", "ガラクタ"]);
        assert_eq!(
            ch.actions.get(Hand::Rock),
            Some(Action {
                kind: ActionKind::Atk,
                value: 2
            })
        );
        assert_eq!(
            ch.actions
                .get(Hand::Paper)
                .map(|a| a.to_string())
                .as_deref(),
            Some("HP 1")
        );
        assert_eq!(
            ch.supporter,
            Some(Supporter {
                hand: Hand::Paper,
                action: Action {
                    kind: ActionKind::Hp,
                    value: 2
                },
                skill: "Always on.".into(),
                passive: true
            })
        );
        let roll = DiceRoll {
            dice: 2,
            sides: 6,
            comparison: Comparison::AtLeast,
            value: 10,
        };
        assert_eq!(
            ch.icons,
            [
                SkillIcon::Limited,
                SkillIcon::Bullet {
                    level: 3,
                    marked_hands: vec![Hand::Rock, Hand::Scissors],
                    cost: 2
                },
                SkillIcon::Clockwise,
                SkillIcon::DiceRolling {
                    roll,
                    effect: "ATK +1".into()
                },
                SkillIcon::Haste,
                SkillIcon::Necromancy {
                    marked_hands: vec![Hand::Paper]
                },
            ]
        );
    }

    #[test]
    fn defaults_and_a_hand_without_action() {
        let c = data(
            "kind = \"character\"\ncost = 0\nrock = \"none\"\nscissors = \"atk 1\"\npaper = \"-\"\n",
        );
        assert_eq!(c.hp_die(), Some(DEFAULT_HP_DIE));
        assert_eq!(c.actions().and_then(|a| a.get(Hand::Rock)), None);
        assert!(c.icons().is_empty() && !c.is_limited() && !c.is_extra());
        let JunkKenCard::Character(ch) = c else {
            panic!()
        };
        assert_eq!(ch.supporter, None);
        let f = data("kind = \"field\"\ncount = 3\nscope = \"全員\"\n");
        assert_eq!(
            f,
            JunkKenCard::Field(JunkKenField {
                count: 3,
                attribute: None,
                scope: FieldScope::All,
                spend: 1,
                categories: vec![],
                icons: vec![]
            })
        );
        assert!(f.is_extra() && f.cost() == 0);
    }

    #[test]
    fn gear_awakening_and_field_read_their_fields() {
        let g = data(
            "kind = \"gear\"\ncost = 2\ndurability = 3\ndurability_event = \"Each hit.\"\nlimited = true\n",
        );
        assert_eq!(
            g,
            JunkKenCard::Gear(JunkKenGear {
                cost: 2,
                durability: 3,
                durability_event: "Each hit.".into(),
                categories: vec![],
                icons: vec![SkillIcon::Limited]
            })
        );
        let a = data(
            "kind = \"awakening\"\ntarget_character = \"【フーコ】\"\nrock = \"atk 3\"\nscissors = \"draw 1\"\npaper = \"hp 2\"\nclockwise = true\n",
        );
        let JunkKenCard::Awakening(aw) = &a else {
            panic!()
        };
        assert_eq!(aw.target, AwakenTarget::Character("フーコ".into()));
        assert_eq!(aw.icons, [SkillIcon::Clockwise]);
        let f = data(
            "kind = \"field\"\ncount = 4\nattribute = \"scissors\"\nscope = \"opponent\"\nspend = 0\n",
        );
        let JunkKenCard::Field(fi) = f else { panic!() };
        assert_eq!(
            (fi.attribute, fi.scope, fi.spend),
            (Some(Hand::Scissors), FieldScope::Opponent, 0)
        );
    }

    #[test]
    fn bad_values_name_line_and_field() {
        // An unknown action on the `scissors` line (line 14).
        let (line, field, msg) = err_of(&CHARACTER.replace("draw 1", "punch 1"));
        assert_eq!((line, field.as_deref()), (14, Some("scissors")), "{msg}");
        assert!(msg.contains("punch"), "{msg}");
        // An amount out of range.
        let (line, field, _) = err_of(&CHARACTER.replace("atk 2", "atk 12"));
        assert_eq!((line, field.as_deref()), (13, Some("rock")));
        // A cost out of range (line 12).
        let (line, field, _) = err_of(&CHARACTER.replace("cost = 2", "cost = 11"));
        assert_eq!((line, field.as_deref()), (12, Some("cost")));
        // An unknown hand in the supporter's attribute (line 16).
        let (line, field, msg) = err_of(&format!(
            "{CHARACTER}support_hand = \"fist\"\nsupport_action = \"atk 1\"\n"
        ));
        assert_eq!(
            (line, field.as_deref()),
            (16, Some("support_hand")),
            "{msg}"
        );
        // A bad dice roll.
        for bad in [
            "{1d6=7}", "{1d6>=1}", "1x6=6", "{1d6=6", "{1d6}", "{0d6=1}", "{1d1=1}",
        ] {
            let (line, field, msg) = err_of(&format!(
                "{CHARACTER}dice = \"{bad}\"\ndice_effect = \"x\"\n"
            ));
            assert_eq!((line, field.as_deref()), (16, Some("dice")), "{bad}: {msg}");
        }
        // Bullet level, cost above level, and a hand named twice.
        let (line, field, _) = err_of(&format!(
            "{CHARACTER}bullet = 4\nbullet_hands = [\"rock\"]\nbullet_cost = 1\n"
        ));
        assert_eq!((line, field.as_deref()), (16, Some("bullet")));
        let (line, field, _) = err_of(&format!(
            "{CHARACTER}bullet = 1\nbullet_hands = [\"rock\"]\nbullet_cost = 2\n"
        ));
        assert_eq!((line, field.as_deref()), (18, Some("bullet_cost")));
        let (line, field, _) = err_of(&format!(
            "{CHARACTER}necromancy_hands = [\"rock\", \"グー\"]\n"
        ));
        assert_eq!((line, field.as_deref()), (16, Some("necromancy_hands")));
        let (line, field, _) = err_of(&format!("{CHARACTER}necromancy_hands = []\n"));
        assert_eq!((line, field.as_deref()), (16, Some("necromancy_hands")));
        // Ranges of the other kinds.
        let (line, field, _) = err_of(&format!("{CHARACTER}hp_die = 1\n"));
        assert_eq!((line, field.as_deref()), (16, Some("hp_die")));
        let (line, field, _) = err_of("kind = \"gear\"\ncost = 1\ndurability = 0\n");
        assert_eq!((line, field.as_deref()), (13, Some("durability")));
        let (line, field, _) = err_of("kind = \"field\"\ncount = 2\nscope = \"all\"\nspend = 3\n");
        assert_eq!((line, field.as_deref()), (14, Some("spend")));
        let (line, field, _) = err_of("kind = \"field\"\ncount = 2\nscope = \"everyone\"\n");
        assert_eq!((line, field.as_deref()), (13, Some("scope")));
        let (line, field, _) =
            err_of("kind = \"field\"\ncount = 2\nscope = \"all\"\nattribute = \"stone\"\n");
        assert_eq!((line, field.as_deref()), (14, Some("attribute")));
        let (line, field, _) = err_of(&format!("{CHARACTER}categories = [\"\"]\n"));
        assert_eq!((line, field.as_deref()), (16, Some("categories")));
        // An unknown kind, a misspelt field and a wrong type.
        let (line, field, _) = err_of("kind = \"monster\"\n");
        assert_eq!((line, field.as_deref()), (11, Some("kind")));
        let (line, field, _) = err_of(&format!("{CHARACTER}haste_ = true\n"));
        assert_eq!((line, field.as_deref()), (16, Some("haste_")));
        let (line, _, _) = err_of(&CHARACTER.replace("cost = 2", "cost = \"two\""));
        assert_eq!(line, 12);
    }

    #[test]
    fn each_kind_needs_its_fields() {
        // Needed fields are reported on the `kind` line (11) and named.
        for (card, missing) in [
            (
                "kind = \"character\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
                "cost",
            ),
            (
                "kind = \"character\"\ncost = 1\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
                "rock",
            ),
            (
                "kind = \"character\"\ncost = 1\nrock = \"atk 1\"\npaper = \"atk 1\"\n",
                "scissors",
            ),
            (
                "kind = \"character\"\ncost = 1\nrock = \"atk 1\"\nscissors = \"atk 1\"\n",
                "paper",
            ),
            ("kind = \"gear\"\ndurability = 2\n", "cost"),
            ("kind = \"gear\"\ncost = 2\n", "durability"),
            (
                "kind = \"awakening\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
                "target_character",
            ),
            (
                "kind = \"awakening\"\ntarget_category = \"機械\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\n",
                "rock",
            ),
            ("kind = \"field\"\nscope = \"all\"\n", "count"),
            ("kind = \"field\"\ncount = 2\n", "scope"),
        ] {
            let (line, field, msg) = err_of(card);
            assert_eq!(
                (line, field.as_deref()),
                (11, Some(missing)),
                "{card}: {msg}"
            );
        }
        // Groups: the missing partner is reported on the line of the field that needs it.
        for (extra, line, missing) in [
            ("support_hand = \"rock\"\n", 16, "support_action"),
            ("bullet = 2\nbullet_cost = 1\n", 16, "bullet_hands"),
            ("bullet = 2\nbullet_hands = [\"rock\"]\n", 16, "bullet_cost"),
            ("dice = \"{1d6=6}\"\n", 16, "dice_effect"),
            (
                "support_hand = \"rock\"\nsupport_action = \"atk 1\"\nsupport_passive = true\n",
                18,
                "support_skill",
            ),
        ] {
            let (l, field, msg) = err_of(&format!("{CHARACTER}{extra}"));
            assert_eq!(
                (l, field.as_deref()),
                (line, Some(missing)),
                "{extra}: {msg}"
            );
        }
        // A character with no action at all.
        let (_, field, _) = err_of(
            "kind = \"character\"\ncost = 1\nrock = \"none\"\nscissors = \"none\"\npaper = \"none\"\n",
        );
        assert_eq!(field.as_deref(), Some("rock"));
    }

    #[test]
    fn each_kind_refuses_fields_it_has_not() {
        // Forbidden fields are reported on their own line (the last line here) and named.
        for (card, forbidden) in [
            (format!("{CHARACTER}durability = 2\n"), "durability"),
            (format!("{CHARACTER}count = 2\n"), "count"),
            (format!("{CHARACTER}target_character = \"a\"\n"), "target_character"),
            ("kind = \"gear\"\ncost = 1\ndurability = 2\nrock = \"atk 1\"\n".to_owned(), "rock"),
            ("kind = \"gear\"\ncost = 1\ndurability = 2\nhaste = true\n".to_owned(), "haste"),
            ("kind = \"gear\"\ncost = 1\ndurability = 2\nsupport_hand = \"rock\"\n".to_owned(), "support_hand"),
            ("kind = \"awakening\"\ntarget_category = \"c\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\ncost = 1\n".to_owned(), "cost"),
            ("kind = \"awakening\"\ntarget_category = \"c\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\nsupport_hand = \"rock\"\n".to_owned(), "support_hand"),
            ("kind = \"field\"\ncount = 2\nscope = \"all\"\ncost = 1\n".to_owned(), "cost"),
            ("kind = \"field\"\ncount = 2\nscope = \"all\"\ndice = \"{1d6=6}\"\n".to_owned(), "dice"),
            // Partners without the field they go with.
            (format!("{CHARACTER}bullet_hands = [\"rock\"]\n"), "bullet_hands"),
            (format!("{CHARACTER}bullet_cost = 1\n"), "bullet_cost"),
            (format!("{CHARACTER}dice_effect = \"x\"\n"), "dice_effect"),
            (format!("{CHARACTER}support_action = \"atk 1\"\n"), "support_action"),
            (format!("{CHARACTER}support_skill = \"x\"\n"), "support_skill"),
            (format!("{CHARACTER}support_passive = false\n"), "support_passive"),
            ("kind = \"awakening\"\ntarget_character = \"a\"\nrock = \"atk 1\"\nscissors = \"atk 1\"\npaper = \"atk 1\"\ntarget_category = \"c\"\n".to_owned(), "target_category"),
        ] {
            let last_line = 10 + card.lines().count();
            let (line, field, msg) = err_of(&card);
            assert_eq!((line, field.as_deref()), (last_line, Some(forbidden)), "{card}: {msg}");
        }
    }

    #[test]
    fn dice_rolls_parse_and_decide() {
        let r = DiceRoll::parse("{1d6=6}⇒").unwrap();
        assert_eq!(r.notation(), "{1d6=6}");
        assert!(r.holds(6) && !r.holds(5));
        let r = DiceRoll::parse(" d6 ≥ 5 ").unwrap();
        assert_eq!((r.dice, r.comparison, r.value), (1, Comparison::AtLeast, 5));
        assert!(r.holds(5) && !r.holds(4));
        let r = DiceRoll::parse("{2d6<4}").unwrap();
        assert!(r.holds(3) && !r.holds(4));
        assert_eq!((r.min_total(), r.max_total()), (2, 12));
        assert!(DiceRoll::parse("{1d6>6}").is_err());
        assert!(DiceRoll::parse("{1d6<=6}").is_err());
    }

    #[test]
    fn hands_and_targets() {
        assert!(Hand::Rock.beats(Hand::Scissors) && Hand::Scissors.beats(Hand::Paper));
        assert!(Hand::Paper.beats(Hand::Rock) && !Hand::Rock.beats(Hand::Rock));
        assert!(!Hand::Rock.beats(Hand::Paper));
        assert_eq!(Hand::parse("チョキ"), Some(Hand::Scissors));
        assert_eq!(Hand::parse("✋"), Some(Hand::Paper));
        assert_eq!(Hand::parse("ROCK"), Some(Hand::Rock));
        let cat = demo().unwrap();
        let screw = cat.card("JK01").unwrap();
        assert!(AwakenTarget::Character("ネジ丸".into()).matches(screw));
        assert!(AwakenTarget::Category("ガラクタ".into()).matches(screw));
        assert!(!AwakenTarget::Category("機械".into()).matches(screw));
    }

    #[test]
    fn card_data_round_trips_through_json() {
        let cat = demo().unwrap();
        let json = serde_json::to_string(&cat).unwrap();
        let back: Catalogue = serde_json::from_str(&json).unwrap();
        assert_eq!(back, cat);
    }

    // ---- decks ---------------------------------------------------------------------------------

    fn map<'a>(entries: &[(&'a str, usize)]) -> BTreeMap<&'a str, usize> {
        entries.iter().copied().collect()
    }

    /// A legal standard main deck: 10 cards, cost 2+2+3+1+1+3+2+5+2+1 = 22, Limited JK10 once.
    const MAIN: &[(&str, usize)] = &[
        ("JK01", 2),
        ("JK02", 1),
        ("JK05", 2),
        ("JK06", 1),
        ("JK07", 1),
        ("JK10", 1),
        ("JK15", 1),
        ("JK16", 1),
    ];
    const EXTRA: &[(&str, usize)] = &[("JK18", 1), ("JK19", 1), ("JK22", 1)];

    fn rules_of(
        main: &[(&str, usize)],
        extra: &[(&str, usize)],
        variant: Option<&str>,
    ) -> Vec<String> {
        let cat = demo().unwrap();
        let deck = deck_text(&map(main), &map(extra), variant);
        let problems = deck.check(&cat).unwrap();
        for p in &problems {
            assert!(
                !p.sentence.is_empty()
                    && (p.reference.contains("junk-ken.md") || p.rule == "deck.variant"),
                "{p}"
            );
        }
        problems.into_iter().map(|p| p.rule).collect()
    }

    fn with(
        base: &[(&'static str, usize)],
        id: &'static str,
        n: usize,
    ) -> Vec<(&'static str, usize)> {
        let mut v: Vec<(&str, usize)> = base.iter().copied().filter(|(i, _)| *i != id).collect();
        if n > 0 {
            v.push((id, n));
        }
        v
    }

    #[test]
    fn legal_standard_deck_passes() {
        // Given 10 main cards costing 22 and 3 EX cards, then no rule is broken.
        assert_eq!(rules_of(MAIN, EXTRA, None), Vec::<String>::new());
        // An empty extra deck is legal too.
        assert_eq!(rules_of(MAIN, &[], None), Vec::<String>::new());
    }

    #[test]
    fn legal_draft_deck_passes() {
        // Given 30 main cards (cost 70, no cap in the draft) and 3 EX cards.
        let main = [
            ("JK01", 4),
            ("JK02", 4),
            ("JK03", 4),
            ("JK04", 3),
            ("JK05", 3),
            ("JK06", 3),
            ("JK10", 1),
            ("JK11", 3),
            ("JK13", 3),
            ("JK15", 2),
        ];
        assert_eq!(rules_of(&main, EXTRA, Some("draft")), Vec::<String>::new());
        assert_eq!(
            DeckRules::for_variant(Some(DRAFT)).map(|r| r.side_cards),
            Some(2)
        );
        assert_eq!(DeckRules::for_variant(None).map(|r| r.side_cards), Some(1));
    }

    #[test]
    fn deck_size_rule() {
        // 9 main cards.
        assert_eq!(
            rules_of(&with(MAIN, "JK01", 1), EXTRA, None),
            ["junk-ken.deck-size"]
        );
        // 11 main cards (cost 23).
        assert_eq!(
            rules_of(&with(MAIN, "JK16", 2), EXTRA, None),
            ["junk-ken.deck-size"]
        );
        // The standard 10 cards are not a draft deck.
        assert_eq!(rules_of(MAIN, EXTRA, Some("draft")), ["junk-ken.deck-size"]);
        let cat = demo().unwrap();
        let deck = deck_text(&map(&with(MAIN, "JK01", 1)), &map(EXTRA), None);
        let v = check_deck(&deck, &cat);
        assert!(
            v[0].sentence.contains("exactly 10") && v[0].sentence.contains('9'),
            "{}",
            v[0]
        );
    }

    #[test]
    fn extra_size_rule() {
        let extra = [("JK18", 1), ("JK19", 1), ("JK20", 1), ("JK22", 1)];
        assert_eq!(rules_of(MAIN, &extra, None), ["junk-ken.extra-size"]);
        assert_eq!(
            rules_of(&with(MAIN, "JK01", 22), &extra, Some("draft")),
            ["junk-ken.extra-size"]
        );
    }

    #[test]
    fn main_kind_rule() {
        // An awakening card in the main deck instead of a JK16 (still 10 cards, cost 21).
        let main = [with(MAIN, "JK16", 0), vec![("JK20", 1)]].concat();
        assert_eq!(rules_of(&main, EXTRA, None), ["junk-ken.main-kind"]);
        let cat = demo().unwrap();
        let v = check_deck(&deck_text(&map(&main), &map(EXTRA), None), &cat);
        assert!(
            v[0].sentence.contains("JK20") && v[0].sentence.contains("awakening"),
            "{}",
            v[0]
        );
    }

    #[test]
    fn extra_kind_rule() {
        // A gear card in the extra deck.
        let extra = [("JK18", 1), ("JK17", 1)];
        assert_eq!(rules_of(MAIN, &extra, None), ["junk-ken.extra-kind"]);
    }

    #[test]
    fn cost_cap_rule() {
        // From cost 22: swap JK16 (1) for a second JK02 (3): 24; then JK07 (2) for JK04 (3): 25.
        let at_cap = with(&with(MAIN, "JK16", 0), "JK02", 2);
        let at_cap = [with(&at_cap, "JK07", 0), vec![("JK04", 1)]].concat();
        assert_eq!(rules_of(&at_cap, EXTRA, None), Vec::<String>::new());
        // One more point (JK05 cost 1 → JK13 cost 2) is over the cap.
        let over = [with(&at_cap, "JK05", 1), vec![("JK13", 1)]].concat();
        assert_eq!(rules_of(&over, EXTRA, None), ["junk-ken.cost-cap"]);
        let cat = demo().unwrap();
        let v = check_deck(&deck_text(&map(&over), &map(EXTRA), None), &cat);
        assert!(
            v[0].sentence.contains("26") && v[0].sentence.contains("25"),
            "{}",
            v[0]
        );
        // The draft has no cap.
        let many = [("JK10", 1), ("JK02", 10), ("JK04", 10), ("JK06", 9)];
        assert_eq!(rules_of(&many, EXTRA, Some("draft")), Vec::<String>::new());
    }

    #[test]
    fn limited_rule() {
        // Two copies of the Limited gear JK17 (cost 3 each) instead of JK15 + JK16: cost 25.
        let main = [with(&with(MAIN, "JK15", 0), "JK16", 0), vec![("JK17", 2)]].concat();
        assert_eq!(rules_of(&main, EXTRA, None), ["junk-ken.limited"]);
        // Two copies of a Limited awakening card in the extra deck.
        assert_eq!(rules_of(MAIN, &[("JK21", 2)], None), ["junk-ken.limited"]);
        // The draft keeps the limit.
        let draft = [("JK10", 2), ("JK01", 28)];
        assert_eq!(rules_of(&draft, &[], Some("draft")), ["junk-ken.limited"]);
        let cat = demo().unwrap();
        let v = check_deck(&deck_text(&map(&draft), &map(&[]), Some("draft")), &cat);
        assert!(
            v[0].sentence.contains("JK10") && v[0].sentence.contains("×2"),
            "{}",
            v[0]
        );
    }

    #[test]
    fn unknown_variant_is_the_only_violation() {
        assert_eq!(
            rules_of(&with(MAIN, "JK01", 1), EXTRA, Some("sealed")),
            ["deck.variant"]
        );
    }

    #[test]
    fn several_broken_rules_give_one_violation_each() {
        let main = [("JK10", 2), ("JK02", 8), ("JK20", 1)];
        let extra = [("JK15", 1), ("JK18", 1), ("JK19", 1), ("JK22", 1)];
        assert_eq!(
            rules_of(&main, &extra, None),
            [
                "junk-ken.deck-size",
                "junk-ken.extra-size",
                "junk-ken.main-kind",
                "junk-ken.extra-kind",
                "junk-ken.cost-cap",
                "junk-ken.limited",
            ]
        );
    }
}
