//! The Rockman EXE card game (ロックマンエグゼカードゲーム) card schema, its demo set and its deck
//! construction rules.
//!
//! Follows `rules/rockman-exe.md` (§2 setup and deck, §6 card data model, §8 optional rules
//! Lv1–Lv3, §10 gaps) and its seed `001_8d4fd42f2dd1e88a.txt`. A card is one of five kinds:
//!
//! - **navi** (ナビ): a character. Its attack power (攻撃力) is dealt as damage to the opponent's
//!   cards; damage to a navi comes off its owner's HP gauge (ＨＰゲージ), so a navi has no HP of
//!   its own.
//! - **virus** (ウイルス): a character with a level (レベル, 1–3: the Lv2 transfer limit), attack
//!   power, defence (防御力) and HP, and its evolution links (Lv2 進化).
//! - **chip** (チップ): placed face down in the chip zone (チップ置き場) and used later; it has a
//!   level (the Lv1 use limit) and, when it deals damage, an attack power.
//! - **battler** (バトラー): played from the hand as a one-shot action and discarded.
//! - **style** (スタイル, Lv3): attached to a navi, at most one per navi.
//!
//! Attack power and the target pattern on the 3×3 area ([`Target`]) are data the app applies;
//! every other effect is rules text (`text`, and `end_phase` for 「エンドフェイズに～」 effects)
//! that the players resolve.
//!
//! ```
//! use cards::catalogue::rockman::{self, RockmanCard, Target};
//! let cat = rockman::demo().unwrap();
//! // The seed's "30/50" virus: defence 30, HP 50.
//! let virus = cat.card("RX10").and_then(|c| c.rockman());
//! assert!(matches!(
//!     virus,
//!     Some(RockmanCard::Virus(v)) if (v.defence, v.hp, v.level, v.target) == (30, 50, 1, Target::Adjacent)
//! ));
use serde::{Deserialize, Serialize};

/// Cards in a deck, the opening navi included (rules digest §2, from review R1; §10 gap 3).
pub const DECK_SIZE: usize = 30;
/// The HP gauge each player starts with (rules digest §2, from review R1).
pub const START_HP: i32 = 200;
/// The largest attack power, defence or HP a card may print (a whole HP gauge).
pub const MAX_VALUE: u32 = 200;
/// Card numbers come in steps of 10, like the HP gauge (rules digest §1, every seed value).
pub const VALUE_STEP: u32 = 10;
/// The lowest and highest level (レベル) of a chip or virus.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=3;

/// Where an attack lands in the opponent's 3×3 area (攻撃範囲).
///
/// Each player's area (エリア) has three *lanes* running straight towards the opponent and three
/// *ranks*: back, middle and front (the front rank touches the border with the opponent's area).
/// Damage is the attack power of the card; against a virus it is checked against its defence,
/// against a navi it comes off the owner's HP gauge. For a chip, the lane and rank are those of
/// one of the user's own area characters (navi or virus), chosen when the chip is used (using a
/// chip never makes that character acted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// 隣接 (rules digest §10 gap 4, the default when the text says only "damage"): the attacker
    /// stands in its front rank and hits the enemy card straight ahead across the border.
    Adjacent,
    /// 直線: the first enemy card straight ahead in the attacker's lane, at any distance.
    Lane,
    /// 貫通: every enemy card in the attacker's lane.
    LaneAll,
    /// 任意: any one enemy card in the opponent's area, chosen by the attacker.
    Any,
    /// 手動: the text says which cards are hit; the players name them and the app deals the
    /// attack power to each.
    Manual,
}

impl Target {
    /// Every pattern, in a stable order.
    pub const ALL: [Target; 5] = [
        Target::Adjacent,
        Target::Lane,
        Target::LaneAll,
        Target::Any,
        Target::Manual,
    ];

    /// The value written in a catalogue (`adjacent`, `lane`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Adjacent => "adjacent",
            Target::Lane => "lane",
            Target::LaneAll => "lane-all",
            Target::Any => "any",
            Target::Manual => "manual",
        }
    }

    /// The Japanese term shown to players.
    pub fn label_ja(self) -> &'static str {
        match self {
            Target::Adjacent => "隣接",
            Target::Lane => "直線",
            Target::LaneAll => "貫通",
            Target::Any => "任意",
            Target::Manual => "手動",
        }
    }

    /// Parses a catalogue value, English or Japanese.
    pub fn parse(text: &str) -> Option<Target> {
        Target::ALL
            .into_iter()
            .find(|t| t.as_str() == text || t.label_ja() == text)
    }
}

