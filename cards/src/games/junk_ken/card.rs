//! JUNK-KEN's cards (`docs/catalogue-junk-ken.md` is the full reference): characters (an HP
//! die, one action per janken hand, skill icons; face down in the support zone, the supporter),
//! gear (a cost and a durability die), awakenings (EX, stacked on a character) and fields (EX,
//! a countdown die).

use serde::{Deserialize, Serialize};
use std::fmt;

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

    /// The hand's Japanese name alone (for a Japanese sentence).
    pub fn label_ja(self) -> &'static str {
        match self {
            Hand::Rock => "グー",
            Hand::Scissors => "チョキ",
            Hand::Paper => "パー",
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
pub(super) fn parse_action(text: &str) -> Result<Action, String> {
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

    pub(super) fn holds(self, total: u32, value: u32) -> bool {
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

/// The default faces of an HP die.
pub const DEFAULT_HP_DIE: u8 = 6;
