//! JUNK-KEN's deck construction rules (standard and draft).

use super::card::*;
use crate::catalogue::{Card, Catalogue};
use crate::core::Violation;
use crate::decks::Deck;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

const REF_SIZE: &str =
    "エクストラデッキ「エクストラデッキのカードは10枚のデッキ枚数に数えません。」";
const REF_SIZE_DRAFT: &str = "ドラフト「・デッキ枚数を30枚(+EXカード最大3枚)に変更」";
const REF_EXTRA_SIZE: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";
const REF_EXTRA_SIZE_DRAFT: &str = REF_SIZE_DRAFT;
const REF_EXTRA_KIND: &str =
    "エクストラデッキ「覚醒カード・フィールドカードをまとめて置いておきます。」";
const REF_MAIN_KIND: &str = REF_EXTRA_KIND;
const REF_COST: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";
const REF_LIMITED: &str = "■リミテッドカード「・リミテッドカードはエクストラデッキも含めてデッキに1枚までしか入れることができません。」";

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
    let main: Vec<&str> = deck.main.iter().map(|c| c.card.as_str()).collect();
    let extra: Vec<&str> = deck.extra.iter().map(|c| c.card.as_str()).collect();
    check_lists(rules, &main, &extra, &|id: &str| {
        let c = catalogue.card(id)?;
        Some(Look {
            name_ja: &c.name_ja,
            name_en: &c.name_en,
            data: c.junk_ken()?,
        })
    })
}

/// A card as the deck rules see it: its names and its data.
pub(crate) struct Look<'a> {
    pub(crate) name_ja: &'a str,
    pub(crate) name_en: &'a str,
    pub(crate) data: &'a JunkKenCard,
}

/// How the deck rules find a card by id.
pub(crate) type Lookup<'a> = dyn Fn(&str) -> Option<Look<'a>> + 'a;

/// [`check_deck`] on lists of card ids (one per copy), the cards found through `lookup`: the
/// draft's deck building checks the deck a player built from the holdings this way.
pub(crate) fn check_lists(
    rules: DeckRules,
    main: &[&str],
    extra: &[&str],
    lookup: &Lookup<'_>,
) -> Vec<Violation> {
    let draft = rules == DeckRules::DRAFT;
    let mut out = Vec::new();

    if main.len() != rules.main_size {
        out.push(
            Violation::new(
                "junk-ken.deck-size",
                format!(
                    "The main deck must hold exactly {} cards{}; this one holds {}.",
                    rules.main_size,
                    if draft { " in the draft" } else { "" },
                    main.len()
                ),
                if draft { REF_SIZE_DRAFT } else { REF_SIZE },
            )
            .ja(format!(
                "{}デッキ(山札)は{}枚です。このデッキは{}枚です。",
                if draft { "ドラフトでは" } else { "" },
                rules.main_size,
                main.len()
            )),
        );
    }

    if extra.len() > rules.extra_max {
        out.push(
            Violation::new(
                "junk-ken.extra-size",
                format!(
                    "The extra deck may hold at most {} cards; this one holds {} ({}).",
                    rules.extra_max,
                    extra.len(),
                    describe(&counts(extra.iter().copied()), lookup, false)
                ),
                if draft {
                    REF_EXTRA_SIZE_DRAFT
                } else {
                    REF_EXTRA_SIZE
                },
            )
            .ja(format!(
                "エクストラデッキは最大{}枚です。このデッキは{}枚です({})。",
                rules.extra_max,
                extra.len(),
                describe(&counts(extra.iter().copied()), lookup, true)
            )),
        );
    }

    let misplaced_main = counts(
        main.iter()
            .copied()
            .filter(|id| lookup(id).is_some_and(|c| c.data.is_extra())),
    );
    if !misplaced_main.is_empty() {
        out.push(
            Violation::new(
                "junk-ken.main-kind",
                format!(
                    "Awakening and field cards go in the extra deck, not the main deck: {}.",
                    describe_kinds(&misplaced_main, lookup, false)
                ),
                REF_MAIN_KIND,
            )
            .ja(format!(
                "覚醒カード・フィールドカードは山札ではなくエクストラデッキに置きます: {}。",
                describe_kinds(&misplaced_main, lookup, true)
            )),
        );
    }

    let misplaced_extra = counts(
        extra
            .iter()
            .copied()
            .filter(|id| lookup(id).is_some_and(|c| !c.data.is_extra())),
    );
    if !misplaced_extra.is_empty() {
        out.push(Violation::new(
            "junk-ken.extra-kind",
            format!(
                "Only awakening and field cards go in the extra deck; these belong in the main deck: {}.",
                describe_kinds(&misplaced_extra, lookup, false)
            ),
            REF_EXTRA_KIND,
        )
        .ja(format!(
            "エクストラデッキに置くのは覚醒カード・フィールドカードだけです。次のカードは山札に入れます: {}。",
            describe_kinds(&misplaced_extra, lookup, true)
        )));
    }

    if let Some(cap) = rules.cost_cap {
        let total: u32 = main
            .iter()
            .filter_map(|id| lookup(id))
            .map(|c| u32::from(c.data.cost()))
            .sum();
        if total > cap {
            out.push(Violation::new(
                "junk-ken.cost-cap",
                format!(
                    "The main deck's costs add up to {total}, over the cap of {cap} (the extra deck does not count)."
                ),
                REF_COST,
            )
            .ja(format!(
                "山札のコストの合計が{total}で、上限の{cap}を超えています(エクストラデッキは数えません)。"
            )));
        }
    }

    let over_limit: BTreeMap<&str, usize> = counts(main.iter().chain(extra).copied())
        .into_iter()
        .filter(|(id, n)| {
            *n > rules.limited_copies && lookup(id).is_some_and(|c| c.data.is_limited())
        })
        .collect();
    if !over_limit.is_empty() {
        out.push(Violation::new(
            "junk-ken.limited",
            format!(
                "A Limited card may be in a deck only once, extra deck included: {}.",
                describe(&over_limit, lookup, false)
            ),
            REF_LIMITED,
        )
        .ja(format!(
            "リミテッドカードはエクストラデッキも含めてデッキに1枚までしか入れることができません: {}。",
            describe(&over_limit, lookup, true)
        )));
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

/// `JK10 Junk King ×2, JK18 Great Screw-Maru` (`ja`: the Japanese names).
fn describe(counts: &BTreeMap<&str, usize>, lookup: &Lookup<'_>, ja: bool) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let look = lookup(id);
            let name = look
                .as_ref()
                .map_or("", |c| if ja { c.name_ja } else { c.name_en });
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

/// `JK18 Great Screw-Maru (awakening), JK15 Rusty Shield (gear) ×2` (`ja`: the Japanese names
/// and kinds).
fn describe_kinds(counts: &BTreeMap<&str, usize>, lookup: &Lookup<'_>, ja: bool) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let (name, kind) = lookup(id).map_or(("", ""), |c| {
                if ja {
                    (c.name_ja, c.data.kind_ja())
                } else {
                    (c.name_en, c.data.kind_name())
                }
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

/// True for a card that goes to the extra deck of a ready-made list (awakening and field cards).
pub(crate) fn is_extra(card: &Card) -> bool {
    card.junk_ken().is_some_and(JunkKenCard::is_extra)
}
