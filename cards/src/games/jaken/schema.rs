//! Reading Jaken's cards from a catalogue: the fields of each kind, checked.

use super::card::{JakenBattleGround, JakenCard, JakenMonster, Wind};
use crate::catalogue::{
    CardData, Catalogue, CatalogueError, Common, Ctx, RawCard, Span, load_cards, raw_card,
};
use crate::core::GameId;

/// Reads a catalogue of Jaken cards.
pub(crate) fn load(ctx: &Ctx<'_>) -> Result<Catalogue, CatalogueError> {
    load_cards::<RawJakenCard>(ctx, GameId::Jaken)
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
    fn common(&self) -> Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        jaken_card(ctx, span, self).map(CardData::Jaken)
    }
}

pub(super) fn jaken_card(
    ctx: &Ctx<'_>,
    span: &Span,
    rc: &RawJakenCard,
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
