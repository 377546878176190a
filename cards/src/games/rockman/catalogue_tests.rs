//! The Rockman EXE card schema and deck rules, tested.

use super::card::*;
use super::schema::*;
use crate::catalogue::{Card, Catalogue, CatalogueError};
use crate::core::Violation;
use crate::decks::Deck;
use std::collections::{BTreeMap, BTreeSet};

fn rockman(card: &Card) -> &RockmanCard {
    card.rockman().unwrap()
}

const HEAD: &str =
    "format = 1\ngame = \"rockman-exe\"\n[set]\nid = \"s\"\nname_en = \"S\"\nname_ja = \"S\"\n";

/// A one-card catalogue: `HEAD` (6 lines), then `[[cards]]` on line 7 and `body` from line 8.
fn one(body: &str) -> Result<Catalogue, CatalogueError> {
    load("x.toml", &format!("{HEAD}[[cards]]\n{body}"))
}

fn err(body: &str) -> CatalogueError {
    one(body).unwrap_err()
}

const VIRUS: &str = "id = \"V1\"\nname_ja = \"ウイルス\"\nname_en = \"Virus\"\nkind = \"virus\"\nlevel = 1\nattack = 10\ndefence = 30\nhp = 50\n";

// ---- the demo set ----

#[test]
fn demo_set_loads_with_every_kind_level_and_field() {
    // Given the embedded demo set
    let cat = demo().unwrap();
    // Then it is marked as made for the app, not official
    assert_eq!(cat.game, crate::core::GameId::RockmanExe);
    assert!(cat.set.demo);
    assert!(cat.set.note.contains("not official"), "{}", cat.set.note);
    let data: Vec<&RockmanCard> = cat.cards.iter().map(rockman).collect();
    // and it holds every kind
    for kind in ["navi", "virus", "chip", "battler", "style"] {
        assert!(data.iter().any(|c| c.kind() == kind), "{kind}");
    }
    let viruses: Vec<&RockmanVirus> = data
        .iter()
        .filter_map(|c| match c {
            RockmanCard::Virus(v) => Some(v),
            _ => None,
        })
        .collect();
    let chips: Vec<&RockmanChip> = data
        .iter()
        .filter_map(|c| match c {
            RockmanCard::Chip(v) => Some(v),
            _ => None,
        })
        .collect();
    // Lv1: chips of every level, with and without attack; Lv2: viruses of every level
    for level in LEVELS {
        assert!(chips.iter().any(|c| c.level == level), "chip level {level}");
        assert!(
            viruses.iter().any(|v| v.level == level),
            "virus level {level}"
        );
    }
    assert!(chips.iter().any(|c| c.attack.is_none()));
    assert!(chips.iter().any(|c| c.attack.is_some()));
    // Lv2 evolution, both ends, and a two-step chain
    assert!(
        viruses
            .iter()
            .any(|v| v.evolves_from.is_some() && !v.evolves_to.is_empty())
    );
    // the seed's 30/50 virus and a defence-0 one
    assert!(viruses.iter().any(|v| (v.defence, v.hp) == (30, 50)));
    assert!(viruses.iter().any(|v| v.defence == 0));
    // Lv3: style cards, one with an end-phase effect
    assert!(
        data.iter()
            .any(|c| matches!(c, RockmanCard::Style(s) if s.end_phase.is_some()))
    );
    assert!(
        data.iter()
            .any(|c| matches!(c, RockmanCard::Navi(n) if n.end_phase.is_some()))
    );
    assert!(viruses.iter().any(|v| v.end_phase.is_some()));
    // every target pattern is used
    let targets: BTreeSet<Target> = data
        .iter()
        .filter_map(|c| match c {
            RockmanCard::Navi(n) => Some(n.target),
            RockmanCard::Virus(v) => Some(v.target),
            RockmanCard::Chip(c) => c.target,
            _ => None,
        })
        .collect();
    assert_eq!(targets.len(), Target::ALL.len(), "{targets:?}");
    // and at least two ready-made decks
    assert!(cat.decks.len() >= 2);
}

