//! Every deck construction rule's sentence exists in Japanese: decks of each game's demo set that
//! break each rule are checked, and every violation has its own Japanese sentence (the rulebook's
//! words), which `sentence_in(true)` gives.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::catalogue::Catalogue;
use cards::core::GameId;
use cards::decks::{CopyRef, Deck};
use std::collections::BTreeSet;

fn copies(ids: &[&str], n: u16) -> Vec<CopyRef> {
    let mut out: Vec<CopyRef> = ids
        .iter()
        .flat_map(|id| {
            (1..=n).map(|copy| CopyRef {
                card: (*id).to_owned(),
                copy,
            })
        })
        .collect();
    out.sort();
    out
}

fn deck(
    cat: &Catalogue,
    owner: &str,
    variant: Option<&str>,
    main: Vec<CopyRef>,
    extra: Vec<CopyRef>,
) -> Deck {
    Deck {
        game: cat.game,
        set: cat.set.id.clone(),
        name: "Broken".into(),
        owner: owner.into(),
        variant: variant.map(str::to_owned),
        main,
        extra,
    }
}

fn has_japanese(s: &str) -> bool {
    s.chars()
        .any(|c| ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Broken decks of a game: everything three times with extras, an unknown variant, an empty
/// deck, each ready-made list with its cards twice and in the extra deck, and each variant the
/// game knows with all cards once.
fn broken_decks(cat: &Catalogue, variants: &[&str]) -> Vec<Deck> {
    let all: Vec<&str> = cat.cards.iter().map(|c| c.id.as_str()).collect();
    let first: Vec<&str> = all.iter().take(4).copied().collect();
    let mut out = vec![
        deck(cat, "Aki", None, copies(&all, 3), copies(&first, 2)),
        deck(
            cat,
            "Aki",
            Some("no-such-variant"),
            copies(&first, 1),
            Vec::new(),
        ),
        deck(cat, "Aki", None, Vec::new(), Vec::new()),
        deck(cat, "Aki", None, copies(&first, 1), copies(&all, 1)),
    ];
    for v in variants {
        out.push(deck(cat, "Aki", Some(v), copies(&all, 1), Vec::new()));
        out.push(deck(
            cat,
            "Aki",
            Some(v),
            copies(&first, 2),
            copies(&first, 1),
        ));
    }
    for list in &cat.decks {
        let ids: Vec<&str> = list.cards.iter().map(String::as_str).collect();
        out.push(deck(cat, "Aki", None, copies(&ids, 2), Vec::new()));
        let mut short: Vec<&str> = ids.clone();
        short.truncate(ids.len() / 2);
        out.push(deck(cat, "Aki", None, copies(&short, 1), Vec::new()));
        for v in variants {
            out.push(deck(cat, "Aki", Some(v), copies(&ids, 1), Vec::new()));
        }
        // Two lists mixed: cards of another character or kind.
        if let Some(other) = cat.decks.iter().find(|d| d.id != list.id) {
            let mut mixed: Vec<&str> = short.clone();
            mixed.extend(other.cards.iter().map(String::as_str).take(3));
            mixed.sort_unstable();
            mixed.dedup();
            out.push(deck(cat, "Aki", None, copies(&mixed, 1), Vec::new()));
        }
    }
    out
}

#[test]
fn every_deck_construction_rule_has_its_sentence_in_japanese() {
    let games: [(GameId, &[&str], &[&str]); 5] = [
        (
            GameId::Jaken,
            &[],
            &[
                "deck.variant",
                "jaken.deck-extra",
                "jaken.deck-size",
                "jaken.deck-copies",
                "jaken.deck-bg",
            ],
        ),
        (
            GameId::JunkKen,
            &["draft"],
            &[
                "deck.variant",
                "junk-ken.deck-size",
                "junk-ken.extra-size",
                "junk-ken.main-kind",
                "junk-ken.extra-kind",
                "junk-ken.cost-cap",
                "junk-ken.limited",
            ],
        ),
        (
            GameId::RockmanExe,
            &[],
            &[
                "deck.variant",
                "rockman-exe.deck-size",
                "rockman-exe.deck-navi",
                "rockman-exe.deck-extra",
            ],
        ),
        (
            GameId::SpaceJunk,
            &["characters"],
            &[
                "deck.variant",
                "space-junk.deck-owner",
                "space-junk.deck-extra",
                "space-junk.deck-kind",
                "space-junk.deck-unique",
                "space-junk.deck-size",
            ],
        ),
        (
            GameId::Yomi,
            &["beginner"],
            &[
                "deck.variant",
                "yomi.deck-extra",
                "yomi.deck-character-card",
                "yomi.deck-other-character",
                "yomi.deck-missing",
                "yomi.deck-surplus",
                "yomi.deck-beginner-jokers",
            ],
        ),
    ];
    for (game, variants, rules) in games {
        let cat = Catalogue::builtin(game).unwrap();
        let mut seen = BTreeSet::new();
        for d in broken_decks(&cat, variants) {
            for v in d.check(&cat).unwrap() {
                let ja = v.sentence_in(true);
                assert!(
                    !v.sentence_ja.is_empty() && has_japanese(ja) && ja != v.sentence,
                    "{game} {}: no Japanese sentence for “{}”",
                    v.rule,
                    v.sentence
                );
                assert_eq!(v.sentence_in(false), v.sentence);
                seen.insert(v.rule);
            }
        }
        let want: BTreeSet<String> = rules.iter().map(|r| (*r).to_owned()).collect();
        let missed: Vec<_> = want.difference(&seen).collect();
        assert!(
            missed.is_empty(),
            "{game}: no broken deck showed {missed:?} (saw {seen:?})"
        );
    }
}

#[test]
fn a_card_id_too_long_for_a_tag_is_named_in_japanese_too() {
    let demo = Catalogue::builtin(GameId::Jaken).unwrap();
    let long = "L".repeat(cards::tags::MAX_CARD_ID + 1);
    let text = format!(
        "{}\n[[cards]]\nid = \"{long}\"\nname_ja = \"長いID\"\nname_en = \"Long id\"\nkind = \"nm\"\ncost = 1\natk = 1\ndef = 1\ntribe = \"暗灯族\"\n",
        GameId::Jaken.descriptor().demo.text
    );
    let cat = Catalogue::load("long.toml", &text).unwrap();
    assert_eq!(cat.cards.len(), demo.cards.len() + 1);
    let d = deck(&cat, "Aki", None, copies(&[long.as_str()], 1), Vec::new());
    let v = d.check(&cat).unwrap();
    let tag = v.iter().find(|v| v.rule == "deck.tag-id").unwrap();
    assert!(
        tag.sentence_in(true).contains("タグにできません"),
        "{tag:?}"
    );
    assert!(tag.sentence_in(true).contains(&long));
}
