//! Reading Space Junk cards from a catalogue: characters and junk, their values in range.

use super::card::*;
use crate::catalogue::DemoSet;
use crate::catalogue::{
    CardData, Catalogue, CatalogueError, Common, Ctx, RawCard, Span, load_cards, raw_card,
};
use crate::core::GameId;
use std::ops::RangeInclusive;

/// The Space Junk demo set, embedded in the binary.
pub(crate) const DEMO: DemoSet = DemoSet {
    file: super::demo::FILE,
    text: super::demo::TOML,
};

/// The Space Junk demo set's text.
pub const DEMO_TOML: &str = DEMO.text;

/// The embedded Space Junk demo set.
pub fn demo() -> Result<Catalogue, CatalogueError> {
    Catalogue::load(DEMO.file, DEMO.text)
}

/// Reads a catalogue of Space Junk cards.
pub(crate) fn load(ctx: &Ctx<'_>) -> Result<Catalogue, CatalogueError> {
    load_cards::<RawSpaceJunkCard>(ctx, GameId::SpaceJunk)
}

raw_card!(RawSpaceJunkCard {
    kind: String,
    r#move: Option<i64>,
    attack: Option<i64>,
    search: Option<i64>,
    star_move: Option<bool>,
    star_attack: Option<bool>,
    star_search: Option<bool>,
    ram: Option<bool>,
    fame: Option<i64>,
    ability_uses: Option<i64>,
});

impl RawCard for RawSpaceJunkCard {
    fn common(&self) -> Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        space_junk_card(ctx, span, self).map(CardData::SpaceJunk)
    }
}

/// Checks that an optional integer field lies in `range` and narrows it.
pub(super) fn ranged<T>(
    ctx: &Ctx<'_>,
    span: &Span,
    field: &str,
    value: Option<i64>,
    range: &RangeInclusive<T>,
) -> Result<Option<T>, CatalogueError>
where
    T: Copy + Into<i64> + TryFrom<i64>,
{
    let Some(v) = value else { return Ok(None) };
    let (lo, hi): (i64, i64) = ((*range.start()).into(), (*range.end()).into());
    ctx.in_range(span, field, v, lo..=hi)?;
    T::try_from(v)
        .map(Some)
        .map_err(|_| ctx.field_err(span, field, format!("{field} {v} is outside {lo}..={hi}")))
}

pub(super) fn space_junk_card(
    ctx: &Ctx<'_>,
    span: &Span,
    rc: &RawSpaceJunkCard,
) -> Result<SpaceJunkCard, CatalogueError> {
    let id = rc.id.as_str();
    let kind = rc.kind.as_str();
    match kind {
        "character" => {
            ctx.need(span, id, kind, "move", &rc.r#move)?;
            ctx.need(span, id, kind, "attack", &rc.attack)?;
            ctx.need(span, id, kind, "search", &rc.search)?;
            ctx.forbid(span, id, kind, "star_move", &rc.star_move)?;
            ctx.forbid(span, id, kind, "star_attack", &rc.star_attack)?;
            ctx.forbid(span, id, kind, "star_search", &rc.star_search)?;
            ctx.forbid(span, id, kind, "ram", &rc.ram)?;
            ctx.forbid(span, id, kind, "fame", &rc.fame)?;
            let r = &CHARACTER_VALUE_RANGE;
            let stats = Stats {
                movement: ranged(ctx, span, "move", rc.r#move, r)?.unwrap_or_default(),
                attack: ranged(ctx, span, "attack", rc.attack, r)?.unwrap_or_default(),
                search: ranged(ctx, span, "search", rc.search, r)?.unwrap_or_default(),
            };
            let ability_uses = ranged(
                ctx,
                span,
                "ability_uses",
                rc.ability_uses,
                &ABILITY_USES_RANGE,
            )?;
            Ok(SpaceJunkCard::Character(Character {
                stats,
                ability_uses,
            }))
        }
        "junk" => {
            ctx.need(span, id, kind, "fame", &rc.fame)?;
            ctx.forbid(span, id, kind, "ability_uses", &rc.ability_uses)?;
            let r = &JUNK_VALUE_RANGE;
            let values = Stats {
                movement: ranged(ctx, span, "move", rc.r#move, r)?.unwrap_or_default(),
                attack: ranged(ctx, span, "attack", rc.attack, r)?.unwrap_or_default(),
                search: ranged(ctx, span, "search", rc.search, r)?.unwrap_or_default(),
            };
            let fame = ranged(ctx, span, "fame", rc.fame, &FAME_RANGE)?.unwrap_or_default();
            Ok(SpaceJunkCard::Junk(Junk {
                values,
                stars: Stars {
                    movement: rc.star_move.unwrap_or(false),
                    attack: rc.star_attack.unwrap_or(false),
                    search: rc.star_search.unwrap_or(false),
                },
                ram: rc.ram.unwrap_or(false),
                fame,
            }))
        }
        other => Err(ctx.field_err(
            span,
            "kind",
            format!("unknown Space Junk card kind `{other}` (expected character or junk)"),
        )),
    }
}