#[test]
fn demo_cards_are_tag_safe_and_named_in_both_languages() {
    let cat = demo().unwrap();
    for card in &cat.cards {
        assert!(tag_safe(&card.id), "{}", card.id);
        assert!(card.id.starts_with("RX"), "{}", card.id);
        assert!(
            !card.name_en.is_empty() && card.name_en.is_ascii(),
            "{}",
            card.id
        );
        assert!(!card.name_ja.is_ascii(), "{} has no Japanese name", card.id);
    }
}

#[test]
fn demo_cards_round_trip_through_json() {
    let cat = demo().unwrap();
    let json = serde_json::to_string(&cat).unwrap();
    let back: Catalogue = serde_json::from_str(&json).unwrap();
    assert_eq!(back, cat);
}

#[test]
fn max_level_follows_the_seed_bands() {
    // Worked example 6: 200 and 110 → level 1; 100 and 60 → 2; 50 and below → 3.
    for (hp, level) in [
        (200, 1),
        (110, 1),
        (100, 2),
        (60, 2),
        (50, 3),
        (10, 3),
        (0, 3),
    ] {
        assert_eq!(max_level(hp), level, "HP {hp}");
    }
    // Between the steps of 10, the same thresholds.
    assert_eq!((max_level(105), max_level(55)), (2, 3));
}

// ---- card validation ----

#[test]
fn a_minimal_virus_loads_with_the_default_target() {
    let cat = one(VIRUS).unwrap();
    let card = cat.card("V1").unwrap();
    assert_eq!(
        rockman(card),
        &RockmanCard::Virus(RockmanVirus {
            level: 1,
            attack: 10,
            target: Target::Adjacent,
            defence: 30,
            hp: 50,
            evolves_from: None,
            evolves_to: vec![],
            end_phase: None,
        })
    );
}

#[test]
fn japanese_kind_and_target_are_accepted() {
    let cat = one("id = \"N1\"\nname_ja = \"ナビ\"\nname_en = \"Navi\"\nkind = \"ナビ\"\nattack = 30\ntarget = \"直線\"\n").unwrap();
    assert_eq!(
        rockman(cat.card("N1").unwrap()),
        &RockmanCard::Navi(RockmanNavi {
            attack: 30,
            target: Target::Lane,
            end_phase: None
        })
    );
}

#[test]
fn bad_numbers_name_their_line_and_field() {
    // Given a virus whose HP (line 15) is not a multiple of 10
    let e = err(&VIRUS.replace("hp = 50", "hp = 55"));
    // Then the error names line 15 and `hp`
    assert_eq!((e.line, e.field.as_deref()), (15, Some("hp")), "{e}");
    assert!(e.to_string().starts_with("x.toml:15:"), "{e}");
    // An attack above 200 (line 13), a level of 4 (line 12), a negative defence (line 14)
    let e = err(&VIRUS.replace("attack = 10", "attack = 210"));
    assert_eq!((e.line, e.field.as_deref()), (13, Some("attack")), "{e}");
    let e = err(&VIRUS.replace("level = 1", "level = 4"));
    assert_eq!((e.line, e.field.as_deref()), (12, Some("level")), "{e}");
    let e = err(&VIRUS.replace("defence = 30", "defence = -10"));
    assert_eq!((e.line, e.field.as_deref()), (14, Some("defence")), "{e}");
    // A virus needs at least 10 HP
    let e = err(&VIRUS.replace("hp = 50", "hp = 0"));
    assert_eq!((e.line, e.field.as_deref()), (15, Some("hp")), "{e}");
    // A number written as text is a TOML type error on its line
    let e = err(&VIRUS.replace("hp = 50", "hp = \"fifty\""));
    assert_eq!(e.line, 15, "{e}");
}

