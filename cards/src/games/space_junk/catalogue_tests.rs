//! The Space Junk card schema and deck rules, tested.

use super::card::*;
use super::schema::*;
use crate::catalogue::{Catalogue, CatalogueError};
use crate::core::Violation;
use crate::decks::Deck;

const HEAD: &str = "format = 1\ngame = \"space-junk\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n[[cards]]\nid = \"A\"\nname_ja = \"a\"\nname_en = \"a\"\n";
// HEAD has 10 lines: the first line after it is line 11.

fn load(rest: &str) -> Result<Catalogue, CatalogueError> {
    Catalogue::load("x.toml", &format!("{HEAD}{rest}"))
}

fn err(rest: &str) -> (usize, Option<String>, String) {
    match load(rest) {
        Ok(_) => (0, None, "loaded".into()),
        Err(e) => (e.line, e.field.clone(), e.to_string()),
    }
}

fn junk_of(cat: &Catalogue) -> Vec<(&str, &Junk)> {
    cat.cards
        .iter()
        .filter_map(|c| {
            c.space_junk()
                .and_then(SpaceJunkCard::junk)
                .map(|j| (c.id.as_str(), j))
        })
        .collect()
}

fn characters_of(cat: &Catalogue) -> Vec<(&str, &Character)> {
    cat.cards
        .iter()
        .filter_map(|c| {
            c.space_junk()
                .and_then(SpaceJunkCard::character)
                .map(|ch| (c.id.as_str(), ch))
        })
        .collect()
}

/// A deck file for the demo set with these `[main]` lines.
fn deck(owner: &str, variant: Option<&str>, main: &[String], extra: &[&str]) -> Deck {
    let mut text = format!(
        "format = 1\ngame = \"space-junk\"\nset = \"space-junk-demo\"\nname = \"D\"\nowner = \"{owner}\"\n"
    );
    if let Some(v) = variant {
        text.push_str(&format!("variant = \"{v}\"\n"));
    }
    text.push_str("[main]\n");
    for line in main {
        text.push_str(line);
        text.push('\n');
    }
    if !extra.is_empty() {
        text.push_str("[extra]\n");
        for line in extra {
            text.push_str(line);
            text.push('\n');
        }
    }
    match Deck::load("d.toml", &text) {
        Ok(d) => d,
        Err(e) => unreachable!("test deck does not load: {e}"),
    }
}

fn one_each(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|id| format!("{id} = 1")).collect()
}

fn rules(problems: &[Violation]) -> Vec<&str> {
    problems.iter().map(|v| v.rule.as_str()).collect()
}

// ------------------------------------------------------------------ the demo set

#[test]
fn demo_set_loads_with_every_kind_slot_ram_and_star() {
    // Given the embedded demo set
    let cat = demo().unwrap();
    // Then it is marked as made for the app, and has both kinds of card
    assert!(cat.set.demo);
    assert!(cat.set.note.contains("Not official"), "{}", cat.set.note);
    let junk = junk_of(&cat);
    let characters = characters_of(&cat);
    assert!(!junk.is_empty() && !characters.is_empty());
    // every slot has a card that is worth putting there
    for slot in [Slot::Move, Slot::Attack, Slot::Search] {
        let stat = slot.stat().unwrap();
        assert!(
            junk.iter().any(|(_, j)| j.adds(slot).get(stat) >= 2),
            "{slot:?}"
        );
    }
    assert!(
        junk.iter()
            .any(|(_, j)| Stat::ALL.iter().all(|s| j.values.get(*s) >= 1)),
        "a card adding all three values in the fuselage"
    );
    // the R icon, every * boost, a card with several stars, a negative value, a pure-fame card
    assert!(junk.iter().any(|(_, j)| j.ram));
    assert!(junk.iter().any(|(_, j)| !j.ram));
    for stat in Stat::ALL {
        assert!(junk.iter().any(|(_, j)| j.stars.get(stat)), "{stat:?}");
        // a * printed alone (value 0) and a * beside a number
        assert!(
            junk.iter()
                .any(|(_, j)| j.stars.get(stat) && j.values.get(stat) == 0)
        );
        assert!(
            junk.iter()
                .any(|(_, j)| j.stars.get(stat) && j.values.get(stat) > 0)
        );
    }
    assert!(
        junk.iter()
            .any(|(_, j)| Stat::ALL.iter().all(|s| j.stars.get(*s)))
    );
    assert!(
        junk.iter()
            .any(|(_, j)| Stat::ALL.iter().any(|s| j.values.get(*s) < 0))
    );
    assert!(
        junk.iter()
            .any(|(_, j)| j.values == Stats::default() && !j.stars.any())
    );
    // characters with and without a use limit on their ability, every one with its ability text
    assert!(characters.iter().any(|(_, c)| c.ability_uses.is_some()));
    assert!(characters.iter().any(|(_, c)| c.ability_uses.is_none()));
    for (id, _) in &characters {
        assert!(!cat.card(id).unwrap().text.is_empty(), "{id}");
    }
}

