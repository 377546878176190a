//! The Jaken card schema: monsters (NM, EM with a wind) and battle-ground (BG) cards.

use super::{CardData, CatalogueError, Ctx, RawCard, Span, raw_card};
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

raw_card!(RawJakenCard {
    kind: String,
    cost: Option<u8>,
    atk: Option<i32>,
    def: Option<i32>,
    tribe: Option<String>,
    wind: Option<String>,
    target_tribe: Option<String>,
    use_limit: Option<u8>,
});

impl RawCard for RawJakenCard {
    fn common(&self) -> super::Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        jaken_card(ctx, span, self).map(CardData::Jaken)
    }
}

fn jaken_card(ctx: &Ctx<'_>, span: &Span, rc: &RawJakenCard) -> Result<JakenCard, CatalogueError> {
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