#[test]
fn unknown_enum_values_name_their_line_and_field() {
    let e = err(&VIRUS.replace("kind = \"virus\"", "kind = \"trap\""));
    assert_eq!((e.line, e.field.as_deref()), (11, Some("kind")), "{e}");
    let e = err(&format!("{VIRUS}target = \"diagonal\"\n"));
    assert_eq!((e.line, e.field.as_deref()), (16, Some("target")), "{e}");
    assert!(e.message.contains("lane-all"), "{e}");
}

#[test]
fn unknown_field_is_refused_by_name() {
    let e = err(&format!("{VIRUS}defense = 30\n"));
    assert_eq!((e.line, e.field.as_deref()), (16, Some("defense")), "{e}");
}

#[test]
fn required_fields_are_asked_for_at_the_kind_line() {
    // A virus without defence: the error points at `kind` (line 11) and names `defence`
    let e = err(&VIRUS.replace("defence = 30\n", ""));
    assert_eq!((e.line, e.field.as_deref()), (11, Some("defence")), "{e}");
    let e = err(&VIRUS.replace("level = 1\n", ""));
    assert_eq!(e.field.as_deref(), Some("level"), "{e}");
    // A navi needs an attack
    let e = err("id = \"N1\"\nname_ja = \"ナビ\"\nname_en = \"N\"\nkind = \"navi\"\n");
    assert_eq!((e.line, e.field.as_deref()), (11, Some("attack")), "{e}");
    // A chip needs a level
    let e = err("id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nattack = 10\n");
    assert_eq!((e.line, e.field.as_deref()), (11, Some("level")), "{e}");
    // A battler, a style and a chip without attack need their text
    for body in [
        "id = \"B1\"\nname_ja = \"バ\"\nname_en = \"B\"\nkind = \"battler\"\n",
        "id = \"S1\"\nname_ja = \"ス\"\nname_en = \"S\"\nkind = \"style\"\n",
        "id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nlevel = 1\n",
    ] {
        let e = err(body);
        assert_eq!((e.line, e.field.as_deref()), (11, Some("text")), "{e}");
    }
    // A manual target needs the text that describes it
    let e = err(&format!("{VIRUS}target = \"manual\"\n"));
    assert_eq!(e.field.as_deref(), Some("text"), "{e}");
}

#[test]
fn forbidden_fields_are_refused_at_their_line() {
    // A navi has no HP of its own (damage comes off the HP gauge)
    let e = err(
        "id = \"N1\"\nname_ja = \"ナ\"\nname_en = \"N\"\nkind = \"navi\"\nattack = 10\nhp = 100\n",
    );
    assert_eq!((e.line, e.field.as_deref()), (13, Some("hp")), "{e}");
    // A chip has no defence
    let e = err(
        "id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nlevel = 1\nattack = 10\ndefence = 10\n",
    );
    assert_eq!((e.line, e.field.as_deref()), (14, Some("defence")), "{e}");
    // A chip without attack has no target
    let e = err(
        "id = \"C1\"\nname_ja = \"チ\"\nname_en = \"C\"\nkind = \"chip\"\nlevel = 1\ntarget = \"any\"\ntext = \"t\"\n",
    );
    assert_eq!((e.line, e.field.as_deref()), (13, Some("target")), "{e}");
    // A battler has no level, and no end-phase effect (it is discarded at once)
    let e = err(
        "id = \"B1\"\nname_ja = \"バ\"\nname_en = \"B\"\nkind = \"battler\"\ntext = \"t\"\nlevel = 2\n",
    );
    assert_eq!((e.line, e.field.as_deref()), (13, Some("level")), "{e}");
    let e = err(
        "id = \"B1\"\nname_ja = \"バ\"\nname_en = \"B\"\nkind = \"battler\"\ntext = \"t\"\nend_phase = \"x\"\n",
    );
    assert_eq!((e.line, e.field.as_deref()), (13, Some("end_phase")), "{e}");
    // A style card has no attack
    let e = err(
        "id = \"S1\"\nname_ja = \"ス\"\nname_en = \"S\"\nkind = \"style\"\ntext = \"t\"\nattack = 10\n",
    );
    assert_eq!((e.line, e.field.as_deref()), (13, Some("attack")), "{e}");
    // Only viruses evolve
    let e = err(
        "id = \"N1\"\nname_ja = \"ナ\"\nname_en = \"N\"\nkind = \"navi\"\nattack = 10\nevolves_to = [\"N2\"]\n",
    );
    assert_eq!(
        (e.line, e.field.as_deref()),
        (13, Some("evolves_to")),
        "{e}"
    );
}