/// A navi card (ナビカード).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanNavi {
    /// 攻撃力: the damage dealt when its effect says 「ダメージ」.
    pub attack: u32,
    /// 攻撃範囲: where its attack lands.
    pub target: Target,
    /// An 「エンドフェイズに～」 effect, resolved by the players in END(1); `None` if it has none.
    pub end_phase: Option<String>,
}

/// A virus card (ウイルスカード).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanVirus {
    /// レベル 1–3. Under the Lv2 transfer limit it may be placed only while its owner's HP gauge
    /// allows this level ([`max_level`]); an evolution ignores the limit.
    pub level: u8,
    /// 攻撃力: the damage dealt when its effect says 「ダメージ」.
    pub attack: u32,
    /// 攻撃範囲: where its attack lands.
    pub target: Target,
    /// 防御力, written first in the seed's "30/50": an attack below it does nothing; it counts as
    /// 0 while the virus is acted (行動済み).
    pub defence: u32,
    /// HP, written second in "30/50": the virus is destroyed (破壊) when the damage it took this
    /// turn reaches it.
    pub hp: u32,
    /// Lv2 evolution (進化): the virus this one evolves from, if any.
    pub evolves_from: Option<String>,
    /// Lv2 evolution: the viruses this one may evolve into (each of a higher level).
    pub evolves_to: Vec<String>,
    /// An 「エンドフェイズに～」 effect, resolved by the players in END(1); `None` if it has none.
    pub end_phase: Option<String>,
}

/// A chip card (チップカード).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanChip {
    /// レベル 1–3. Under the Lv1 use limit it may be used only while its owner's HP gauge allows
    /// this level ([`max_level`]).
    pub level: u8,
    /// 攻撃力 when the chip deals damage; `None` for a chip whose effect is only its text.
    pub attack: Option<u32>,
    /// 攻撃範囲 of a chip that deals damage (`Some` exactly when `attack` is).
    pub target: Option<Target>,
}

/// A style card (スタイルカード, Lv3 rule): attached to a navi, at most one per navi.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RockmanStyle {
    /// An 「エンドフェイズに～」 effect, resolved by the players in END(1); `None` if it has none.
    pub end_phase: Option<String>,
}

/// What a Rockman EXE card is, with the numbers the rules use. Every effect beyond these is the
/// card's `text`, resolved by the players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum RockmanCard {
    /// ナビ: a character; the opening one stands on the centre square of its owner's area.
    Navi(RockmanNavi),
    /// ウイルス: a character with defence and HP.
    Virus(RockmanVirus),
    /// チップ: placed face down in the chip zone, used and discarded in the battle phase.
    Chip(RockmanChip),
    /// バトラー: played from the hand in the battle phase (action D) and discarded; its effect is
    /// its text.
    Battler,
    /// スタイル (Lv3): attached to a navi in the transfer phase.
    Style(RockmanStyle),
}

impl RockmanCard {
    /// The kind as written in a catalogue (`navi`, `virus`, `chip`, `battler`, `style`).
    pub fn kind(&self) -> &'static str {
        match self {
            RockmanCard::Navi(_) => "navi",
            RockmanCard::Virus(_) => "virus",
            RockmanCard::Chip(_) => "chip",
            RockmanCard::Battler => "battler",
            RockmanCard::Style(_) => "style",
        }
    }

    /// The Japanese term for the kind.
    pub fn kind_ja(&self) -> &'static str {
        match self {
            RockmanCard::Navi(_) => "ナビ",
            RockmanCard::Virus(_) => "ウイルス",
            RockmanCard::Chip(_) => "チップ",
            RockmanCard::Battler => "バトラー",
            RockmanCard::Style(_) => "スタイル",
        }
    }

    /// The level of a chip or virus; `None` for the other kinds.
    pub fn level(&self) -> Option<u8> {
        match self {
            RockmanCard::Virus(v) => Some(v.level),
            RockmanCard::Chip(c) => Some(c.level),
            _ => None,
        }
    }

    /// True for the characters (キャラ): navis and viruses.
    pub fn is_character(&self) -> bool {
        matches!(self, RockmanCard::Navi(_) | RockmanCard::Virus(_))
    }
}

/// The highest chip level (Lv1 rule) or virus level (Lv2 rule) a player may use with this HP
/// gauge: 1 at 110 or more, 2 from 60 to 100, 3 at 50 or less (seed Lv1/Lv2 tables; values
/// between the seed's steps of 10 fall under the same thresholds, rules digest §5).
pub fn max_level(hp: i32) -> u8 {
    if hp >= 110 {
        1
    } else if hp >= 60 {
        2
    } else {
        3
    }
}
