//! Jaken's cards: monsters (NM, EM with a wind) and battle-ground (BG) cards.

use serde::{Deserialize, Serialize};

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

    /// The printed term with the seed's reading, for Japanese sentences.
    pub fn label_ja(self) -> &'static str {
        match self {
            Wind::Jicha => "自家(ジチャ)",
            Wind::Tacha => "他家(タチャ)",
            Wind::Ryancha => "両家(リャンチャ)",
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