#[test]
fn ids_must_fit_a_tag() {
    let e = err(&VIRUS.replace("\"V1\"", "\"v1\""));
    assert_eq!((e.line, e.field.as_deref()), (8, Some("id")), "{e}");
    let e = err(&VIRUS.replace("\"V1\"", "\"RX-0123456789ABCDE\""));
    assert_eq!((e.line, e.field.as_deref()), (8, Some("id")), "{e}");
}

#[test]
fn empty_names_are_refused() {
    let e = err(&VIRUS.replace("name_en = \"Virus\"", "name_en = \"\""));
    assert_eq!((e.line, e.field.as_deref()), (10, Some("name_en")), "{e}");
}

// ---- evolution links ----

fn chain(base_to: &str, next_level: u8, next_from: &str) -> String {
    format!(
        "{HEAD}[[cards]]\n{}evolves_to = [{base_to}]\n[[cards]]\n{}evolves_from = \"{next_from}\"\n",
        VIRUS,
        VIRUS
            .replace("\"V1\"", "\"V2\"")
            .replace("level = 1", &format!("level = {next_level}"))
    )
}

#[test]
fn consistent_evolution_loads() {
    let cat = load("x.toml", &chain("\"V2\"", 2, "V1")).unwrap();
    let Some(RockmanCard::Virus(v)) = cat.card("V1").map(rockman) else {
        panic!()
    };
    assert_eq!(v.evolves_to, ["V2"]);
}

#[test]
fn evolution_into_a_missing_card_names_the_line() {
    // `evolves_to` of V1 is on line 16
    let e = load("x.toml", &chain("\"V9\"", 2, "V1")).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (16, Some("evolves_to")),
        "{e}"
    );
    assert!(e.message.contains("V9"), "{e}");
}

#[test]
fn evolution_must_be_printed_on_both_cards() {
    // V2 says it evolves from V1, but V1 lists nothing: the error is at V2's `evolves_from`
    let text = chain("\"V2\"", 2, "V1").replace("evolves_to = [\"V2\"]\n", "");
    let e = load("x.toml", &text).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (25, Some("evolves_from")),
        "{e}"
    );
}

#[test]
fn evolution_must_raise_the_level() {
    let e = load("x.toml", &chain("\"V2\"", 1, "V1")).unwrap_err();
    assert_eq!(
        (e.line, e.field.as_deref()),
        (16, Some("evolves_to")),
        "{e}"
    );
    assert!(e.message.contains("raise the level"), "{e}");
}

#[test]
fn a_virus_cannot_evolve_into_itself() {
    let e = err(&format!("{VIRUS}evolves_to = [\"V1\"]\n"));
    assert_eq!(
        (e.line, e.field.as_deref()),
        (16, Some("evolves_to")),
        "{e}"
    );
}

// ---- decks ----

fn deck_text(main: &[&str], extra: &[&str], variant: Option<&str>) -> String {
    let mut text = String::from(
        "format = 1\ngame = \"rockman-exe\"\nset = \"rockman-exe-demo\"\nname = \"D\"\nowner = \"Aki\"\n",
    );
    if let Some(v) = variant {
        text.push_str(&format!("variant = \"{v}\"\n"));
    }
    for (section, ids) in [("main", main), ("extra", extra)] {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for id in ids {
            *counts.entry(id).or_default() += 1;
        }
        text.push_str(&format!("[{section}]\n"));
        for (id, n) in counts {
            text.push_str(&format!("{id} = {n}\n"));
        }
    }
    text
}