#[test]
fn demo_set_is_big_enough_for_six_players_and_six_rounds() {
    let cat = demo().unwrap();
    assert!(characters_of(&cat).len() >= 6);
    // 6 ships × 7 spaces = 42 cards on the ships alone; the rest keeps the deck going
    // (the search draws about 3 cards a player a round before the reshuffles).
    assert!(junk_of(&cat).len() >= 60, "{}", junk_of(&cat).len());
    assert!(junk_of(&cat).len() >= MIN_JUNK_DECK);
}

#[test]
fn demo_ids_fit_tags_and_every_card_has_both_names() {
    let cat = demo().unwrap();
    for (i, card) in cat.cards.iter().enumerate() {
        assert_eq!(card.id, format!("SJ{:02}", i + 1));
        assert!(card.id.len() <= crate::tags::MAX_CARD_ID);
        assert!(
            card.id
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
        );
        assert!(!card.name_en.is_empty(), "{}", card.id);
        assert!(!card.name_ja.is_ascii(), "{}: {}", card.id, card.name_ja);
    }
}

#[test]
fn demo_decks_are_legal_when_registered_to_the_table() {
    // Given the ready-made lists of the demo set, written as deck files
    let cat = demo().unwrap();
    for (list, variant) in [("junk", None), ("characters", Some(CHARACTERS_VARIANT))] {
        let ids = &cat.deck(list).unwrap().cards;
        let main = one_each(&ids.iter().map(String::as_str).collect::<Vec<_>>());
        // When they are checked
        let problems = deck(TABLE_OWNER, variant, &main, &[]).check(&cat).unwrap();
        // Then they break no rule
        assert!(problems.is_empty(), "{list}: {problems:?}");
    }
    // and together they hold every card of the set exactly once
    let mut all: Vec<&String> = cat.decks.iter().flat_map(|d| &d.cards).collect();
    all.sort();
    let ids: Vec<&String> = cat.cards.iter().map(|c| &c.id).collect();
    assert_eq!(all, ids);
}

// ------------------------------------------------------------------ the values

#[test]
fn slot_cards_add_one_value_and_the_fuselage_all_three() {
    // Worked example 1 (space-junk.md §11): character M2/A1/S1, fuselage M1/A2/S1, Move slots
    // M2 (A3) and M1, Attack slot A3, Search slot S2 → Move 6, Attack 6, Search 4.
    let card = |m, a, s| Junk {
        values: Stats {
            movement: m,
            attack: a,
            search: s,
        },
        stars: Stars::default(),
        ram: false,
        fame: 0,
    };
    let character = Stats {
        movement: 2,
        attack: 1,
        search: 1,
    };
    let ship = [
        (Slot::Fuselage, card(1, 2, 1)),
        (Slot::Move, card(2, 3, 0)),
        (Slot::Move, card(1, 0, 0)),
        (Slot::Attack, card(0, 3, 0)),
        (Slot::Search, card(0, 0, 2)),
    ];
    let total = ship.iter().fold(character, |acc, (slot, j)| {
        let add = j.adds(*slot);
        Stats {
            movement: acc.movement + add.movement,
            attack: acc.attack + add.attack,
            search: acc.search + add.search,
        }
    });
    assert_eq!(
        total,
        Stats {
            movement: 6,
            attack: 6,
            search: 4
        }
    );
    assert_eq!(total.total(), 16);
}

