//! The Yomi card schema. (Placeholder until the schema lands: every card is refused.)

use super::{CardData, CatalogueError, Ctx, RawCard, Span, raw_card};
use serde::{Deserialize, Serialize};

/// A Yomi card's data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct YomiCard {
    /// Its kind.
    pub kind: String,
}

raw_card!(RawYomiCard { kind: String });

impl RawCard for RawYomiCard {
    fn common(&self) -> super::Common<'_> {
        self.common_fields()
    }

    fn build(&self, ctx: &Ctx<'_>, span: &Span) -> Result<CardData, CatalogueError> {
        let _ = YomiCard {
            kind: self.kind.clone(),
        };
        Err(ctx.field_err(
            span,
            "kind",
            "this build has no card schema for this game yet",
        ))
    }
}

/// Checks a deck against this game's construction rules. (Placeholder until the rules land.)
pub fn check_deck(
    deck: &crate::decks::Deck,
    _catalogue: &super::Catalogue,
) -> Vec<crate::core::Violation> {
    vec![crate::core::Violation::new(
        "deck.unsupported",
        format!("Deck rules for {} are not built yet.", deck.game),
        "issue 4",
    )]
}