fn check(main: &[&str], extra: &[&str], variant: Option<&str>) -> Vec<Violation> {
    let cat = demo().unwrap();
    let deck = Deck::load("d.toml", &deck_text(main, extra, variant)).unwrap();
    deck.check(&cat).unwrap()
}

fn rules(v: &[Violation]) -> Vec<&str> {
    v.iter().map(|v| v.rule.as_str()).collect()
}

/// The first ready-made deck of the demo set, one id per copy.
fn aozora() -> Vec<String> {
    demo().unwrap().deck("aozora").unwrap().cards.clone()
}

#[test]
fn ready_made_decks_are_legal() {
    let cat = demo().unwrap();
    for list in &cat.decks {
        let ids: Vec<&str> = list.cards.iter().map(String::as_str).collect();
        let v = check(&ids, &[], None);
        assert!(v.is_empty(), "{}: {v:?}", list.id);
    }
}

#[test]
fn a_30_card_deck_with_a_navi_is_legal() {
    // Given 1 navi and 29 other cards, copies of any count
    let mut ids = vec!["RX03"];
    ids.extend(["RX18"; 20]);
    ids.extend(["RX27"; 9]);
    // Then no rule is broken (there is no copy limit)
    assert_eq!(check(&ids, &[], None), vec![]);
}

#[test]
fn a_short_or_long_deck_breaks_only_deck_size() {
    let full = aozora();
    let ids: Vec<&str> = full.iter().map(String::as_str).collect();
    // 29 cards: drop the last (not the only navi)
    let v = check(&ids[..29], &[], None);
    assert_eq!(rules(&v), ["rockman-exe.deck-size"], "{v:?}");
    assert!(v[0].sentence.contains("has 29 (add 1)"), "{}", v[0]);
    // 31 cards
    let mut long = ids.clone();
    long.push("RX27");
    let v = check(&long, &[], None);
    assert_eq!(rules(&v), ["rockman-exe.deck-size"], "{v:?}");
    assert!(v[0].sentence.contains("has 31 (remove 1)"), "{}", v[0]);
}

#[test]
fn a_deck_without_a_navi_breaks_only_deck_navi() {
    let mut ids = vec!["RX05"; 10];
    ids.extend(["RX18"; 15]);
    ids.extend(["RX27"; 5]);
    let v = check(&ids, &[], None);
    assert_eq!(rules(&v), ["rockman-exe.deck-navi"], "{v:?}");
    assert!(
        v[0].sentence.contains("battler 5, chip 15, virus 10"),
        "{}",
        v[0]
    );
}

#[test]
fn an_extra_deck_breaks_only_deck_extra() {
    // 30 legal main cards plus 2 in the extra section
    let full = aozora();
    let ids: Vec<&str> = full.iter().map(String::as_str).collect();
    let v = check(&ids, &["RX29", "RX29"], None);
    assert_eq!(rules(&v), ["rockman-exe.deck-extra"], "{v:?}");
    assert!(v[0].sentence.contains("RX29 #1, RX29 #2"), "{}", v[0]);
}

#[test]
fn a_variant_breaks_only_deck_variant() {
    let full = aozora();
    let ids: Vec<&str> = full.iter().map(String::as_str).collect();
    let v = check(&ids, &[], Some("lv3"));
    assert_eq!(rules(&v), ["deck.variant"], "{v:?}");
    assert!(v[0].sentence.contains("lv3"), "{}", v[0]);
}

#[test]
fn every_broken_rule_is_reported_once() {
    let v = check(&["RX18", "RX18"], &["RX01"], Some("draft"));
    assert_eq!(
        rules(&v),
        [
            "deck.variant",
            "rockman-exe.deck-size",
            "rockman-exe.deck-navi",
            "rockman-exe.deck-extra"
        ],
        "{v:?}"
    );
    for violation in &v {
        assert!(!violation.reference.is_empty());
    }
}