#[test]
fn star_boosts_are_move_3_attack_4_search_2() {
    let cat = demo().unwrap();
    // SJ80 (Mysterious Glowing Rock) has a * in all three values
    let rock = cat
        .card("SJ80")
        .and_then(|c| c.space_junk())
        .and_then(SpaceJunkCard::junk);
    let rock = rock.unwrap();
    assert_eq!(rock.star_boost(Stat::Move), Some(3));
    assert_eq!(rock.star_boost(Stat::Attack), Some(4));
    assert_eq!(rock.star_boost(Stat::Search), Some(2));
    // SJ09 (Unicycle) has none
    let unicycle = cat
        .card("SJ09")
        .and_then(|c| c.space_junk())
        .and_then(SpaceJunkCard::junk);
    assert_eq!(unicycle.unwrap().star_boost(Stat::Move), None);
}

// ------------------------------------------------------------------ loading errors

#[test]
fn a_minimal_card_of_each_kind_loads() {
    let cat = load("kind = \"junk\"\nfame = 0\n").unwrap();
    let j = cat.cards[0]
        .space_junk()
        .and_then(SpaceJunkCard::junk)
        .unwrap();
    assert_eq!(
        (j.values, j.stars, j.ram, j.fame),
        (Stats::default(), Stars::default(), false, 0)
    );
    let cat = load("kind = \"character\"\nmove = 0\nattack = 9\nsearch = 1\n").unwrap();
    let c = cat.cards[0]
        .space_junk()
        .and_then(SpaceJunkCard::character)
        .unwrap();
    assert_eq!((c.stats.attack, c.ability_uses), (9, None));
}

#[test]
fn out_of_range_values_name_line_and_field() {
    // Given a junk card whose search value is too big (line 13)
    let (line, field, msg) = err("kind = \"junk\"\nmove = 1\nsearch = 12\nfame = 1\n");
    // Then the error points at that line and field
    assert_eq!((line, field.as_deref()), (13, Some("search")), "{msg}");
    assert!(msg.contains("x.toml:13"), "{msg}");
    let (line, field, msg) = err("kind = \"junk\"\nfame = 99\n");
    assert_eq!((line, field.as_deref()), (12, Some("fame")), "{msg}");
    let (line, field, msg) = err("kind = \"character\"\nmove = -1\nattack = 1\nsearch = 1\n");
    assert_eq!((line, field.as_deref()), (12, Some("move")), "{msg}");
    let (line, field, msg) =
        err("kind = \"character\"\nmove = 1\nattack = 1\nsearch = 1\nability_uses = 0\n");
    assert_eq!(
        (line, field.as_deref()),
        (15, Some("ability_uses")),
        "{msg}"
    );
    // a number beyond what a card value can hold is a range error too, not a wrap-around
    let (line, field, msg) = err("kind = \"junk\"\nfame = 1\nattack = 300\n");
    assert_eq!((line, field.as_deref()), (13, Some("attack")), "{msg}");
}

#[test]
fn wrong_types_and_unknown_fields_name_line() {
    let (line, _, msg) = err("kind = \"junk\"\nfame = 1\nstar_move = \"yes\"\n");
    assert_eq!(line, 13, "{msg}");
    // the digest's `ram_r` is spelled `ram` in the file
    let (line, field, msg) = err("kind = \"junk\"\nfame = 1\nram_r = true\n");
    assert_eq!((line, field.as_deref()), (13, Some("ram_r")), "{msg}");
}

#[test]
fn unknown_kind_names_line_and_field() {
    let (line, field, msg) = err("kind = \"fuselage\"\nfame = 1\n");
    assert_eq!((line, field.as_deref()), (11, Some("kind")), "{msg}");
    assert!(msg.contains("character or junk"), "{msg}");
}

#[test]
fn required_fields_are_named_at_the_kind_line() {
    // a character needs all three values
    let (line, field, msg) = err("kind = \"character\"\nmove = 1\nattack = 1\n");
    assert_eq!((line, field.as_deref()), (11, Some("search")), "{msg}");
    // a junk card needs its fame
    let (line, field, msg) = err("kind = \"junk\"\nmove = 1\n");
    assert_eq!((line, field.as_deref()), (11, Some("fame")), "{msg}");
}

#[test]
fn forbidden_fields_are_named_at_their_line() {
    // junk-only fields on a character
    for (field, value) in [
        ("fame", "2"),
        ("ram", "true"),
        ("star_move", "true"),
        ("star_attack", "false"),
        ("star_search", "true"),
    ] {
        let (line, got, msg) = err(&format!(
            "kind = \"character\"\nmove = 1\nattack = 1\nsearch = 1\n{field} = {value}\n"
        ));
        assert_eq!((line, got.as_deref()), (15, Some(field)), "{msg}");
    }
    // a character-only field on a junk card
    let (line, field, msg) = err("kind = \"junk\"\nfame = 1\nability_uses = 1\n");
    assert_eq!(
        (line, field.as_deref()),
        (13, Some("ability_uses")),
        "{msg}"
    );
}

// ------------------------------------------------------------------ deck rules

fn demo_ids(cat: &Catalogue, junk: bool) -> Vec<&str> {
    if junk {
        junk_of(cat).into_iter().map(|(id, _)| id).collect()
    } else {
        characters_of(cat).into_iter().map(|(id, _)| id).collect()
    }
}

#[test]
fn a_legal_junk_deck_passes() {
    // Given every demo junk card once, registered to the table
    let cat = demo().unwrap();
    let d = deck(TABLE_OWNER, None, &one_each(&demo_ids(&cat, true)), &[]);
    // Then no rule is broken
    assert_eq!(d.check(&cat).unwrap(), vec![]);
    // and the smallest legal deck passes too
    let d = deck(
        TABLE_OWNER,
        None,
        &one_each(&demo_ids(&cat, true)[..MIN_JUNK_DECK]),
        &[],
    );
    assert_eq!(d.check(&cat).unwrap(), vec![]);
}

#[test]
fn a_junk_deck_owned_by_a_player_is_refused() {
    let cat = demo().unwrap();
    let d = deck("Aki", None, &one_each(&demo_ids(&cat, true)), &[]);
    let problems = d.check(&cat).unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-owner"]);
    assert!(problems[0].sentence.contains("\"Aki\""), "{}", problems[0]);
}

#[test]
fn a_character_in_the_junk_deck_is_refused() {
    let cat = demo().unwrap();
    let mut main = one_each(&demo_ids(&cat, true));
    main.push("SJ01 = 1".into());
    let problems = deck(TABLE_OWNER, None, &main, &[]).check(&cat).unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-kind"]);
    assert!(problems[0].sentence.contains("SJ01"), "{}", problems[0]);
}

#[test]
fn a_second_copy_of_a_junk_card_is_refused() {
    let cat = demo().unwrap();
    let mut main = one_each(&demo_ids(&cat, true));
    main[0] = "SJ09 = 2".into();
    let problems = deck(TABLE_OWNER, None, &main, &[]).check(&cat).unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-unique"]);
    assert!(
        problems[0].sentence.contains("SJ09 (2 copies)"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_junk_deck_too_small_for_six_ships_is_refused() {
    let cat = demo().unwrap();
    let ids = demo_ids(&cat, true);
    let d = deck(TABLE_OWNER, None, &one_each(&ids[..MIN_JUNK_DECK - 1]), &[]);
    let problems = d.check(&cat).unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-size"]);
    assert!(problems[0].sentence.contains("has 41"), "{}", problems[0]);
}

#[test]
fn an_extra_deck_is_refused() {
    let cat = demo().unwrap();
    let ids = demo_ids(&cat, true);
    let d = deck(TABLE_OWNER, None, &one_each(&ids[1..]), &["SJ09 = 1"]);
    let problems = d.check(&cat).unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-extra"]);
}

#[test]
fn every_broken_rule_is_reported_once() {
    // Given a player's deck of 3 junk cards, one doubled, a character, and an extra section
    let cat = demo().unwrap();
    let main = vec![
        "SJ09 = 2".into(),
        "SJ10 = 1".into(),
        "SJ11 = 1".into(),
        "SJ02 = [1, 2]".into(),
    ];
    let d = deck("Ben", None, &main, &["SJ12 = 1"]);
    // Then each rule is cited once
    let problems = d.check(&cat).unwrap();
    assert_eq!(
        rules(&problems),
        [
            "space-junk.deck-owner",
            "space-junk.deck-extra",
            "space-junk.deck-kind",
            "space-junk.deck-unique",
            "space-junk.deck-size",
        ]
    );
    assert!(problems.iter().all(|v| !v.reference.is_empty()));
    // the doubled character counts as a repeated card, and wrong-kind cards do not count
    assert!(
        problems[3].sentence.contains("SJ02 (2 copies)"),
        "{}",
        problems[3]
    );
    assert!(problems[4].sentence.contains("has 3"), "{}", problems[4]);
}

#[test]
fn the_character_pool_has_its_own_rules() {
    let cat = demo().unwrap();
    let characters = demo_ids(&cat, false);
    // Given every demo character once: legal
    let d = deck(
        TABLE_OWNER,
        Some(CHARACTERS_VARIANT),
        &one_each(&characters),
        &[],
    );
    assert_eq!(d.check(&cat).unwrap(), vec![]);
    // When a junk card is added: only characters belong there
    let mut main = one_each(&characters);
    main.push("SJ09 = 1".into());
    let problems = deck(TABLE_OWNER, Some(CHARACTERS_VARIANT), &main, &[])
        .check(&cat)
        .unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-kind"]);
    assert!(problems[0].sentence.contains("SJ09"), "{}", problems[0]);
    // When a character is doubled
    let mut main = one_each(&characters);
    main[0] = "SJ01 = 2".into();
    let problems = deck(TABLE_OWNER, Some(CHARACTERS_VARIANT), &main, &[])
        .check(&cat)
        .unwrap();
    assert_eq!(rules(&problems), ["space-junk.deck-unique"]);
    // When fewer than six characters are listed, or a player owns the pool
    let d = deck(
        "Aki",
        Some(CHARACTERS_VARIANT),
        &one_each(&characters[..5]),
        &[],
    );
    let problems = d.check(&cat).unwrap();
    assert_eq!(
        rules(&problems),
        ["space-junk.deck-owner", "space-junk.deck-size"]
    );
    assert!(problems[1].sentence.contains("has 5"), "{}", problems[1]);
}

#[test]
fn an_unknown_variant_is_reported_alone() {
    let cat = demo().unwrap();
    let d = deck("Aki", Some("draft"), &one_each(&["SJ01", "SJ09"]), &[]);
    let problems = d.check(&cat).unwrap();
    assert_eq!(rules(&problems), ["deck.variant"]);
    assert!(
        problems[0].sentence.contains("characters"),
        "{}",
        problems[0]
    );
}
